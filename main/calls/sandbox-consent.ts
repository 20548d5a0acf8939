// When the jail, not the task, blocked a command: the model is told so, and the user is offered to
// allow that path (for this session, or always, persisted) or keep it denied. Never offered for
// writing: the filesystem root, the home folder itself, or anything that is or holds a credential
// location. A read the jail hid (a dot-entry of the home folder, a credential file) is offered for that
// one existing file only, never a folder and never Threshold's own files. A host the egress proxy
// refused is offered as a host grant (this session, for an hour, always), never for an address of this
// computer (loopback, link-local, localhost) or a protocol the proxy does not carry. Each (session,
// path or host, access) is offered once.
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JailViolation } from '../../executor/types';
import { isHostLocalAddress } from '../../common/addresses';
import { canonicalHost, hostPatternProblem, hostPort, isLocalhostName } from '../../common/hosts';
import { OUTSIDE_JAIL_CODE_PATHS, containsCredentialLocation, isCredentialPath, isInside, type PathContext } from '../policy/paths';
import { Redactor } from '../redact/redactor';
import { newId } from '../store/ids';
import type { Store } from '../store/store';

export interface ConsentOffer {
  id: string;
  session_id: string;
  call_id: string;
  /** The exact path, or its nearest existing ancestor for a new file; for a host, the pattern a grant would add. */
  path: string;
  /**
   * write: a path outside the workspace; code: a workspace file whose code runs outside the jail;
   * read: one file the jail hides (a home dot-entry, a credential file), shown inside once allowed;
   * host: a host (and port, unless 80/443) the egress proxy refused.
   */
  access: 'write' | 'code' | 'read' | 'host';
  /** What the command tried, as reported. */
  attempted: string;
  evidence: string;
  /** Why the jail kept it read-only, when it is more than "outside the workspace" (e.g. the checkpoint cannot restore it). */
  reason?: string;
  created_at: number;
}

/** hour: for a time (an hour from the answer); host offers only, path grants have no expiry. */
export type ConsentChoice = 'session' | 'hour' | 'always' | 'deny';

/** How long "for a time" lasts. */
export const HOST_GRANT_MS = 60 * 60 * 1000;

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
      if (v.kind !== 'write_denied' && v.kind !== 'read_denied' && v.kind !== 'host_denied') continue;
      const p = this.paths();
      let path: string;
      let access: ConsentOffer['access'];
      if (v.kind === 'host_denied') {
        const pattern = v.host ? hostGrantPattern(v.host) : null;
        if (pattern === null) continue;
        path = pattern;
        access = 'host';
      } else if (v.kind === 'read_denied') {
        if (!readOfferable(v.target, p)) continue;
        path = v.target;
        access = 'read';
      } else {
        const isCode = isInside(v.target, p.workspace) && OUTSIDE_JAIL_CODE_PATHS.some((c) => isInside(v.target, `${p.workspace}/${c}`));
        path = isCode ? protectedRoot(v.target, p.workspace) : nearestExisting(v.target);
        if (!offerable(path, p)) continue;
        access = isCode ? 'code' : 'write';
      }
      const key = `${ctx.sessionId}\u0000${access}\u0000${path}`;
      if (this.offered.has(key)) continue;
      this.offered.add(key);
      const offer: ConsentOffer = { id: newId('sb'), session_id: ctx.sessionId, call_id: ctx.callId, path, access, attempted: v.target, evidence: v.evidence, created_at: this.now() };
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
    if (choice === 'hour' && offer.access !== 'host') return { ok: false, error: { code: 'invalid', message: 'Allowing for a time is for hosts only; a path is allowed for this session or always.' } };
    this.open.delete(id);
    const at = this.now();
    this.store.transaction(() => {
      if (choice !== 'deny' && offer.access === 'host') {
        this.store.hostGrants.insert({ pattern: offer.path, scope: choice === 'hour' ? 'until' : choice, session_id: choice === 'session' ? offer.session_id : null, expires_at: choice === 'hour' ? at + HOST_GRANT_MS : null, created_at: at });
      } else if (choice !== 'deny' && choice !== 'hour' && offer.access !== 'host') {
        this.store.checkpoints.grantPath({ path: offer.path, access: offer.access, scope: choice, session_id: choice === 'session' ? offer.session_id : null, created_at: at });
      }
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

  /** Host patterns the user allowed the egress proxy to reach, in force now for a session. */
  hosts(sessionId: string | null): string[] {
    return this.store.hostGrants.patterns(sessionId, this.now());
  }

  /** Hidden files the user allowed the jail to show, for a session. */
  readable(sessionId: string | null): string[] {
    return this.store.checkpoints.grantedPaths('read', sessionId);
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

/** System files that hold every user's secrets: never shown, whatever the user answers. */
const NEVER_READABLE = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh', '/root/.ssh', '/var/lib/sss'];

/** A read the jail hid may be offered for one existing regular file, never Threshold's own. */
function readOfferable(path: string, p: PathContext): boolean {
  if (path === '/' || path === p.home) return false;
  if (p.appDirs.some((d) => isInside(path, d) || isInside(d, path))) return false;
  if (NEVER_READABLE.some((d) => isInside(path, d))) return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The pattern a grant for a refused host adds: the name (ports 80 and 443) or name:port, so a grant names
 * host and port for anything but the web. None for this computer's addresses: a card must not open the
 * host's own services to the jail.
 */
export function hostGrantPattern(h: { name: string; port: number; grantable: boolean }): string | null {
  if (!h.grantable) return null;
  const c = canonicalHost(h.name);
  if (!c.ok || isLocalhostName(c.host) || (c.kind !== 'name' && isHostLocalAddress(c.host))) return null;
  const bare = c.kind === 'ipv6' ? `[${c.host}]` : c.host;
  const pattern = h.port === 80 || h.port === 443 ? bare : hostPort(c.host, h.port);
  return hostPatternProblem(pattern) === null ? pattern : null;
}
