// Data at rest, part 1: the data directory is the user's own and closed to others, and every file
// Threshold creates in it is 0600 (directories 0700), including SQLite's -wal and -shm files.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../main/config/load';
import { ThresholdCore } from '../../main/runtime/core';
import { Store } from '../../main/store/store';
import { TEST_PATHS } from '../support/policy';
import { serveControl } from '../support/control';

const root = mkdtempSync(join(tmpdir(), 'threshold-at-rest-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
const asRoot = process.getuid?.() === 0;
const fresh = (name: string) => join(root, name);

/** What opening refused with, as a plain value (or null when it opened). */
const refusal = (p: Promise<ThresholdCore>) =>
  p.then(
    (core) => (core.dispose(), null),
    (e: { code?: string; message: string }) => ({ code: e.code, message: e.message }),
  );

async function openCore(dataDir: string) {
  return ThresholdCore.open({ dataDir, config: DEFAULT_CONFIG, paths: TEST_PATHS });
}

describe('the data directory', () => {
  it('is created 0700 and every file Threshold writes there is 0600 (database, -wal, -shm, key, anchor, lock, socket)', async () => {
    const dir = fresh('new');
    const core = await openCore(dir);
    const server = await serveControl(core, dir);
    core.setLevel('auto-edit', 'test');
    try {
      const files = readdirSync(dir).sort();
      expect(files).toEqual(['control.sock', 'keys', 'threshold.db', 'threshold.db-shm', 'threshold.db-wal', 'threshold.lock']);
      expect(Object.fromEntries([...files.map((f) => [f, mode(join(dir, f))]), ...readdirSync(join(dir, 'keys')).map((f) => [`keys/${f}`, mode(join(dir, 'keys', f))]), ['.', mode(dir)]])).toEqual({
        '.': '700',
        'control.sock': '600',
        keys: '700',
        'keys/audit.head': '600',
        'keys/audit.key': '600',
        'threshold.db': '600',
        'threshold.db-shm': '600',
        'threshold.db-wal': '600',
        'threshold.lock': '600',
      });
    } finally {
      await server.close();
      core.dispose();
    }
  });

  it.each([
    ['open to everyone (0755)', 0o755, 'is open to other users'],
    ['readable by its group (0750)', 0o750, 'is open to other users'],
    ['writable by others (0777)', 0o777, 'is writable by other users'],
    ['writable by its group (0770)', 0o770, 'is writable by other users'],
    ['traversable by others (0701)', 0o701, 'is open to other users'],
  ])('is refused when it is %s, naming the fix', async (_why, m, harm) => {
    const dir = fresh(`mode-${m.toString(8)}`);
    mkdirSync(dir);
    chmodSync(dir, m);
    expect(await refusal(openCore(dir))).toEqual({ code: 'unsafe_data_dir', message: expect.stringContaining(`${harm} (mode ${m.toString(8)}): they could read the history or change the database. Run: chmod 700 ${dir}`) });
    expect(readdirSync(dir)).toEqual([]);
  });

  // Giving a directory to another user needs root (CI runs the suite as root).
  it.skipIf(!asRoot)('is refused when another user owns it (its owner could have set the level to full), naming the fix', async () => {
    const dir = fresh('theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(await refusal(openCore(dir))).toEqual({ code: 'unsafe_data_dir', message: expect.stringMatching(/belongs to another user \(uid 65534; you are 0\).*Use a directory of your own: --data-dir DIR\.$/) });
  });

  it('is refused when it is a file', async () => {
    const file = fresh('a-file');
    writeFileSync(file, '');
    expect(await refusal(openCore(file))).toEqual({ code: 'unsafe_data_dir', message: `The data directory ${file} is not a directory; use another --data-dir.` });
  });

  it('tightens the 0644 files an older version left, and moves the audit key out of the way of a copied database', () => {
    const dir = fresh('older');
    mkdirSync(dir, { mode: 0o700 });
    Store.openDataDir(dir).close();
    // What an older version left: a 0644 database and its key beside it.
    renameSync(join(dir, 'keys', 'audit.key'), join(dir, 'audit.key'));
    for (const f of ['threshold.db', 'audit.key']) chmodSync(join(dir, f), 0o644);
    writeFileSync(join(dir, 'threshold.db-wal'), '', { mode: 0o644 });
    chmodSync(join(dir, 'threshold.db-wal'), 0o644);
    const store = Store.openDataDir(dir);
    try {
      expect({ db: mode(join(dir, 'threshold.db')), wal: mode(join(dir, 'threshold.db-wal')), key: mode(join(dir, 'keys', 'audit.key')), oldKeyGone: !existsSync(join(dir, 'audit.key')) }).toEqual({ db: '600', wal: '600', key: '600', oldKeyGone: true });
      expect(store.verify()).toMatchObject({ ok: true });
    } finally {
      store.close();
    }
  });

  it.skipIf(!asRoot)('refuses a database file another user owns inside it', () => {
    const dir = fresh('their-db');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'threshold.db'), '', { mode: 0o600 });
    chownSync(join(dir, 'threshold.db'), 65534, 65534);
    expect(() => Store.openDataDir(dir)).toThrow(/threshold\.db belongs to another user \(uid 65534\)/);
  });
});
