// Fills a data directory's history with many calls through the real store and the real call lifecycle
// (rows, state moves, audit entries under the data directory's own key), so the chain still verifies and
// the History screen reads what a long-used Threshold would hold. Run before the daemon opens it.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDecidedBy, type DecidedBy } from '../../common/decided-by';
import type { Class } from '../../common/domain';
import { Redactor, redactedJson } from '../../main/redact/redactor';
import { Store } from '../../main/store/store';

interface Kind {
  tool: string;
  args: (i: number) => Record<string, unknown>;
  class: Class;
  decision: 'allow' | 'deny';
  by: DecidedBy;
  /** How it ended when it ran (null: refused, never ran). */
  ran: { status: 'succeeded' | 'failed'; exit: number | null } | null;
}

/** The mix, one kind per index modulo its length: mostly reads the level allows, some grants, rules and floors. */
export const SEED_KINDS: readonly Kind[] = [
  { tool: 'run_command', args: (i) => ({ command: `ls -la src/module-${i}` }), class: 'read', decision: 'allow', by: { kind: 'level', level: 'supervised' }, ran: { status: 'succeeded', exit: 0 } },
  { tool: 'read_file', args: (i) => ({ path: `src/file-${i}.ts` }), class: 'read', decision: 'allow', by: { kind: 'level', level: 'supervised' }, ran: { status: 'succeeded', exit: null } },
  { tool: 'run_command', args: (i) => ({ command: `npm test -- case-${i}` }), class: 'write', decision: 'allow', by: { kind: 'grant', grantIds: ['gr_seeded'] }, ran: { status: 'failed', exit: 1 } },
  { tool: 'web_fetch', args: (i) => ({ url: `https://example.com/page/${i}` }), class: 'network', decision: 'deny', by: { kind: 'rule', on: 'tool', tool: 'web_fetch', value: 'deny' }, ran: null },
  { tool: 'run_command', args: (i) => ({ command: `git status --short # ${i}` }), class: 'read', decision: 'allow', by: { kind: 'level', level: 'supervised' }, ran: { status: 'succeeded', exit: 0 } },
  { tool: 'run_command', args: (i) => ({ command: `rm -rf / # ${i}` }), class: 'destructive', decision: 'deny', by: { kind: 'floor', floor: 'hardline' }, ran: null },
];

export const SEED_SESSIONS = ['seed-session-a', 'seed-session-b'];

/**
 * Inserts `count` calls, the oldest first, one minute apart and ending an hour before `now`. Each row
 * is written as the call lifecycle writes it (the call at its final state, its outcome, and the
 * call.decided and call.executed audit entries with the same data), straight through the repositories:
 * the lifecycle's per-step checks would cost minutes at 100,000 calls on a busy machine.
 */
export function seedHistory(dataDir: string, count: number, now = Date.now()): void {
  const store = Store.openDataDir(dataDir);
  const redactor = new Redactor({ home: '/nonexistent-home' });
  try {
    store.transaction(() => {
      for (const s of SEED_SESSIONS) store.sessions.ensure(s, now - count * 60_000 - 3_600_000);
      for (let i = 0; i < count; i++) {
        const k = SEED_KINDS[i % SEED_KINDS.length]!;
        const at = now - 3_600_000 - (count - i) * 60_000;
        const id = seededId(i);
        const by = formatDecidedBy(k.by);
        const session = SEED_SESSIONS[i % SEED_SESSIONS.length]!;
        const state = k.ran ? k.ran.status : 'denied';
        store.calls.insert({
          id,
          session_id: session,
          turn_id: null,
          tool: k.tool,
          args_redacted: redactedJson(redactor.redactValueSync(k.args(i))),
          content_hash: i.toString(16).padStart(64, '0'),
          cwd: null,
          class: k.class,
          effects: '[]',
          decision: k.decision,
          decider: k.by,
          explanation: redactor.redactTextSync(`Seeded call ${i}.`),
          created_at: at,
          state,
        });
        store.audit.append({ at, kind: 'call.decided', session_id: session, subject: id, data: redactor.redactRecord({ tool: k.tool, decision: k.decision, decided_by: by, class: k.class }) });
        if (k.ran) {
          const outcome = { status: k.ran.status, exit_code: k.ran.exit, signal: null, duration_ms: (i % 97) * 3, error: k.ran.status === 'failed' ? redactor.redactTextSync('1 test failed') : null, recorded_at: at + 50 };
          store.outcomes.record(id, outcome);
          store.audit.append({ at: at + 50, kind: 'call.executed', session_id: session, subject: id, data: redactor.redactRecord({ ...outcome }) });
        }
      }
    });
  } finally {
    store.close();
  }
}

/**
 * A seeded data directory for `count` calls, copied from a template seeded once per checkout (the
 * database with its audit key and anchor, so the copy verifies): seeding 100,000 calls takes a minute
 * or more on a busy machine, copying them a moment.
 */
export function seededDataDir(dataDir: string, count: number, cacheRoot: string): void {
  const template = join(cacheRoot, `seed-history-${SEED_VERSION}-${count}`);
  if (!existsSync(join(template, 'done'))) {
    rmSync(template, { recursive: true, force: true });
    mkdirSync(template, { recursive: true, mode: 0o700 });
    const data = join(template, 'data');
    mkdirSync(data, { mode: 0o700 });
    seedHistory(data, count, SEED_NOW);
    writeFileSync(join(template, 'done'), '');
  }
  // The daemon's own files (lock, socket) are not in a template that no daemon opened.
  cpSync(join(template, 'data'), dataDir, { recursive: true, force: true });
}

/** Bump when the seed's content changes: old templates are then seeded again. */
const SEED_VERSION = 'v1';
/** Fixed, so a template's times do not depend on when it was made (days before now, in any case). */
export const SEED_NOW = Date.UTC(2026, 0, 1);

/** The id the seeder gave call number i (0 is the oldest). */
export function seededId(i: number): string {
  return `call_seed${String(i).padStart(6, '0')}`;
}
