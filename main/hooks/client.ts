// `threshold hook <agent>`: the command another agent runs before each of its tool calls. It reads the
// agent's hook JSON, asks the running core (external.review on the control socket), and prints exactly
// one JSON object in the agent's format, exit 0. When Threshold cannot judge the call (not running, no
// answer in time, input it cannot read) it defers to the agent's own prompt, never allows, and says why
// in one line on stderr. `threshold hook run TICKET` runs a command Threshold allowed into its jail (the
// agent was told to run this instead of its command) and exits with the command's exit code.
//
// It runs before every tool call of the other agent, so it loads nothing but this folder's pure modules
// and the control client: no classifier, no SQLite, no config loader (bin/threshold.js starts it from
// its own small bundle; bench: "threshold hook claude-code").
import { ControlClient, ControlUnavailable, RemoteError } from '../control/client';
import { socketPath } from '../control/socket-path';
import { defaultDirs } from '../config/dirs';
import { isExternalAgent, type ExternalAgent } from '../../common/external-agents';
import { formatAnswer, readHookInput, shellWord, type HookAnswer, type HookInput } from './agent-io';
import { mapToolCall } from './tool-map';

export interface HookIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** How this program is started again (node and bin/threshold.js), for the rewritten command. */
  self: readonly string[];
}

/** The control API takes messages of at most 1 MB; a call larger than that is left to the agent. */
const MAX_INPUT = 900 * 1024;
/** The longest the hook waits for a person by default: under the agents' own hook timeouts as installed (600 s and more). */
export const DEFAULT_WAIT_SECONDS = 590;

const USAGE = `usage: threshold hook <claude-code | codex | gemini> [--data-dir DIR] [--timeout SECONDS]
       threshold hook run TICKET [--data-dir DIR]
       threshold hook install|uninstall <agent> [--project DIR | --user] [--print] [--data-dir DIR]`;

interface Flags {
  dataDir: string;
  timeoutMs: number;
  rest: string[];
}

function flags(argv: string[], env: NodeJS.ProcessEnv): Flags | string {
  let dataDir: string | undefined;
  let timeout = DEFAULT_WAIT_SECONDS;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    // `--` ends the options: what follows is a TICKET or an agent's name even if it begins with '-'.
    if (a === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    }
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (eq !== -1) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    try {
      if (a === '--data-dir' || a.startsWith('--data-dir=')) dataDir = value('--data-dir');
      else if (a === '--timeout' || a.startsWith('--timeout=')) {
        timeout = Number(value('--timeout'));
        if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 86_400) return '--timeout must be a number of seconds from 1 to 86400';
      } else if (a.startsWith('-')) return `unknown option ${a}`;
      else rest.push(a);
    } catch (err) {
      return (err as Error).message;
    }
  }
  const dir = dataDir ?? env['THRESHOLD_HOME'] ?? defaultDirs(env).dataDir;
  return { dataDir: dir.startsWith('/') ? dir : `${process.cwd()}/${dir}`, timeoutMs: timeout * 1000, rest };
}

/** The hook command's entry: `threshold hook <agent>` or `threshold hook run TICKET`. */
export async function hookMain(argv: string[], io: HookIo): Promise<number> {
  const [sub, ...more] = argv;
  const f = flags(more, io.env);
  if (sub === 'run') {
    if (typeof f === 'string' || f.rest.length !== 1) {
      io.stderr.write(`threshold hook run: ${typeof f === 'string' ? f : 'needs exactly one TICKET'}\n${USAGE}\n`);
      return 2;
    }
    return runTicket(f.rest[0]!, f.dataDir, io);
  }
  if (!sub || !isExternalAgent(sub)) {
    io.stderr.write(`threshold hook: ${sub ? `"${sub}" is not an agent Threshold answers for` : 'which agent?'}\n${USAGE}\n`);
    return 2;
  }
  if (typeof f === 'string' || f.rest.length) {
    // Bad flags are the user's set-up, not the call: still one answer, deferring, so the agent goes on.
    const why = typeof f === 'string' ? f : `unexpected argument ${f.rest[0]}`;
    return answer(io, sub, null, { kind: 'defer', why: `the hook command is wrong (${why})` });
  }
  return judge(sub, f, io);
}

