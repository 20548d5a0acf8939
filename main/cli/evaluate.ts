// `threshold evaluate --jsonl`: the gate's decision for tool calls, one JSON object a line.
import { parseArgs } from 'node:util';
import { LEVELS, type Level } from '../../common/domain';
import { fileLayerOfConfig, mergeLayers } from '../config/layers';
import { observeCall } from '../gate/observe';
import { initClassifier } from '../policy/classifier';
import { evaluate, type PolicyContext } from '../policy/evaluate';
import { hostAllowed } from '../../common/hosts';
import { resolvePath } from '../policy/paths';
import { readNetworkFile } from '../gate/network-files';
import { loadCliConfig, pathContextFor, realDir, UsageError, type CliIo } from './context';
import { mapJsonLines } from './jsonl';

export async function evaluateCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { jsonl: { type: 'boolean' }, level: { type: 'string' }, config: { type: 'string' }, workspace: { type: 'string' } },
    allowPositionals: true,
  });
  if (!values.jsonl || positionals.length) throw new UsageError('usage: threshold evaluate --jsonl [--level L] [--config FILE] [--workspace DIR] < calls.jsonl');
  if (values.level !== undefined && !(LEVELS as readonly string[]).includes(values.level)) {
    throw new UsageError(`--level must be one of ${LEVELS.join(', ')} (got "${values.level}").`);
  }
  const workspace = realDir(values.workspace ?? io.cwd);
  const paths = pathContextFor(workspace, io.env);
  const config = await loadCliConfig(values.config, io.env, paths);
  await initClassifier();
  // --level stands where the Settings page would: above the file, below a managed policy's ceiling.
  const access = mergeLayers(fileLayerOfConfig(config), values.level ? { level: values.level as Level } : {}, config.managed ?? null);
  const ctx: PolicyContext = {
    level: access.level,
    rules: access.rules,
    grants: config.grants,
    paths,
    now: Date.now(),
    sessionId: null,
    hostAllowed: (host, port) => hostAllowed(host, port, config.network.allowHosts),
  };
  await mapJsonLines(io.stdin, io.stdout, (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'expected an object {"tool": "...", "args": {...}}' };
    const { tool, args, cwd } = v as { tool?: unknown; args?: unknown; cwd?: unknown };
    if (typeof tool !== 'string' || tool === '') return { error: 'expected a string field "tool"' };
    const dir = typeof cwd === 'string' && cwd ? (resolvePath(cwd, workspace, paths) ?? workspace) : workspace;
    return evaluate({ tool, args: args ?? {}, cwd: dir, observed: observeCall(tool, args, dir, paths), readText: readNetworkFile }, { ...ctx, now: Date.now() });
  });
  return 0;
}
