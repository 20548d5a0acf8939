import { chmodSync, chownSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_PATHS } from '../../test/support/policy';
import { combineManaged, managedTrustProblem, parseManaged, type ManagedPolicy, type PathFacts } from './managed';
import { loadConfigFor } from './runtime';

const file = (over: Partial<PathFacts> = {}): PathFacts => ({ path: '/etc/threshold/managed.toml', uid: 0, mode: 0o100644, kind: 'file', ...over });
const dir = (path: string, over: Partial<PathFacts> = {}): PathFacts => ({ path, uid: 0, mode: 0o40755, kind: 'dir', ...over });
const etc = [dir('/etc/threshold'), dir('/etc'), dir('/')];

describe('a managed policy is trusted only when nobody but root could have written it', () => {
  it.each([
    { name: 'a root-owned 0644 file in root-owned folders is trusted', chain: [file(), ...etc], expected: null },
    { name: 'a file in a sticky world-writable folder (/tmp) is trusted: others cannot replace it', chain: [file({ path: '/tmp/m.toml' }), dir('/tmp', { mode: 0o41777 }), dir('/')], expected: null },
    { name: 'a file the user owns is refused', chain: [file({ uid: 1000 }), ...etc], expected: expect.stringMatching(/^it is owned by uid 1000, not root.*sudo chown root/) },
    { name: 'a group-writable file is refused', chain: [file({ mode: 0o100664 }), ...etc], expected: expect.stringMatching(/^it is writable by group or others \(mode 664\)/) },
    { name: 'a world-writable file is refused', chain: [file({ mode: 0o100646 }), ...etc], expected: expect.stringContaining('mode 646') },
    { name: 'a file in a folder the user owns is refused (they could swap it)', chain: [file(), dir('/etc/threshold', { uid: 1000 }), dir('/etc'), dir('/')], expected: expect.stringMatching(/^the folder \/etc\/threshold is owned by uid 1000/) },
    { name: 'a file under a group-writable folder higher up is refused', chain: [file(), dir('/etc/threshold'), dir('/etc', { mode: 0o40775 }), dir('/')], expected: expect.stringMatching(/^the folder \/etc is writable by group or others/) },
    { name: 'a directory at the path is refused', chain: [file({ kind: 'dir' }), ...etc], expected: 'it is not a regular file' },
  ])('$name', ({ chain, expected }) => {
    expect(managedTrustProblem(chain)).toEqual(expected);
  });
});

describe('what a managed policy may say', () => {
  it('reads every tightening key', () => {
    const text = `
[autonomy]
max_level = "supervised"
[rules.effects]
network = "deny"
install = "ask"
[rules.tools]
web_fetch = "deny"
[security]
never_auto_approve = ["write_file"]
[security.auto_approval]
enabled = false
`;
    expect(parseManaged(text, '/etc/threshold/managed.toml')).toEqual({
      file: '/etc/threshold/managed.toml',
      maxLevel: 'supervised',
      effects: { network: 'deny', install: 'ask' },
      tools: { web_fetch: 'deny' },
      neverAutoApprove: ['write_file'],
      reviewerForbidden: true,
    });
  });

  it.each([
    { name: 'an allow rule (it would loosen)', text: '[rules.tools]\nread_file = "allow"', key: 'rules.tools.read_file', problem: expect.stringContaining('can only tighten') },
    { name: 'an auto effect rule (it would loosen)', text: '[rules.effects]\nfile_write = "auto"', key: 'rules.effects.file_write', problem: expect.stringContaining('can only tighten') },
    { name: 'turning the reviewer on', text: '[security.auto_approval]\nenabled = true', key: 'security.auto_approval.enabled', problem: expect.stringContaining('only turn the reviewer off') },
    { name: 'a key of the user config it does not govern', text: '[autonomy]\nlevel = "full"', key: 'autonomy.level', problem: expect.stringContaining('no key "level"') },
    { name: 'grants (a managed policy grants nothing)', text: '[[grants]]\ntool = "read_file"\nany = true', key: 'grants', problem: expect.stringContaining('no key "grants"') },
  ])('refuses $name, naming the key and the file', ({ text, key, problem }) => {
    let err: { file?: string; key?: string; problem?: string } = {};
    try {
      parseManaged(text, '/etc/threshold/managed.toml');
    } catch (e) {
      err = e as typeof err;
    }
    expect({ file: err.file, key: err.key, problem: err.problem }).toEqual({ file: '/etc/threshold/managed.toml', key, problem });
  });

  it('several managed files act as one, the strictest of each', () => {
    const a: ManagedPolicy = { file: 'a', maxLevel: 'auto-edit', effects: { network: 'ask' }, tools: { web_fetch: 'ask' }, neverAutoApprove: ['x'], reviewerForbidden: false };
    const b: ManagedPolicy = { file: 'b', maxLevel: 'supervised', effects: { network: 'deny', install: 'ask' }, tools: {}, neverAutoApprove: ['x', 'y'], reviewerForbidden: true };
    expect(combineManaged([a, b])).toEqual({ file: 'a and b', maxLevel: 'supervised', effects: { network: 'deny', install: 'ask' }, tools: { web_fetch: 'ask' }, neverAutoApprove: ['x', 'y'], reviewerForbidden: true });
  });
});

