// `threshold hook install|uninstall <agent> [--project | --user] [--print] [--data-dir DIR]`: puts
// Threshold's hook into that agent's settings file, or takes exactly it out again. --print shows the
// change and writes nothing. The file is written whole, to a temporary file renamed over it, keeping its
// mode; a file Threshold cannot read as JSON is left alone.
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXTERNAL_AGENT_NAMES, isExternalAgent, type ExternalAgent } from '../../common/external-agents';
import type { CliIo } from './context';
import { UsageError } from './usage-error';
import { shellWord } from '../hooks/agent-io';
import { describeChange, planInstall, planUninstall } from '../hooks/install';

const USAGE = 'usage: threshold hook install|uninstall <claude-code | codex | gemini> [--project | --user] [--print] [--data-dir DIR]';

/** Where each agent keeps the settings its hooks live in: for the user, or for the project in the current folder. */
export function settingsFile(agent: ExternalAgent, scope: 'user' | 'project', cwd: string, env: NodeJS.ProcessEnv): string {
  const home = env['HOME'] || homedir();
  switch (agent) {
    case 'claude-code':
      // The project's local settings: the hook names this machine's paths, so it is not for the shared file.
      return scope === 'project' ? join(cwd, '.claude', 'settings.local.json') : join(env['CLAUDE_CONFIG_DIR'] || join(home, '.claude'), 'settings.json');
    case 'codex':
      return scope === 'project' ? join(cwd, '.codex', 'hooks.json') : join(env['CODEX_HOME'] || join(home, '.codex'), 'hooks.json');
    case 'gemini':
      return scope === 'project' ? join(cwd, '.gemini', 'settings.json') : join(home, '.gemini', 'settings.json');
  }
}

/** The command the agent runs: this Node and this checkout's bin/threshold.js, so it works without `threshold` on PATH. */
export function hookCommand(agent: ExternalAgent, dataDir: string | null, self: readonly string[]): string {
  return [...self, 'hook', agent, ...(dataDir ? ['--data-dir', dataDir] : [])].map(shellWord).join(' ');
}

const AFTER: Record<ExternalAgent, string> = {
  'claude-code': 'Claude Code reads it when a session starts.',
  codex: 'Codex runs a hook only after you trust it: open /hooks in Codex and trust the Threshold entries (their hash changes if you reinstall).',
  gemini: 'Gemini CLI still shows its own prompts after Threshold allows a call unless its approval mode lets the call run (docs/agents.md).',
};

/** `self`: how this program is started (node and bin/threshold.js); the written command starts it the same way. */
export async function installCli(argv: string[], io: CliIo, self: readonly string[] = [process.execPath, realOr(process.argv[1] ?? 'threshold')]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { project: { type: 'boolean' }, user: { type: 'boolean' }, print: { type: 'boolean' }, 'data-dir': { type: 'string' } }, allowPositionals: true });
  const [verb, agent, ...extra] = positionals;
  if ((verb !== 'install' && verb !== 'uninstall') || !agent || extra.length) throw new UsageError(USAGE);
  if (!isExternalAgent(agent)) throw new UsageError(`"${agent}" is not an agent Threshold answers for.\n${USAGE}`);
  if (values.project && values.user) throw new UsageError('choose --project or --user, not both.');
  const scope = values.project ? 'project' : 'user';
  const file = settingsFile(agent, scope, io.cwd, io.env);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const dataDir = values['data-dir'] ? resolve(io.cwd, values['data-dir']) : null;
  const plan = verb === 'install' ? planInstall(agent, before, file, hookCommand(agent, dataDir, self)) : planUninstall(agent, before, file);
  if (!plan.ok) {
    io.stderr.write(`threshold hook ${verb}: ${plan.problem}\n`);
    return 1;
  }
  if (values.print) {
    io.stdout.write(`${plan.summary.replace(/^(Added|Removed)/, (w) => (w === 'Added' ? 'Would add' : 'Would remove'))}\n`);
    if (plan.changed) io.stdout.write(`${describeChange(before ?? '', plan.text)}\n`);
    return 0;
  }
  if (plan.changed) writeWhole(file, plan.text);
  io.stdout.write(`${plan.summary}\n`);
  if (plan.changed && verb === 'install') io.stdout.write(`${AFTER[agent]}\n`);
  else if (plan.changed) io.stdout.write(`${EXTERNAL_AGENT_NAMES[agent]}'s calls no longer ask Threshold from the next session on.\n`);
  return 0;
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
  const staging = `${file}.threshold-${process.pid}`;
  writeFileSync(staging, text, { mode });
  chmodSync(staging, mode);
  renameSync(staging, file);
}
