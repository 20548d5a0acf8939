// The home folder on one tmpfs (home-view.ts) against the mounts per hidden entry it replaced: the same
// hidden paths, so the jail must see exactly the same names, types, modes, contents and writability;
// and the cases that would get past the new shape if it were weaker (an entry made after planning, a
// symbolic link to a hidden entry, odd names, chmod and writes on the read-only tmpfs).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jailFixture, type JailFixture } from '../../test/support/jail';
import type { JailClass, RunRequest } from '../types';
import { bwrapArgs, placeholderFileCount } from './bwrap';
import { planHomeView } from './home-view';
import { planJail, type PlanContext } from './plan';
import type { JailSpec } from './spec';

let fx: JailFixture;
let ctx: PlanContext;
let scratch: string;
let devNull: number;
const put = (rel: string, text: string) => fx.put(rel, text);

beforeAll(async () => {
  fx = await jailFixture();
  scratch = mkdtempSync(join(tmpdir(), 'threshold-home-view-'));
  const emptyFile = join(scratch, 'empty');
  writeFileSync(emptyFile, '', { mode: 0o444 });
  ctx = { home: fx.home, emptyFile, appDirs: [fx.configDir, fx.dataDir] };
  devNull = openSync('/dev/null', 'r');
  const s = fx.secret;
  put('.npmrc', `token=${s}\n`);
  put('.aws/config', '[default]\nregion = eu-west-1\n');
  put('.cargo/bin/tool', 'visible-tool\n');
  put('.cargo/credentials.toml', s);
  put('.local/bin/helper', 'visible-helper\n');
  put('.gitconfig', '[user]\n\temail = test@example.com\n');
  put('Documents/notes.txt', 'visible-notes\n');
  put('Library/Cookies', s);
  put('.hidden/ws/main.c', 'int main(void) { return 0; }\n');
  put('.hidden/sibling.txt', s);
  put('.odd\nname', s);
  put('.dir with space/inner', s);
  put('odd\nvisible', 'visible-odd\n');
  put('-dash', 'visible-dash\n');
  put('ünïcode.txt', 'visible-unicode\n');
  put('.config/tool/state', 'tool-state\n');
  // What a lived-in home folder holds besides: shell files, tool logins, a keyring.
  for (const f of ['.bashrc', '.bash_history', '.profile', '.zshrc', '.netrc', '.viminfo', '.docker/config.json', '.kube/config', '.gnupg/pubring.kbx']) put(f, s);
  symlinkSync('.npmrc', join(fx.home, 'link-to-npmrc'));
  symlinkSync(join(fx.home, '.aws'), join(fx.home, 'Stuff'));
  symlinkSync('.ssh/id_ed25519', join(fx.home, '.key-link'));
}, 30_000);

afterAll(async () => {
  if (devNull !== undefined) closeSync(devNull);
  rmSync(scratch, { recursive: true, force: true });
  await fx?.close();
});

function request(over: Partial<RunRequest['jail']> = {}, cls: JailClass = 'read'): RunRequest {
  const workspace = over.workspace ?? fx.workspace;
  return { argv: ['true'], cwd: workspace, env: { PATH: '/usr/bin:/bin', HOME: fx.home }, jail: { class: cls, workspace, ...over } };
}

