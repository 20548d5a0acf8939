// The workspace of a user's worst day, and the loop every undo test runs: the command goes through the
// gate at auto-edit, the checkpoint and the jail; then the checkpoint taken before it is restored and
// the whole workspace is compared with its fingerprint from before.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HumanOutcome, PendingApproval } from '../../common/approvals';
import { DEFAULT_CONFIG } from '../../main/config/load';
import type { ThresholdCore } from '../../main/runtime/core';
import type { ConsentOffer } from '../../main/calls/sandbox-consent';
import { testCore } from '../support/core';
import { jailFixture, type JailFixture } from '../support/jail';
import { fingerprint, repositoryIntact, userGit, type Fingerprint } from './undo-fingerprint';

/** The checkpoint size cap in these tests. */
export const CAP = 256 * 1024;

/** What the template's checkpoints do not hold (ignored, oversized, regenerable): a call a person
 *  approves may change it, and a restore cannot bring it back. */
export const UNHELD = ['data', 'debug.log', 'logs/run.log', 'big.bin', 'assets', 'node_modules', 'build'];

export interface Case {
  name: string;
  command: string;
  /** The gate lets it run unprompted (false: it asks). */
  unprompted: boolean;
  /** Whether the command changed the workspace before the restore (false: the jail kept it all). */
  changed: boolean;
  /** For a call that asks: what the card says. */
  why?: RegExp;
  /** Regenerable paths a restore does not bring back. */
  regenerable?: string[];
  /** Files the command added that the checkpoint cannot know of (a copy over the size cap). */
  leftover?: string[];
}

/** Commits on two branches (one unmerged), an annotated tag, two stashes, a pack and loose objects, plus
 *  untracked, ignored, oversized and regenerable files. */
function buildTemplate(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const w = (rel: string, content: string | Buffer) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  };
  const g = (...a: string[]) => userGit(dir, ...a);
  g('init', '-q', '-b', 'main', '--template=');
  w('.gitignore', 'data/\n*.log\nnode_modules/\nbuild/\n');
  w('a.txt', 'tracked a\n');
  w('src/b.ts', 'export const b = 1;\n');
  w('logs/keep.txt', 'tracked in logs\n');
  w('assets/huge.psd', Buffer.alloc(CAP * 2, 7));
  g('add', '-A');
  g('commit', '-qm', 'first');
  g('tag', '-a', 'v1', '-m', 'release one');
  g('checkout', '-qb', 'feature');
  w('feature.txt', 'unmerged work\n');
  g('add', 'feature.txt');
  g('commit', '-qm', 'feature work');
  g('checkout', '-q', 'main');
  w('a.txt', 'tracked a, second version\n');
  g('commit', '-qam', 'second');
  g('gc', '-q');
  w('a.txt', 'stashed change one\n');
  g('stash', 'push', '-q', '-m', 'stash one');
  w('src/b.ts', 'export const b = 2; // stashed\n');
  g('stash', 'push', '-q', '-m', 'stash two');
  w('loose.txt', 'a loose object\n');
  g('add', 'loose.txt');
  g('commit', '-qm', 'third (loose objects)');
  w('notes.txt', 'untracked notes\n');
  w('data/results.csv', 'irreplaceable,results\n');
  w('data/raw/sample.bin', Buffer.alloc(1000, 3));
  w('debug.log', 'ignored log at the top\n');
  w('logs/run.log', 'ignored log beside a tracked file\n');
  w('big.bin', Buffer.alloc(CAP + 1, 9));
  w('node_modules/dep/index.js', 'module.exports = 1;\n');
  w('build/out.js', 'built\n');
}

export interface UndoBench {
  core: ThresholdCore;
  ws: string;
  offers: ConsentOffer[];
  runAndRestore(c: Case, approve: boolean): Promise<UndoResult>;
  reset(): void;
  close(): Promise<void>;
}

export interface UndoResult {
  unprompted: boolean;
  card: PendingApproval | undefined;
  ran: boolean;
  changed: boolean;
  /** The restored fingerprint equals the one before (regenerable and leftover paths aside). */
  restored: boolean;
  intact: string;
  before: Fingerprint;
  after: Fingerprint | null;
  text: string;
}

export async function undoBench(): Promise<UndoBench> {
  const fx: JailFixture = await jailFixture();
  const ws = join(fx.home, 'repo');
  const template = join(fx.root, 'template');
  buildTemplate(template);
  mkdirSync(ws);
  const core = await testCore({
    level: 'auto-edit',
    paths: { home: fx.home, workspace: ws, appDirs: [fx.configDir, fx.dataDir] },
    dataDir: fx.dataDir,
    config: { executor: { ...DEFAULT_CONFIG.executor, checkpointMaxFileBytes: CAP } },
  });
  let answer: HumanOutcome = 'skip';
  const asked: PendingApproval[] = [];
  const offers: ConsentOffer[] = [];
  core.events.on('approval.requested', (p) => {
    asked.push(p);
    void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: answer, surface: 'desktop' });
  });
  core.events.on('sandbox.denied', (o) => offers.push(o));
  const reset = () => {
    for (const name of readdirSync(ws)) rmSync(join(ws, name), { recursive: true, force: true });
    cpSync(template, ws, { recursive: true, preserveTimestamps: true });
  };
  reset();
  // Every case starts from the same copy, so one fingerprint stands for all of them.
  const pristine = fingerprint(ws);

  async function runAndRestore(c: Case, approve: boolean): Promise<UndoResult> {
    reset();
    const seen = asked.length;
    answer = approve ? 'approve_once' : 'skip';
    const v = await core.calls.review({ sessionId: `s-${Math.random()}`, turnId: 't', turnKind: 'reactive', tool: 'run_command', args: { command: c.command }, cwd: ws });
    const card = asked.slice(seen)[0];
    const none = { card, before: pristine, after: null, intact: 'intact', text: '' };
    if (!v.run) return { ...none, unprompted: false, ran: false, changed: false, restored: true };
    const report = await core.calls.runCommand({ callId: v.callId, sessionId: 'undo', command: c.command, cwd: ws, evaluation: v.evaluation });
    const after = fingerprint(ws);
    await core.checkpoints.restore(report.checkpoint!.id, 'test');
    const skip = [...(c.regenerable ?? []), ...(c.leftover ?? [])];
    const restoredPrint = without(fingerprint(ws), skip);
    return {
      ...none,
      unprompted: card === undefined,
      ran: true,
      changed: JSON.stringify(after) !== JSON.stringify(pristine),
      restored: JSON.stringify(restoredPrint) === JSON.stringify(without(pristine, skip)),
      intact: repositoryIntact(ws),
      before: without(pristine, skip),
      after: restoredPrint,
      text: report.text,
    };
  }

  return {
    core,
    ws,
    offers,
    runAndRestore,
    reset,
    close: async () => {
      core.dispose();
      await fx.close();
    },
  };
}

function without(f: Fingerprint, prefixes: string[]): Fingerprint {
  return { ...f, files: Object.fromEntries(Object.entries(f.files).filter(([k]) => !prefixes.some((p) => k.startsWith(p)))) };
}
