// `threshold import <claude-code | codex | gemini> FILE [--print] [--json] [--project DIR] [--data-dir DIR]`:
// another agent's permission rules as Threshold's. --print shows what each rule becomes and what cannot be
// expressed (refused, with the reason), and changes nothing. Without it the grants are made and the
// per-tool rules set through the running core (audited like any grant or Settings change), each grant
// noting the file and rule it came from.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isExternalAgent } from '../../common/external-agents';
import type { ToolRule } from '../../common/domain';
import { ControlClient, ControlUnavailable, RemoteError } from '../control/client';
import { socketPath } from '../control/socket-path';
import { pathContextFor, resolveDataDir, UsageError, type CliIo } from './context';

const USAGE = 'usage: threshold import <claude-code | codex | gemini> FILE [--print] [--json] [--project DIR] [--data-dir DIR]';

export async function importCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { print: { type: 'boolean' }, json: { type: 'boolean' }, project: { type: 'string' }, 'data-dir': { type: 'string' } }, allowPositionals: true });
  const [agent, file, ...extra] = positionals;
  if (!agent || !file || extra.length) throw new UsageError(USAGE);
  if (!isExternalAgent(agent)) throw new UsageError(`"${agent}" is not an agent whose rules Threshold reads.\n${USAGE}`);
  const path = resolve(io.cwd, file);
  if (!existsSync(path)) {
    io.stderr.write(`threshold import: ${path} does not exist.\n`);
    return 1;
  }
  const { planImport, projectOf, describePlan } = await import('../hooks/import/index');
  const project = values.project ? resolve(io.cwd, values.project) : projectOf(path, io.cwd);
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  const plan = await planImport(agent, readFileSync(path, 'utf8'), path, project, pathContextFor(project, io.env, dataDir));
  if (values.print) {
    io.stdout.write(values.json ? JSON.stringify(plan, null, 2) + '\n' : describePlan(plan) + '\n');
    return 0;
  }

  let client: ControlClient;
  try {
    client = await ControlClient.connect(socketPath(dataDir));
  } catch (err) {
    if (!(err instanceof ControlUnavailable)) throw err;
    io.stderr.write(`threshold import: Threshold is not running for ${dataDir}; start it to import, or see the plan with --print.\n`);
    return 3;
  }
  const made: { rule: string; grant: string }[] = [];
  const failed: { rule: string; why: string }[] = [];
  const tools: Record<string, ToolRule> = {};
  try {
    for (const r of plan.rules) {
      if (r.result.become === 'grants') {
        for (const g of r.result.grants) {
          try {
            const rec = await client.call<{ id: string }>('grant.create', { tool: g.tool, pattern: g.pattern, duration: 'always', imported_from: `${path}: ${r.source}`.slice(0, 500) });
            made.push({ rule: r.source, grant: rec.id });
          } catch (err) {
            failed.push({ rule: r.source, why: err instanceof RemoteError ? err.message : (err as Error).message });
          }
        }
      } else if (r.result.become === 'rules') {
        // Where two imported rules name one tool, the stricter holds (deny over ask).
        for (const x of r.result.rules) if (tools[x.tool] !== 'deny') tools[x.tool] = x.value;
      }
    }
    if (Object.keys(tools).length) {
      try {
        await client.call('settings.update', { changes: { tools } });
      } catch (err) {
        failed.push({ rule: `rules ${Object.entries(tools).map(([t, v]) => `${t} = "${v}"`).join(', ')}`, why: err instanceof RemoteError ? err.message : (err as Error).message });
      }
    }
  } finally {
    client.close();
  }
  const summary = { plan, made, rules: failed.some((f) => f.rule.startsWith('rules ')) ? {} : tools, failed };
  if (values.json) io.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  else {
    io.stdout.write(describePlan(plan) + '\n');
    io.stdout.write(`Made ${made.length} grant(s)${Object.keys(summary.rules).length ? ` and set ${Object.keys(summary.rules).length} rule(s) in Settings` : ''}.\n`);
    for (const f of failed) io.stdout.write(`Not applied: ${f.rule}: ${f.why}\n`);
  }
  return failed.length ? 1 : 0;
}