/** Runs a script in bwrap with this spec's command line (no launcher, no seccomp: the mounts are what is compared). */
function inJail(spec: JailSpec, script: string): string {
  const args = bwrapArgs(spec, ['bash', '--norc', '-c', script]);
  const fds = placeholderFileCount(spec);
  const r = spawnSync('bwrap', args, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe', 'ignore', ...Array.from({ length: fds }, () => devNull)] });
  // The placeholders bwrap made for absent protected paths (the executor removes them after a run).
  for (const p of spec.absentProtected) rmSync(p.path, { recursive: true, force: true });
  return `${r.stdout}${r.stderr}`;
}

/** Every entry of the home folder (the workspace's own contents aside): name, type, mode, link target, readable, writable, content. */
const LISTING = `cd ~ && find . -mindepth 1 -maxdepth 5 -print0 | LC_ALL=C sort -z | while IFS= read -r -d '' p; do
  case $p in ./project/*|./.hidden/ws/*) continue ;; esac
  t=$(stat -c '%F %a' -- "$p"); r=-; w=-; [ -r "$p" ] && r=r; [ -w "$p" ] && w=w
  c=; [ -f "$p" ] && [ ! -L "$p" ] && c=$(head -c 64 -- "$p" 2>&1 | tr '\\n' ' ')
  printf '%q %s %s%s %q %q\\n' "$p" "$t" "$r" "$w" "$(readlink -- "$p")" "$c"
done`;

const perEntry = (spec: JailSpec): JailSpec => ({ ...spec, homeView: undefined });

describe('the home view shows exactly what the mounts per entry showed', () => {
  it.each([
    { name: 'a workspace beside the dot-entries', over: {}, cls: 'read' as const },
    { name: 'a workspace inside a hidden dot-folder (its siblings stay hidden)', over: { workspace: '<home>/.hidden/ws' }, cls: 'read' as const },
    { name: 'one file granted inside a hidden folder (the rest of it stays hidden)', over: { grantedReadable: ['<home>/.aws/config'] }, cls: 'read' as const },
    { name: 'a writable grant inside a hidden folder', over: { extraWritable: ['<home>/.config/tool'] }, cls: 'write' as const },
  ])('$name', ({ over, cls }) => {
    const fill = (v: unknown) => (typeof v === 'string' ? v.replace('<home>', fx.home) : Array.isArray(v) ? v.map((x: string) => x.replace('<home>', fx.home)) : v);
    const spec = planJail(request(Object.fromEntries(Object.entries(over).map(([k, v]) => [k, fill(v)])), cls), ctx);
    expect(spec.homeView).toBeDefined();
    const now = inJail(spec, LISTING);
    const before = inJail(perEntry(spec), LISTING);
    expect({ lines: now.split('\n').length > 20, secretShown: now.includes(fx.secret), now }).toEqual({ lines: true, secretShown: false, now: before });
  });
});

describe('the home view against what would get past it', () => {
  it.each([
    { name: 'a symbolic link in the home folder to a hidden file', script: 'cat ~/link-to-npmrc' },
    { name: 'a plain folder that is a symbolic link to a dot-folder', script: 'cat ~/Stuff/credentials' },
    { name: 'a dot-link to a hidden key', script: 'cat ~/.key-link' },
    { name: 'a hidden name holding a newline', script: "cat ~/$'.odd\\nname'" },
    { name: 'a hidden folder whose name holds spaces', script: "cat ~/'.dir with space/inner'" },
    { name: 'the sibling of a workspace inside a dot-folder', script: 'cat ~/.hidden/sibling.txt' },
    { name: 'the rest of a folder one file of which is granted', script: 'cat ~/.aws/credentials' },
  ])('$name stays hidden', ({ script }) => {
    const out = inJail(planJail(request({ grantedReadable: [join(fx.home, '.aws', 'config')] }), ctx), script);
    expect({ shown: out.includes(fx.secret), refused: /Permission denied|No such file/.test(out) }).toEqual({ shown: false, refused: true });
  });

  it('an entry made in the home folder after the jail was planned is not shown at all (the mounts per entry showed it)', () => {
    const spec = planJail(request(), ctx);
    expect(spec.homeView).toBeDefined();
    const late = [put('.late-token', fx.secret), put('.late-dir/token', fx.secret), put('late-plain', fx.secret)];
    try {
      const out = inJail(spec, 'cat ~/.late-token ~/.late-dir/token ~/late-plain');
      expect({ shown: out.includes(fx.secret), before: inJail(perEntry(spec), 'cat ~/.late-token').includes(fx.secret) }).toEqual({ shown: false, before: true });
    } finally {
      for (const p of late) rmSync(p, { force: true });
      rmSync(join(fx.home, '.late-dir'), { recursive: true, force: true });
    }
  });

  it('an entry removed from the home folder after planning neither shows nor stops the jail (a vanished hidden folder stopped the mounts per entry)', () => {
    const spec = planJail(request(), ctx);
    const gone = [put('plain-gone.txt', 'x'), put('.gone-dir/x', fx.secret)];
    const late = planJail(request(), ctx);
    for (const p of gone) rmSync(p, { force: true });
    rmSync(join(fx.home, '.gone-dir'), { recursive: true, force: true });
    const out = inJail(late, 'ls -A ~ | grep -c gone; cat ~/Documents/notes.txt');
    expect({ view: !!spec.homeView && !!late.homeView, out }).toEqual({ view: true, out: '1\nvisible-notes\n' });
  });

  it.each([
    { name: 'a hidden file cannot be made readable', script: 'chmod 644 ~/.npmrc' },
    { name: 'a hidden file cannot be renamed away', script: 'mv ~/.npmrc ~/npmrc' },
    { name: 'nothing can be created in the home folder', script: 'touch ~/new-file' },
    { name: 'nothing can be created in a hidden folder', script: 'touch ~/.aws/new-file' },
    { name: 'a hidden folder cannot be removed', script: 'rmdir ~/.ssh' },
    { name: 'the home folder cannot be made writable', script: 'chmod 777 ~' },
    { name: 'a hidden file cannot be replaced by a link', script: 'ln -sf /etc/hostname ~/.npmrc' },
  ])('$name (read-only tmpfs, no capabilities)', ({ script }) => {
    const out = inJail(planJail(request({}, 'write'), ctx), `${script} && echo CHANGED; cat ~/.npmrc`);
    expect({ changed: out.includes('CHANGED'), readOnly: /Read-only file system|Device or resource busy/.test(out), shown: out.includes(fx.secret) }).toEqual({ changed: false, readOnly: true, shown: false });
  });

  it('shows the odd visible names, the visible tools and the workspace, writable in a write call', () => {
    const out = inJail(planJail(request({}, 'write'), ctx), `cat ~/$'odd\\nvisible' ~/-dash ~/ünïcode.txt ~/.cargo/bin/tool ~/.local/bin/helper ~/Documents/notes.txt; echo made > ~/project/made.txt && cat ~/project/made.txt`);
    rmSync(join(fx.workspace, 'made.txt'), { force: true });
    expect(out.split('\n').filter(Boolean)).toEqual(['visible-odd', 'visible-dash', 'visible-unicode', 'visible-tool', 'visible-helper', 'visible-notes', 'made']);
  });

  it.each([
    { name: 'the home folder is the workspace (nothing in it is hidden)', over: () => ({ workspace: fx.home }) },
    { name: 'the workspace holds the home folder', over: () => ({ workspace: dirname(fx.home) }) },
    { name: 'a writable grant of the home folder itself', over: () => ({ extraWritable: [fx.home] }) },
  ])('no view where $name: the mounts per entry stay', ({ over }) => {
    const spec = planJail(request(over(), 'write'), ctx);
    expect(spec.homeView).toBeUndefined();
  });

  it('a home folder with more to show than to hide keeps the mounts per entry (fewer mount-table reads)', () => {
    const home = mkdtempSync(join(fx.root, 'plain-home-'));
    for (const d of ['Desktop', 'Documents', 'Downloads', 'Music', 'Pictures']) mkdirSync(join(home, d));
    writeFileSync(join(home, '.npmrc'), fx.secret);
    mkdirSync(join(home, '.ssh'));
    const hidden = { dirs: [join(home, '.ssh')], files: [join(home, '.npmrc')], emptied: [] };
    mkdirSync(join(home, '.aws'));
    const more = { ...hidden, dirs: [...hidden.dirs, join(home, '.aws'), ...['.a', '.b', '.c', '.d', '.e'].map((d) => (mkdirSync(join(home, d)), join(home, d)))] };
    expect({ few: planHomeView({ home, hidden, mountedLater: ['/w'] }), many: planHomeView({ home, hidden: more, mountedLater: ['/w'] })?.covered.length }).toEqual({ few: null, many: 8 });
  });

  it.each([
    { name: 'under /tmp, which the jail replaces (the home is not visible at all)', home: '/tmp/threshold-home-x' },
    { name: 'the root folder', home: '/' },
  ])('no view for a home folder $name', ({ home }) => {
    expect(planHomeView({ home, hidden: { dirs: [join(home, '.ssh')], files: [], emptied: [] }, mountedLater: ['/w'] })).toBeNull();
  });
});
