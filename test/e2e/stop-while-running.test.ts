// A bad day, end to end: `threshold serve` is stopped while a jailed command runs. Stopped the ordinary
// ways (SIGTERM; Ctrl+C in a terminal, which reaches npm and serve and so often arrives twice), the command
// gets its SIGTERM and its clean-up, the call's outcome is recorded by that run, and the workspace holds
// nothing the jail made. Killed (-9), the next start removes the empty placeholders the jail had made
// where protected names were absent (.git, .envrc, hook folders), and never a file the user had there.
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { spawnCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';
import { processesWith } from '../support/processes';
import { fixture, until, type Fixture } from './support';

vi.setConfig({ testTimeout: 90_000 });

// Its clean-up takes a second, so that a second signal lands while serve is stopping. Its sleep is unique
// to the test, so the test sees when the jail has started it.
const command = (sleep: string) => `trap "echo cleaned-up > cleaned.txt; sleep 1; exit 3" TERM; echo started; ${sleep} & wait`;
/** What the user had in the workspace before: a README, and an empty .envrc of their own. */
const USERS = ['.envrc', 'README.md'];

async function serve(f: Fixture): Promise<Daemon> {
  writeFileSync(f.config, '[autonomy]\nlevel = "full"\n');
  return startDaemon(f.dataDir, ['--config', f.config, '--workspace', f.workspace, '--no-agent', '--no-web'], { HOME: f.home });
}

/** Starts the command and waits until it runs in its jail; `done` settles when its request ends. */
async function startCommand(f: Fixture): Promise<{ done: Promise<unknown> }> {
  const c = await ControlClient.connect(join(f.dataDir, 'control.sock'));
  const sleep = `sleep ${600_000 + Math.floor(Math.random() * 99_999)}`;
  const running = c.call('approval.request', { tool: 'run_command', args: { command: command(sleep) }, session_id: 'stop', execute: true }).catch((e: Error) => e);
  await until('the command to run in its jail', () => processesWith(sleep, { exact: true }).length > 0);
  return { done: running.finally(() => c.close()) };
}

/** What is in the workspace besides what the user had. */
const extra = (f: Fixture) => readdirSync(f.workspace).filter((n) => !USERS.includes(n)).sort();

async function lastCall(f: Fixture): Promise<{ state: string; decided_by: string; exit_code: number | null }> {
  const r = await spawnCli(['ctl', '--data-dir', f.dataDir, '--json', 'calls', '--limit', '1'], { env: { HOME: f.home } });
  const call = (JSON.parse(r.stdout) as { calls: { state: string; decided_by: string; execution: { exit_code: number | null } | null }[] }).calls[0]!;
  return { state: call.state, decided_by: call.decided_by, exit_code: call.execution?.exit_code ?? null };
}

describe('stopping serve while a jailed command runs', () => {
  it.each<{ name: string; signals: NodeJS.Signals[] }>([
    { name: 'one SIGTERM', signals: ['SIGTERM'] },
    { name: 'Ctrl+C as a terminal delivers it (SIGINT twice)', signals: ['SIGINT', 'SIGINT'] },
    { name: 'SIGTERM, then SIGINT while it stops', signals: ['SIGTERM', 'SIGINT'] },
  ])('$name: the command cleans up, its outcome is recorded, and nothing the jail made is left', async ({ signals }) => {
    const f = fixture(null);
    writeFileSync(join(f.workspace, '.envrc'), '');
    const daemon = await serve(f);
    const running = await startCommand(f);
    const exited = new Promise<number | null>((r) => daemon.child.once('exit', (code) => r(code)));
    // Each further signal once serve has begun to stop (two sent back to back may arrive as one).
    for (const [i, s] of signals.entries()) {
      if (i) await until('serve to begin stopping', () => daemon.log().includes('stopping ('));
      daemon.child.kill(s);
    }
    const code = await exited;
    await running.done;
    expect({ code, cleanedUp: readFileSync(join(f.workspace, 'cleaned.txt'), 'utf8'), extra: extra(f), usersEnvrc: lstatSync(join(f.workspace, '.envrc')).isFile(), said: daemon.log().split('\n').filter((l) => /stopping/.test(l)).length }).toEqual({
      code: 0,
      cleanedUp: 'cleaned-up\n',
      extra: ['cleaned.txt'],
      usersEnvrc: true,
      said: signals.length,
    });
    const again = await serve(f);
    try {
      // Recorded by the run that was stopped, not ended by the next start.
      expect(await lastCall(f)).toEqual({ state: 'interrupted', decided_by: 'level:full', exit_code: 3 });
      await until('serve to finish starting', () => again.log().includes('no agent: the gate only'));
      expect(again.log()).not.toContain('placeholder');
    } finally {
      await again.kill('SIGTERM');
    }
  });

  it('killed (-9): the next start removes the placeholders the jail made, and keeps what the user had', async () => {
    const f = fixture(null);
    writeFileSync(join(f.workspace, '.envrc'), '');
    const daemon = await serve(f);
    const running = await startCommand(f);
    await daemon.kill('SIGKILL');
    await running.done;
    const madeByTheJail = extra(f);
    expect(madeByTheJail).toEqual(expect.arrayContaining(['.git', '.gitmodules', '.vscode']));
    const again = await serve(f);
    try {
      // serve says it once its control socket answers, so the line may come a moment later (before this one).
      await until('serve to finish starting', () => again.log().includes('no agent: the gate only'));
      const said = again.log().match(/removed (\d+) empty placeholder/)?.[1];
      expect({ extra: extra(f), users: USERS.map((n) => existsSync(join(f.workspace, n))), said }).toEqual({
        extra: [],
        users: [true, true],
        said: String(madeByTheJail.length),
      });
    } finally {
      await again.kill('SIGTERM');
    }
  });
});
