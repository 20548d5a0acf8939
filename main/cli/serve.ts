// `threshold serve`: a headless daemon hosting the core (gate, store, control API), the agent and the web
// UI for one data directory, built by the runtime root (main/runtime). With --demo the model is scripted
// and a demo session starts on its own.
import { parseArgs } from 'node:util';
import { toDisposable } from '../../common/disposable';
import { DEMO_PROMPT, demoWorkspaceFor } from '../agent/demo-model';
import type { ThresholdCore } from '../runtime/core';
import type { CallState } from '../../common/call-state';
import { startRuntime } from '../runtime/runtime';
import { VERSION } from '../runtime/version';
import { KEY_USE_TIMEOUT_ENV, KEY_USE_TIMEOUT_MS, LAUNCHED_BY_ENV } from '../../common/desktop-channel';
import { openWebUi } from './open-browser';
import { loadCliConfig, pathContextFor, realDir, resolveDataDir, UsageError, type CliIo } from './context';

const USAGE = 'usage: threshold serve [--data-dir DIR] [--config FILE] [--workspace DIR] [--unattended] [--demo] [--no-agent] [--web-port N | --no-web] [--open]';

/** Call states worth a log line: where a call ended up (the steps between are for the UI). */
const LOGGED_CALL_STATES: ReadonlySet<CallState> = new Set(['denied', 'succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled']);

/** One line per event that matters to someone reading the log; the model's text once per step. */
function logEvents(core: ThresholdCore, log: (line: string) => void): () => void {
  const text = new Map<string, string>();
  const flush = (turnId: string) => {
    const t = text.get(turnId)?.trim();
    text.delete(turnId);
    if (t) log(`model: ${t}`);
  };
  return core.events.onAny((name, payload) => {
    const p = payload as Record<string, unknown>;
    switch (name) {
      case 'turn.text':
        text.set(String(p['turn_id']), (text.get(String(p['turn_id'])) ?? '') + String(p['delta']));
        return;
      case 'call.output':
        return;
      case 'turn.started':
        return log(`turn ${String(p['turn_id'])} started in session ${String(p['session_id'])} (${String(p['kind'])}, ${String(p['model'])})`);
      case 'turn.ended':
        flush(String(p['turn_id']));
        return log(`turn ${String(p['turn_id'])} ended: ${String(p['reason'])} after ${String(p['steps'])} step(s)${p['error'] ? ` (${String(p['error'])})` : ''}`);
      case 'call.state':
        if (p['state'] === 'received') flush(String(p['turn_id']));
        if (!LOGGED_CALL_STATES.has(p['state'] as CallState)) return;
        return log(`call ${String(p['tool'])} → ${String(p['state'])}`);
      case 'approval.requested':
        return log(`approval.requested ${String(p['id'])} ${String(p['tool'])} [${String(p['class'])}]: ${String(p['reason'])}`);
      case 'approval.decided':
        return log(`approval.decided ${String(p['id'])} ${String(p['tool'])} → ${String(p['outcome'])} (by ${String(p['decided_by'])})`);
      case 'session.note':
        return log(`note: ${String(p['text'])}`);
      case 'review.approved':
      case 'review.escalated': {
        // The half of the record that outlives the page: which tool, which model, why.
        const models = (p['reviewers'] as { name: string; model: string }[]).map((r) => `${r.name} (model ${r.model})`).join(' + ');
        return log(`${name} ${String(p['tool'])}${p['path'] ? ` [${String(p['path'])}]` : ''} by ${models || 'no reviewer'} in ${String(p['latency_ms'])} ms: ${String(p['reason'])}`);
      }
      case 'question.asked':
        return log(`question.asked ${String(p['id'])}: ${String(p['question'])}`);
      default: {
        const id = typeof p['id'] === 'string' ? ` ${p['id']}` : '';
        const what = p['outcome'] ?? p['state'] ?? p['reason'];
        return log(`${name}${id}${what ? ` → ${String(what)}` : ''}`);
      }
    }
  });
}

/**
 * TEST HOOK: THRESHOLD_KEY_USE_TIMEOUT_MS shortens how long the core waits for the desktop window's answer
 * to an API key question (tests of "no answer in time"). It can only shorten it: the wait stays bounded by
 * KEY_USE_TIMEOUT_MS, and an unanswered question never sends the key.
 */
export function keyUseTimeoutFrom(env: NodeJS.ProcessEnv): number {
  const ms = Number(env[KEY_USE_TIMEOUT_ENV]);
  return Number.isInteger(ms) && ms >= 100 && ms < KEY_USE_TIMEOUT_MS ? ms : KEY_USE_TIMEOUT_MS;
}

