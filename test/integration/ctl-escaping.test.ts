// `ctl` prints what the model and tools wrote through the one escaping rule: a command, a reason, a
// session name or a transcript line cannot reorder a terminal line, move the cursor or hide a part.
// A real daemon; the call parked through the control API, as a script would.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hiddenCount } from '../../common/visible-text';
import { ControlClient } from '../../main/control/client';
import { runCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

const dataDir = mkdtempSync(join(tmpdir(), 'threshold-ctl-escape-'));
const workspace = mkdtempSync(join(tmpdir(), 'threshold-ws-'));
let daemon: Daemon;
// A right-to-left override that would print "rm -rf ~/.ssh" as something else, a tab, an escape
// sequence that clears the line, a zero-width space and a newline that would fake a table row.
const COMMAND = 'echo \u202Ehs.ssh/~ fr- mr\u202C && rm\u200B -rf ~/.ssh\t# \x1b[2K\nap_fake  run_command  read  looks harmless';
const SESSION = 'evil\u202Esession';

beforeAll(async () => {
  daemon = await startDaemon(dataDir, ['--workspace', workspace]);
  const c = await ControlClient.connect(join(dataDir, 'control.sock'));
  try {
    await c.call('approval.request', { tool: 'run_command', args: { command: COMMAND }, session_id: SESSION, wait: false });
    const [p] = await c.call<{ id: string; hash: string }[]>('approval.list_pending');
    await c.call('approval.decide', { id: p!.id, hash: p!.hash, outcome: 'deny', note: 'no\u202Ethanks' });
    await c.call('approval.request', { tool: 'run_command', args: { command: COMMAND }, session_id: SESSION, wait: false });
  } finally {
    c.close();
  }
}, 60_000);

afterAll(async () => {
  if (daemon?.child.exitCode === null) await daemon.kill('SIGTERM');
});

const ctl = (...args: string[]) => runCli(['ctl', '--data-dir', dataDir, ...args]);

describe('ctl shows hidden characters as escapes', () => {
  it.each([
    ['pending', ['pending']],
    ['history', ['history']],
    ['calls', ['calls']],
    ['sessions', ['sessions']],
  ])('%s: no hidden character reaches the terminal, and each row stays one line', async (_name, args) => {
    const r = await ctl(...args);
    const lines = r.stdout.trimEnd().split('\n');
    expect({ code: r.code, raw: hiddenCount(r.stdout), fakeRow: lines.some((l) => l.startsWith('ap_fake')), escapes: /<RLO>|<U\+202E>/.test(r.stdout) }).toEqual({ code: 0, raw: 0, fakeRow: false, escapes: true });
  });

  it('one call in full: the arguments, the reason and the note keep their escapes', async () => {
    const list = JSON.parse((await ctl('--json', 'calls')).stdout) as { calls: { id: string }[] };
    const r = await ctl('call', list.calls.at(-1)!.id);
    expect({ code: r.code, raw: hiddenCount(r.stdout), rlo: r.stdout.includes('<RLO>'), note: r.stdout.includes('no<RLO>thanks') }).toEqual({ code: 0, raw: 0, rlo: true, note: true });
  });

  it.each([
    ['pending', ['--json', 'pending'], 'approval.list_pending', (v: unknown) => v],
    ['history', ['--json', 'history'], 'approval.list_decisions', (v: unknown) => v],
    ['calls', ['--json', 'calls'], 'call.list', (v: unknown) => v],
    ['calls --jsonl', ['calls', '--jsonl'], 'call.list', (v: unknown) => (v as { calls: unknown[] }).calls],
  ] as const)('--json %s: the values are exactly what the daemon answered, and nothing hidden is printed raw', async (_name, args, method, pick) => {
    const r = await ctl(...args);
    const text = r.stdout.trim();
    const printed: unknown = (args as readonly string[]).includes('--jsonl') ? text.split('\n').map((l) => JSON.parse(l) as unknown) : JSON.parse(text);
    const c = await ControlClient.connect(join(dataDir, 'control.sock'));
    const answered = pick(await c.call(method, {}).finally(() => c.close()));
    expect({ code: r.code, raw: hiddenCount(r.stdout), exact: printed, carriesCommand: r.stdout.includes('\\u202e') }).toEqual({ code: 0, raw: 0, exact: answered, carriesCommand: true });
  });

  it('an error the daemon sends back is escaped too', async () => {
    const r = await ctl('decide', 'ap_\u202Enope', 'deny');
    expect({ code: r.code, raw: hiddenCount(r.stderr), named: r.stderr.includes('ap_<RLO>nope') }).toEqual({ code: 1, raw: 0, named: true });
  });
});
