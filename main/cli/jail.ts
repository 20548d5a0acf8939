// `threshold jail`: runs argv in the jail exactly as the executor would for a call of that class (no gate).
// A network-class run goes out through the egress proxy with the configured [network] allow_hosts, plus
// the hosts given with --allow-host for this run only.
import { parseArgs } from 'node:util';
import { realDir } from '../config/dirs';
import { Executor, JailUnavailableError } from '../../executor/run';
import type { JailClass, JailViolation } from '../../executor/types';
import { memoryReason } from '../calls/run-command';
import { hostPatternProblem } from '../../common/hosts';
import { loadCliConfig, pathContextFor, resolveDataDir, UsageError, type CliIo } from './context';

export async function jailCli(argv: string[], io: CliIo): Promise<number> {
  const dd = argv.indexOf('--');
  if (dd === -1 || dd === argv.length - 1) throw new UsageError('usage: threshold jail --workspace DIR [--class read|write|network] [--allow-host H]... [--config FILE] [--print] [--timeout S] -- <argv...>');
  const { values } = parseArgs({
    args: argv.slice(0, dd),
    options: { workspace: { type: 'string' }, class: { type: 'string' }, print: { type: 'boolean' }, timeout: { type: 'string' }, 'data-dir': { type: 'string' }, 'allow-host': { type: 'string', multiple: true }, config: { type: 'string' } },
  });
  const cls = (values.class ?? 'write') as JailClass;
  if (!['read', 'write', 'network'].includes(cls)) throw new UsageError('--class must be read, write or network.');
  if (!values.workspace) throw new UsageError('--workspace DIR is required.');
  const workspace = realDir(values.workspace);
  const paths = pathContextFor(workspace, io.env, resolveDataDir(values['data-dir'], io.env));
  const extraHosts = values['allow-host'] ?? [];
  if (extraHosts.length && cls !== 'network') throw new UsageError('--allow-host is for --class network.');
  for (const h of extraHosts) {
    const problem = hostPatternProblem(h);
    if (problem) throw new UsageError(`--allow-host ${problem}.`);
  }
  const allowHosts = cls === 'network' ? [...(await loadCliConfig(values.config, io.env, paths)).network.allowHosts, ...extraHosts] : undefined;
  // One call: no launcher is started ahead for a next one.
  const executor = new Executor({ home: paths.home, appDirs: paths.appDirs, spare: false });
  const command = argv.slice(dd + 1);
  const cwd = io.cwd.startsWith(workspace) ? realDir(io.cwd) : workspace;
  const req = { argv: command, cwd, env: io.env, jail: { class: cls, workspace, ...(allowHosts ? { allowHosts } : {}) }, limits: values.timeout ? { timeoutMs: Number(values.timeout) * 1000 } : {} };
  try {
    if (values.print) {
      io.stdout.write(executor.commandLine(req).map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ') + '\n');
      return 0;
    }
    const r = await executor.run({ ...req, onOutput: (stream, chunk) => (stream === 'stdout' ? io.stdout : io.stderr).write(chunk) });
    for (const v of r.violations) io.stderr.write(`threshold jail: ${violationLine(v)}\n`);
    if (r.timedOut) io.stderr.write('threshold jail: timed out; the process tree was stopped\n');
    if (r.memory?.exceeded) io.stderr.write(`threshold jail: ${memoryReason(r.memory.limitBytes)}\n`);
    if (r.exitCode !== null) return r.exitCode;
    return r.signal ? 128 + (({ SIGTERM: 15, SIGKILL: 9, SIGINT: 2 }) as Record<string, number>)[r.signal]! || 1 : 1;
  } catch (err) {
    if (err instanceof JailUnavailableError) {
      io.stderr.write(`threshold jail: ${err.message}\n`);
      return 125;
    }
    throw err;
  } finally {
    executor.dispose();
  }
}

function violationLine(v: JailViolation): string {
  switch (v.kind) {
    case 'write_denied':
      return `the jail denied writing ${v.target}`;
    case 'read_denied':
      return `the jail hid ${v.target}`;
    case 'host_denied':
      return `the egress proxy refused ${v.target}: ${v.evidence}`;
    case 'network_denied':
      return `the jail denied network access (${v.target})`;
  }
}