export async function serveCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      config: { type: 'string' },
      workspace: { type: 'string' },
      unattended: { type: 'boolean' },
      demo: { type: 'boolean' },
      'no-agent': { type: 'boolean' },
      'web-port': { type: 'string' },
      'no-web': { type: 'boolean' },
      open: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError(USAGE);
  if (values.demo && values['no-agent']) throw new UsageError('--demo needs the agent; drop --no-agent.');
  if (values['no-web'] && values['web-port'] !== undefined) throw new UsageError('--web-port and --no-web contradict each other; use one.');
  if (values['no-web'] && values.open) throw new UsageError('--open opens the web UI, which --no-web turns off; use one.');
  // Without --web-port the data directory keeps its port (main/web/port.ts), so an open page finds a
  // restarted daemon again; --web-port N is exactly N.
  const webPort = values['web-port'] === undefined ? 0 : Number(values['web-port']);
  if (values['web-port'] !== undefined && (!/^\d{1,5}$/.test(values['web-port']) || webPort < 1 || webPort > 65535)) throw new UsageError('--web-port must be a port number from 1 to 65535.');
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  const demoWorkspace = values.demo && !values.workspace ? demoWorkspaceFor(dataDir) : null;
  const bootstrap = pathContextFor(realDir(values.workspace ?? demoWorkspace ?? io.cwd), io.env, dataDir);
  const config = await loadCliConfig(values.config, io.env, bootstrap);
  // THRESHOLD_WORKSPACE as for the desktop app (npm start sets it when it falls back to web mode).
  const workspace = realDir(values.workspace ?? demoWorkspace ?? config.workspace ?? io.env['THRESHOLD_WORKSPACE'] ?? io.cwd);
  const paths = pathContextFor(workspace, io.env, dataDir);
  // Lines are redacted once the core exists; before that only fixed text is logged.
  let redact = (line: string) => line;
  const log = (line: string) => io.stderr.write(`threshold: ${redact(line)}\n`);
  for (const warning of config.warnings) log(`warning: ${warning}`);
  const runtime = await startRuntime({
    dataDir,
    config,
    paths,
    version: VERSION,
    agent: values['no-agent'] ? null : { demo: values.demo, env: io.env, log },
    control: true,
    // With --unattended nobody can answer: every ask is denied at once as no_approver, and an open page watches only.
    controlApprover: !values.unattended,
    web: values['no-web'] ? null : { port: webPort, stablePort: values['web-port'] === undefined, approvers: !values.unattended },
    launchedBy: io.env[LAUNCHED_BY_ENV] === 'desktop' ? 'desktop' : 'other',
    keyUseTimeoutMs: keyUseTimeoutFrom(io.env),
    log,
  });
  // The last line of defence: no single request ends the daemon. Causes are fixed where they arise;
  // anything that still escapes is logged and serving goes on.
  const escaped = (what: string) => (err: unknown) => log(`${what} (kept serving): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  const onRejection = escaped('an unhandled rejection');
  const onException = escaped('an uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  runtime.own(toDisposable(() => void (process.off('unhandledRejection', onRejection), process.off('uncaughtException', onException))));
  const { core, agent } = runtime;
  redact = (line) => core.redactor.redactTextSync(line);
  const orphans = core.gate.listPending().filter((p) => p.orphan).length;
  log(`serving ${dataDir} (workspace ${workspace}, level ${core.level()}${values.unattended ? ', unattended: asks are denied' : ''}); control socket ${runtime.control!.path}`);
  // The one line that shows the token: written as is (the redactor would hide it, being a secret).
  if (runtime.web) io.stderr.write(`threshold: web UI: ${runtime.web.url}\n`);
  if (runtime.web && values.open) log((await openWebUi(runtime.web.url, dataDir, { platform: process.platform, env: io.env })).message);
  const leftBehind = core.executor.placeholders.recovered.length;
  if (leftBehind) log(`removed ${leftBehind} empty placeholder(s) the jail of an earlier run had left in the workspace (it was stopped mid-command)`);
  log(agent ? `model: ${agent.modelLabel}` : 'no agent: the gate only');
  // One sentence with the fix, on the terminal as in the window (docs/executor.md, "When the jail cannot start").
  const jail = core.jailStatus();
  if (jail.problem) log(`the jail cannot start: ${jail.problem.cause}; fix: ${jail.problem.fix}. Commands cannot run until then.`);
  if (orphans) log(`${orphans} approval(s) from an earlier run are pending as orphans: threshold ctl pending`);
  if (core.recovered.length) log(`${core.recovered.length} call(s) cut short by an earlier run were ended: ${core.recovered.filter((c) => c.state === 'interrupted').length} interrupted, ${core.recovered.filter((c) => c.state === 'not_run').length} not run`);
  runtime.own(toDisposable(logEvents(core, log)));
  const tour = runtime.startDemoTour();
  if (tour) log(`demo session ${tour.sessionId} started: "${DEMO_PROMPT}" — approve in the web UI, or with: threshold ctl pending, then threshold ctl decide ID approve_once`);
  // A stop lets running commands end as a cancel does (SIGTERM, their grace, then SIGKILL) and records them.
  // A second signal while stopping must not end the process at once: Ctrl+C in a terminal reaches both
  // npm and serve, and npm passes it on, so serve commonly gets two. The handlers stay until the end.
  let stopping = false;
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  await new Promise<void>((stop) => {
    onSignal = (signal) => {
      if (stopping) return log(`still stopping (${signal} again): running commands are given their grace to end`);
      stopping = true;
      log(`stopping (${signal})`);
      stop();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  try {
    await runtime.dispose();
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  // Everything Threshold owns is gone now. The AI SDK (6.0.x) leaves its 120 s chunk timer behind when a
  // stream is aborted, which would keep a stopped daemon alive for two minutes: a stopped serve ends.
  if (io.stderr === process.stderr) setTimeout(() => process.exit(), 1000).unref();
  return 0;
}
