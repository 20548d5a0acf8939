// Every data-at-rest bypass that was fixed, one line each with why it mattered (issue 10). The whole
// paths are in at-rest-files, at-rest-audit and at-rest-redaction; these pin each hole on its own.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from '../../main/config/dirs';
import { Redactor } from '../../main/redact/redactor';
import { Store } from '../../main/store/store';

const root = mkdtempSync(join(tmpdir(), 'threshold-at-rest-regression-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const redactor = new Redactor({ home: '/home/ada' });
const KEY = 'sk-ant-api03-Qm7vXr2LpN9sKd4TfW8yHb3JcZ6gE1uA5oRiYtMnVx0';
let n = 0;
const dir = () => join(root, `d${++n}`);

/** A data-directory store with a little history. */
function filled(): { store: Store; path: string } {
  const path = dir();
  const store = Store.openDataDir(path);
  store.transaction(() => {
    for (let i = 1; i <= 5; i++) store.audit.append({ at: i, kind: 'test.entry', subject: `e${i}`, data: redactor.redactRecord({ i }) });
  });
  return { store, path };
}

function plainRehash(store: Store): void {
  let prev = '0'.repeat(64);
  for (const r of store.db.prepare('SELECT * FROM audit ORDER BY seq').all() as Record<string, string | number | null>[]) {
    const h = createHash('sha256').update(`${prev}\n${r['seq']}\n${r['at']}\n${r['kind']}\n${r['session_id'] ?? ''}\n${r['subject'] ?? ''}\n${r['data']}`).digest('hex');
    store.db.prepare('UPDATE audit SET prev_hash = ?, hash = ? WHERE seq = ?').run(prev, h, r['seq']);
    prev = h;
  }
}

const cases: { bypass: string; why: string; check: () => unknown; want: unknown }[] = [
  {
    bypass: 'a data directory of mode 0755 was accepted',
    why: 'other users could read the history and transcripts',
    check: () => {
      const d = dir();
      mkdirSync(d);
      chmodSync(d, 0o755);
      try {
        ensurePrivateDir(d);
        return 'accepted';
      } catch (e) {
        return (e as Error).message.endsWith(`Run: chmod 700 ${d}`);
      }
    },
    want: true,
  },
  {
    bypass: 'the database file was created 0644',
    why: 'a readable database gives away the history even inside a closed directory copied elsewhere',
    check: () => {
      const { store, path } = filled();
      store.close();
      return (statSync(join(path, 'threshold.db')).mode & 0o777).toString(8);
    },
    want: '600',
  },
  {
    bypass: 'a chain rewritten with plain SHA-256 verified',
    why: 'entry hashes were not keyed, so anyone with the database could recompute them',
    check: () => {
      const { store } = filled();
      store.db.exec('DROP TRIGGER audit_append_only');
      store.db.prepare("UPDATE audit SET data = '{\"i\":99}' WHERE seq = 3").run();
      plainRehash(store);
      const r = store.verify();
      store.close();
      return r.ok ? 'verified' : r.layer;
    },
    want: 'chain',
  },
  {
    bypass: 'deleting the newest entries verified',
    why: 'a chain proves its prefix; only a head kept outside the database shows a missing tail',
    check: () => {
      const { store } = filled();
      store.db.exec('DROP TRIGGER audit_append_only');
      store.db.prepare('DELETE FROM audit WHERE seq > 3').run();
      const r = store.verify();
      store.close();
      return r.ok ? 'verified' : r.layer;
    },
    want: 'anchor',
  },
  {
    bypass: 'a grant pattern holding an API key was stored as written',
    why: 'the grant and its grant.created audit entry kept the key forever',
    check: () => redactor.redactGrantPattern({ kind: 'argv', argv: ['deploy', '--token', KEY] }),
    want: { ok: false, message: 'A grant must not contain a secret: it is stored as written.' },
  },
  {
    bypass: 'the home folder was stored raw in path grants',
    why: 'it names the user in every copy of the database; matching reads ~ back, so ~ loses nothing',
    check: () => redactor.redactGrantPattern({ kind: 'path', glob: '/home/ada/project/**' }),
    want: { ok: true, pattern: { kind: 'path', glob: '~/project/**' } },
  },
  {
    bypass: "an object key holding a secret was kept by redactValue",
    why: 'tool arguments are model-written, keys included',
    check: () => redactor.redactValueSync({ [KEY]: 'x', path: '/home/ada/notes' }),
    want: { '[REDACTED:anthropic-key]': 'x', path: '~/notes' },
  },
];

describe('data at rest: fixed bypasses', () => {
  it.each(cases)('$bypass ($why)', ({ check, want }) => {
    expect(check()).toEqual(want);
  });
});
