// What the jail shows of the home folder: every dot-entry and ~/Library hidden except the visible list,
// the workspace (even under a dot-folder) and what the user granted; ordinary folders stay readable. And
// the consent flow that opens one hidden file for a session or always, never a folder.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Executor } from '../../executor/run';
import type { JailClass, RunRequest } from '../../executor/types';
import type { ThresholdCore } from '../../main/runtime/core';
import type { ConsentOffer } from '../../main/calls/sandbox-consent';
import { testCore } from '../support/core';
import { jailFixture, type JailFixture } from '../support/jail';

let fx: JailFixture;
let ex: Executor;
const put = (rel: string, text: string) => fx.put(rel, text);

beforeAll(async () => {
  fx = await jailFixture();
  ex = new Executor({ home: fx.home, appDirs: [fx.configDir, fx.dataDir] });
  const s = fx.secret;
  put('.npmrc', `//registry.npmjs.org/:_authToken=${s}\n`);
  put('.config/some-cli/auth.json', `{"token":"${s}"}`);
  put('.bash_history', `export GITHUB_TOKEN=${s}\n`);
  put('.cargo/credentials.toml', `[registry]\ntoken = "${s}"\n`);
  put('.cargo/bin/hello-tool', 'visible-tool\n');
  put('.rustup/settings.toml', 'default_toolchain = "stable"\n');
  put('.local/bin/helper', 'visible-helper\n');
  put('.local/share/app/session.db', s);
  put('.gitconfig', '[user]\n\tname = Test User\n\temail = test@example.com\n');
  put('Library/Application Support/App/Cookies', s);
  put('Documents/notes.txt', 'visible-notes\n');
  put('Desktop/todo.txt', 'visible-todo\n');
  put('.hidden-project/src/main.c', 'int main(void) { return 0; }\n');
  put('.hidden-project/.env', `KEY=${s}\n`);
  put('.hidden-project-sibling/data.txt', s);
}, 30_000);

afterAll(async () => {
  ex?.dispose();
  await fx?.close();
});

async function show(script: string, over: Partial<RunRequest['jail']> = {}, cls: JailClass = 'read') {
  const r = await ex.run({ argv: ['bash', '-c', script], cwd: over.workspace ?? fx.workspace, env: { ...process.env, HOME: fx.home }, jail: { class: cls, workspace: fx.workspace, ...over }, limits: { timeoutMs: 10_000 } });
  return { out: `${r.stdout.text}${r.stderr.text}`, r };
}

describe('the home folder seen from the jail', () => {
  it.each([
    { name: "~/.npmrc (npm's token)", path: '.npmrc' },
    { name: 'a CLI auth file under ~/.config', path: '.config/some-cli/auth.json' },
    { name: 'the shell history', path: '.bash_history' },
    { name: "~/.cargo/credentials.toml (the rest of ~/.cargo beside bin/)", path: '.cargo/credentials.toml' },
    { name: "an application's data under ~/.local/share", path: '.local/share/app/session.db' },
    { name: "~/Library (macOS applications' data and cookies)", path: 'Library/Application Support/App/Cookies' },
    { name: 'a dot-folder beside one that holds the workspace', path: '.hidden-project-sibling/data.txt' },
  ])('hides $name', async ({ path }) => {
    const { out } = await show(`cat ~/'${path}'`);
    expect({ shown: out.includes(fx.secret), failed: /Permission denied|No such file/.test(out) }).toEqual({ shown: false, failed: true });
  });

  it.each([
    { name: 'ordinary folders (Documents, Desktop)', script: 'cat ~/Documents/notes.txt ~/Desktop/todo.txt', want: ['visible-notes', 'visible-todo'] },
    { name: "Rust's tools in ~/.cargo/bin and ~/.rustup", script: 'cat ~/.cargo/bin/hello-tool ~/.rustup/settings.toml', want: ['visible-tool', 'default_toolchain'] },
    { name: '~/.local/bin', script: 'cat ~/.local/bin/helper', want: ['visible-helper'] },
    { name: "git's identity in ~/.gitconfig", script: 'git config --global user.email', want: ['test@example.com'] },
    { name: 'the names in the home folder, not their contents', script: 'ls -A ~', want: ['.npmrc', '.config', 'Documents'] },
  ])('shows $name', async ({ script, want }) => {
    const { out } = await show(script);
    expect(want.filter((w) => !out.includes(w))).toEqual([]);
  });

  it('hides ~/.gitconfig too when it carries a credential, and git still runs (it reads as empty)', async () => {
    put('.gitconfig', `[user]\n\temail = test@example.com\n[url "https://x-access-token:${fx.secret}@github.com/"]\n\tinsteadOf = https://github.com/\n`);
    try {
      const { out, r } = await show('cat ~/.gitconfig; git config --global --list; git --version');
      expect({ shown: out.includes(fx.secret), email: out.includes('test@example.com'), git: /git version/.test(out), exit: r.exitCode }).toEqual({ shown: false, email: false, git: true, exit: 0 });
    } finally {
      put('.gitconfig', '[user]\n\tname = Test User\n\temail = test@example.com\n');
    }
  });

  it('keeps a workspace under a dot-folder visible, with its .env still hidden', async () => {
    const ws = join(fx.home, '.hidden-project');
    const { out } = await show('cat src/main.c; cat .env; cat ../.hidden-project-sibling/data.txt', { workspace: ws });
    expect({ code: out.includes('int main'), secret: out.includes(fx.secret) }).toEqual({ code: true, secret: false });
  });

  it.each(['write', 'network'] as const)('cannot unmount what hides a folder (%s class, even as root)', async (cls) => {
    const { out } = await show('umount ~/.config 2>&1; umount -l ~/.config 2>&1; cat ~/.config/some-cli/auth.json', {}, cls);
    expect(out.includes(fx.secret)).toBe(false);
  });

  it('shows one granted file, and only that one', async () => {
    const granted = join(fx.home, '.config/some-cli/auth.json');
    put('.config/some-cli/other.json', `other-${fx.secret}`);
    const { out } = await show('cat ~/.config/some-cli/auth.json; cat ~/.config/some-cli/other.json', { grantedReadable: [granted] });
    expect({ granted: out.includes(`{"token":"${fx.secret}"}`), other: out.includes(`other-${fx.secret}`) }).toEqual({ granted: true, other: false });
  });

  it('reports a hidden read as the jail hiding it', async () => {
    const { r } = await show('cat ~/.npmrc; cat ~/.config/some-cli/auth.json');
    expect(r.violations.map((v) => ({ kind: v.kind, target: v.target }))).toEqual([
      { kind: 'read_denied', target: join(fx.home, '.npmrc') },
      { kind: 'read_denied', target: join(fx.home, '.config/some-cli/auth.json') },
    ]);
  });
});

