// When the jail, not the task, blocked a command: the model is told so, and the user is offered to
// allow that path (for this session, or always, persisted) or keep it denied. Never offered: the
// filesystem root, the home folder itself, or anything that is or holds a credential location. Each
// (session, path) is offered once.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JailViolation } from '../../executor/types';
import { OUTSIDE_JAIL_CODE_PATHS, containsCredentialLocation, isCredentialPath, isInside, type PathContext } from '../policy/paths';
import { Redactor } from '../redact/redactor';
import { newId } from '../store/ids';
import type { Store } from '../store/store';

export interface ConsentOffer {
  id: string;
  session_id: string;
  call_id: string;
  /** The exact path, or its nearest existing ancestor for a new file. */
  path: string;
  /** write: a path outside the workspace; code: a workspace file whose code runs outside the jail. */
  access: 'write' | 'code';
  /** What the command tried, as reported. */
  attempted: string;
  evidence: string;
  /** Why the jail kept it read-only, when it is more than "outside the workspace" (e.g. the checkpoint cannot restore it). */
  reason?: string;
  created_at: number;
}

export type ConsentChoice = 'session' | 'always' | 'deny';

export class SandboxConsent {
  private readonly offered = new Set<string>();
  private readonly open = new Map<string, ConsentOffer>();

  constructor(
    private readonly store: Store,
    private readonly paths: () => PathContext,
    private readonly now: () => number = Date.now,
    private readonly redactor: Redactor = new Redactor({ home: paths().home }),
  ) {}

  /** Turns violations into offers (none for what may never be offered, or was offered already). */
  offersFor(violations: readonly JailViolation[], ctx: { sessionId: string; callId: string }): ConsentOffer[] {
    const offers: ConsentOffer[] = [];
    for (const v of violations) {
      if (v.kind !== 'write_denied') continue;
      const p = this.paths();
      const isCode = isInside(v.target, p.workspace) && OUTSIDE_JAIL_CODE_PATHS.some((c) => isInside(v.target, `${p.workspace}/${c}`));
      const path = isCode ? protectedRoot(v.target, p.workspace) : nearestExisting(v.target);
      if (!offerable(path, p)) continue;
      const key = `${ctx.sessionId}\u0000${path}`;
      if (this.offered.has(key)) continue;
      this.offered.add(key);
      const offer: ConsentOffer = { id: newId('sb'), session_id: ctx.sessionId, call_id: ctx.callId, path, access: isCode ? 'code' : 'write', attempted: v.target, evidence: v.evidence, created_at: this.now() };
      this.open.set(offer.id, offer);
      offers.push(offer);
    }
    return offers;
  }

  pending(): ConsentOffer[] {
    return [...this.open.values()];
  }

  decide(id: string, choice: ConsentChoice, by: string): { ok: true; value: ConsentOffer } | { ok: false; error: { code: string; message: string } } {
    const offer = this.open.get(id);
    if (!offer) return { ok: false, error: { code: 'not_found', message: `There is no open sandbox request ${id} (it may have been answered).` } };
    this.open.delete(id);
    const at = this.now();
    this.store.transaction(() => {
      if (choice !== 'deny') this.store.checkpoints.grantPath({ path: offer.path, access: offer.access, scope: choice, session_id: choice === 'session' ? offer.session_id : null, created_at: at });
      this.store.audit.append({ at, kind: 'sandbox.consent', session_id: offer.session_id, subject: id, data: this.redactor.redactRecord({ path: offer.path, access: offer.access, choice, by }) });
    });
    return { ok: true, value: offer };
  }

  /** Paths the jail should leave writable for a session. */
  writable(sessionId: string | null): string[] {
    return this.store.checkpoints.grantedPaths('write', sessionId);
  }

  codePaths(sessionId: string | null): string[] {
    return this.store.checkpoints.grantedPaths('code', sessionId);
  }
}

function nearestExisting(p: string): string {
  let cur = p;
  while (cur !== '/' && !existsSync(cur)) cur = dirname(cur);
  return cur;
}

function protectedRoot(target: string, workspace: string): string {
  for (const c of OUTSIDE_JAIL_CODE_PATHS) {
    const root = `${workspace}/${c}`;
    if (isInside(target, root)) return root;
  }
  return target;
}

function offerable(path: string, p: PathContext): boolean {
  if (path === '/' || path === p.home) return false;
  if (isCredentialPath(path, p) || containsCredentialLocation(path, p)) return false;
  return !p.appDirs.some((d) => isInside(path, d) || isInside(d, path));
}
