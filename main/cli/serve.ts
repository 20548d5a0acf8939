// `threshold serve`: a headless daemon hosting the core (gate, store, control API) for one data directory.
import { parseArgs } from 'node:util';
import { ThresholdCore } from '../gate/core';
import { startControlServer } from '../control/server';
import { loadCliConfig, pathContextFor, realDir, resolveDataDir, UsageError, type CliIo } from './context';

export async function serveCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, config: { type: 'string' }, workspace: { type: 'string' }, unattended: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError('usage: threshold serve [--data-dir DIR] [--config FILE] [--workspace DIR] [--unattended]');
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  const bootstrap = pathContextFor(realDir(values.workspace ?? io.cwd), io.env, dataDir);
  const config = await loadCliConfig(values.config, io.env, bootstrap);
  const workspace = realDir(values.workspace ?? config.workspace ?? io.cwd);
  const paths = pathContextFor(workspace, io.env, dataDir);
  const core = await ThresholdCore.open({ dataDir, config, paths });
  const log = (line: string) => io.stderr.write(`threshold: ${core.redactor.redactTextSync(line)}\n`);
  let server;
  try {
    server = await startControlServer(core, dataDir);
  } catch (err) {
    core.dispose();
    throw err;
  }
  // With --unattended nobody can answer: every ask is denied at once as no_approver.
  if (!values.unattended) core.approvers.add('control');
  const orphans = core.gate.listPending().filter((p) => p.orphan).length;
  log(`serving ${dataDir} (workspace ${workspace}, level ${core.level()}${values.unattended ? ', unattended: asks are denied' : ''}); control socket ${server.path}`);
  if (orphans) log(`${orphans} approval(s) from an earlier run are pending as orphans: threshold ctl pending`);
  core.events.onAny((name, payload) => {
    const p = payload as { id?: string; tool?: string; outcome?: string };
    log(`${name}${p.id ? ` ${p.id}` : ''}${p.tool ? ` ${p.tool}` : ''}${p.outcome ? ` → ${p.outcome}` : ''}`);
  });
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`stopping (${signal})`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await server.close();
  core.dispose();
  return 0;
}