describe('opening one hidden file through consent', () => {
  let core: ThresholdCore;
  const offers: ConsentOffer[] = [];
  beforeAll(async () => {
    core = await testCore({ level: 'supervised', paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir] }, dataDir: fx.dataDir });
    core.events.on('sandbox.denied', (o) => offers.push(o));
    // A person approves what asks: the reads below are secret_read, so each one asks.
    core.events.on('approval.requested', (p) => void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' }));
  });
  afterAll(() => core?.dispose());

  /** Commands name the fake home absolutely: through the gate, HOME is the test runner's own. */
  async function run(template: string, sessionId: string) {
    const command = template.replaceAll('~/', `${fx.home}/`);
    const v = await core.calls.review({ sessionId, turnId: `t-${Math.random()}`, turnKind: 'reactive', tool: 'run_command', args: { command }, cwd: fx.workspace });
    if (!v.run) throw new Error(`not allowed: ${v.message}`);
    return { verdict: v, report: await core.calls.runCommand({ callId: v.callId, sessionId, command, cwd: fx.workspace, evaluation: v.evaluation }) };
  }

  it('the card says why it asks, the jail hides it, the model is told, and the user is offered that file', async () => {
    const { verdict, report } = await run('cat ~/.npmrc', 'read-1');
    const offer = offers.find((o) => o.session_id === 'read-1');
    expect({
      secret: verdict.evaluation.effects.includes('secret_read'),
      why: verdict.evaluation.reasons.some((r) => /\.npmrc/.test(r)),
      shown: report.text.includes(fx.secret),
      told: /hid .*\.npmrc/.test(report.text),
      offer: offer && { path: offer.path, access: offer.access },
    }).toEqual({ secret: true, why: true, shown: false, told: true, offer: { path: join(fx.home, '.npmrc'), access: 'read' } });
  });

  it('allowed for the session, the next run shows it; another session still does not see it', async () => {
    const offer = offers.find((o) => o.session_id === 'read-1')!;
    expect(core.consent.decide(offer.id, 'session', 'test')).toMatchObject({ ok: true });
    const again = await run('cat ~/.npmrc', 'read-1');
    const other = await run('cat ~/.npmrc', 'read-2');
    expect({ same: again.report.text.includes(fx.secret), other: other.report.text.includes(fx.secret) }).toEqual({ same: true, other: false });
  });

  it('kept hidden, it stays hidden and is not offered again', async () => {
    const before = offers.length;
    await run('cat ~/.bash_history', 'read-3');
    const offer = offers.slice(before).find((o) => o.session_id === 'read-3')!;
    expect(core.consent.decide(offer.id, 'deny', 'test')).toMatchObject({ ok: true });
    const again = await run('cat ~/.bash_history', 'read-3');
    expect({ shown: again.report.text.includes(fx.secret), offeredAgain: offers.slice(before).filter((o) => o.session_id === 'read-3').length }).toEqual({ shown: false, offeredAgain: 1 });
  });

  it('allowed always, it is shown in every session', async () => {
    const before = offers.length;
    await run('cat ~/.cargo/credentials.toml', 'read-4');
    const offer = offers.slice(before).find((o) => o.session_id === 'read-4')!;
    core.consent.decide(offer.id, 'always', 'test');
    const other = await run('cat ~/.cargo/credentials.toml', 'read-5');
    expect(other.report.text.includes(fx.secret)).toBe(true);
  });

  it.each([
    { name: 'a hidden folder', command: 'ls ~/.local/share/app/ ; cat ~/.local/share/app' },
    { name: "Threshold's own data", command: 'cat ~/.local/share/threshold/threshold.db' },
    { name: 'a file that does not exist', command: 'cat ~/.config/some-cli/missing.json' },
  ])('never offers $name', async ({ command }) => {
    const before = offers.length;
    await run(command, `never-${Math.random()}`);
    expect(offers.slice(before).map((o) => o.path)).toEqual([]);
  });
});