describe('loading the managed policy and the user config together', () => {
  const root = mkdtempSync(join(tmpdir(), 'threshold-managed-'));
  let n = 0;
  const write = (name: string, text: string) => {
    const d = join(root, `d${++n}`);
    mkdirSync(d, { mode: 0o755 });
    const f = join(d, name);
    writeFileSync(f, text, { mode: 0o644 });
    return f;
  };
  const managed = write('managed.toml', '[autonomy]\nmax_level = "supervised"\n[rules.effects]\nnetwork = "deny"\n[security]\nnever_auto_approve = ["edit_file"]\n[security.auto_approval]\nenabled = false\n');
  const noSystem = join(root, 'no-system.toml');
  const load = (user: string, env: NodeJS.ProcessEnv = { THRESHOLD_MANAGED_POLICY: managed }, system = noSystem) => loadConfigFor(write('threshold.toml', user), env, TEST_PATHS, { managedSystemPath: system });
  const problemOf = async (p: Promise<unknown>) => {
    try {
      await p;
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it.each([
    { name: 'a level above the managed maximum', user: '[autonomy]\nlevel = "full"', problem: /threshold\.toml: autonomy\.level: "full" is above the highest level the managed policy .*managed\.toml allows \("supervised"\)/ },
    { name: 'an effect rule looser than a managed deny', user: '[rules.effects]\nnetwork = "auto"', problem: /threshold\.toml: rules\.effects\.network: "auto" would loosen the managed policy .*managed\.toml, which sets network = "deny"/ },
    { name: 'an ask where the managed policy denies', user: '[rules.effects]\nnetwork = "ask"', problem: /rules\.effects\.network: "ask" would loosen/ },
    { name: 'the reviewer turned on where the managed policy forbids it', user: '[security.auto_approval]\nenabled = true\n[reviewers.approval]\nkind = "openai-compatible"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n[rules.tools]\nwrite_file = "review"', problem: /security\.auto_approval\.enabled: true is not allowed: the managed policy .*managed\.toml turns the reviewer off/ },
    { name: 'a review rule for a tool the managed never_auto_approve lists', user: '[rules.tools]\nedit_file = "review"', problem: /threshold\.toml: rules\.tools\.edit_file: "review" is not allowed: the managed policy .*managed\.toml lists "edit_file" in never_auto_approve/ },
  ])('refuses at start-up $name, naming both files', async ({ user, problem }) => {
    expect(await problemOf(load(user))).toMatch(problem);
  });

  it('accepts a user config that is as strict or stricter, and attaches the policy', async () => {
    const c = await load('[autonomy]\nlevel = "read-only"\n[rules.effects]\nnetwork = "deny"\n');
    expect({ level: c.level, managed: c.managed }).toEqual({ level: 'read-only', managed: { file: managed, maxLevel: 'supervised', effects: { network: 'deny' }, tools: {}, neverAutoApprove: ['edit_file'], reviewerForbidden: true } });
  });

  it('refuses a managed file its owner is not root, with the reason and the fix', async () => {
    const loose = write('managed.toml', '[autonomy]\nmax_level = "read-only"\n');
    chownSync(loose, 1000, 1000);
    expect(await problemOf(load('', { THRESHOLD_MANAGED_POLICY: loose }))).toMatch(/managed\.toml: managed policy refused: it is owned by uid 1000, not root, so its owner could loosen it \(run: sudo chown root /);
  });

  it('judges the real file behind a symbolic link: a root-owned link to a user-owned file is refused', async () => {
    const target = write('managed.toml', '[autonomy]\nmax_level = "read-only"\n');
    chownSync(target, 1000, 1000);
    const link = join(root, `link${++n}.toml`);
    symlinkSync(target, link);
    expect(await problemOf(load('', { THRESHOLD_MANAGED_POLICY: link }))).toMatch(/managed policy refused: it is owned by uid 1000, not root/);
  });

  it('refuses a group-writable managed file', async () => {
    const loose = write('managed.toml', '[autonomy]\nmax_level = "read-only"\n');
    chmodSync(loose, 0o664);
    expect(await problemOf(load('', { THRESHOLD_MANAGED_POLICY: loose }))).toMatch(/managed policy refused: it is writable by group or others \(mode 664\)/);
  });

  it('refuses a managed file named by THRESHOLD_MANAGED_POLICY that does not exist (the administrator meant one)', async () => {
    expect(await problemOf(load('', { THRESHOLD_MANAGED_POLICY: join(root, 'missing.toml') }))).toMatch(/missing\.toml: managed policy refused: the file does not exist/);
  });

  it('has no managed policy when there is no file', async () => {
    expect((await load('', {})).managed).toEqual(null);
  });

  it('THRESHOLD_MANAGED_POLICY adds a policy but cannot drop the system one (a user setting it escapes nothing)', async () => {
    const extra = write('extra.toml', '[rules.tools]\nweb_fetch = "ask"\n');
    expect(await problemOf(load('[autonomy]\nlevel = "full"', { THRESHOLD_MANAGED_POLICY: extra }, managed))).toMatch(/autonomy\.level: "full" is above the highest level/);
    const c = await load('', { THRESHOLD_MANAGED_POLICY: extra }, managed);
    expect(c.managed).toMatchObject({ maxLevel: 'supervised', tools: { web_fetch: 'ask' }, effects: { network: 'deny' } });
  });
});