async function judge(agent: ExternalAgent, f: Flags, io: HookIo): Promise<number> {
  let text: string;
  try {
    text = await readAll(io.stdin, MAX_INPUT);
  } catch (err) {
    return answer(io, agent, null, { kind: 'defer', why: (err as Error).message });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return answer(io, agent, null, { kind: 'defer', why: 'the hook input is not valid JSON' });
  }
  const read = readHookInput(agent, raw, io.env);
  if (!read.ok) return answer(io, agent, null, { kind: 'defer', why: read.why });
  const input = read.input;
  const call = mapToolCall(agent, input.toolName, input.toolInput, input.mcp);

  let client: ControlClient;
  try {
    client = await ControlClient.connect(socketPath(f.dataDir));
  } catch (err) {
    const why = err instanceof ControlUnavailable ? `Threshold is not running for ${f.dataDir} (start it, or pass --data-dir)` : `Threshold could not be reached (${(err as Error).message})`;
    return answer(io, agent, input, { kind: 'defer', why });
  }
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    client.close();
  }, f.timeoutMs);
  try {
    const v = await client.call<{ decision: 'allow' | 'deny'; reason: string; run: { token: string } | null }>('external.review', {
      agent,
      event: input.event,
      session_id: input.sessionId,
      ...(input.turnId ? { turn_id: input.turnId } : {}),
      ...(input.toolUseId ? { agent_call_id: input.toolUseId } : {}),
      tool: call.tool,
      args: call.args,
      cwd: input.cwd,
      workspace: input.workspace,
      can_rewrite: call.rewritable && input.event === 'pre_tool_use',
    });
    if (v.decision === 'deny') return answer(io, agent, input, { kind: 'deny', reason: v.reason });
    if (v.decision !== 'allow') return answer(io, agent, input, { kind: 'defer', why: 'Threshold answered something this hook does not understand' });
    const rewrite = v.run ? { command: [...io.self, 'hook', 'run', '--data-dir', f.dataDir, v.run.token].map(shellWord).join(' ') } : undefined;
    return answer(io, agent, input, { kind: 'allow', reason: v.reason, ...(rewrite ? { rewrite } : {}) });
  } catch (err) {
    const why =
      err instanceof RemoteError
        ? `Threshold refused the request (${err.message})`
        : err instanceof ControlUnavailable
          ? timedOut
            ? `no decision within ${Math.round(f.timeoutMs / 1000)} s; the card in Threshold was withdrawn`
            : 'Threshold stopped before it answered'
          : `Threshold could not answer (${(err as Error).message})`;
    return answer(io, agent, input, { kind: 'defer', why });
  } finally {
    clearTimeout(deadline);
    client.close();
  }
}

function answer(io: HookIo, agent: ExternalAgent, input: HookInput | null, a: HookAnswer): number {
  const out = formatAnswer({ agent, event: input?.event ?? 'pre_tool_use', toolInput: input?.toolInput ?? {} }, a);
  io.stdout.write(JSON.stringify(out) + '\n');
  if (a.kind === 'defer') io.stderr.write(`threshold hook: ${a.why}; the agent's own prompt decides.\n`);
  return 0;
}

async function runTicket(token: string, dataDir: string, io: HookIo): Promise<number> {
  let client: ControlClient;
  try {
    client = await ControlClient.connect(socketPath(dataDir));
  } catch (err) {
    io.stderr.write(`threshold: the command did not run: Threshold is not running for ${dataDir} (${(err as Error).message}).\n`);
    return 1;
  }
  try {
    const r = await client.call<{ status: string; exit_code: number | null; stdout: string; stderr: string; notes: string[] }>('external.run', { token });
    if (r.stdout) io.stdout.write(r.stdout);
    if (r.stderr) io.stderr.write(r.stderr.endsWith('\n') ? r.stderr : r.stderr + '\n');
    for (const n of r.notes) io.stderr.write(n + '\n');
    return r.exit_code ?? (r.status === 'succeeded' ? 0 : 1);
  } catch (err) {
    io.stderr.write(`threshold: the command did not run: ${(err as Error).message}\n`);
    return 1;
  } finally {
    client.close();
  }
}

function readAll(stream: NodeJS.ReadableStream, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer | string) => {
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      size += b.length;
      if (size > max) {
        stream.removeAllListeners('data');
        (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        reject(new Error(`the call is larger than Threshold takes from a hook (${Math.round(max / 1024)} KB)`));
        return;
      }
      chunks.push(b);
    });
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}
