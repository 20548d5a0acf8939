// `threshold serve`: a headless daemon hosting the core (gate, store, control API) and the agent for one
// data directory. With --demo the model is scripted and a demo session starts on its own.
import { parseArgs } from 'node:util';
import { createAgent } from '../agent';
import type { Agent } from '../agent/agent';
import { DEMO_PROMPT, demoWorkspaceFor } from '../agent/demo-model';
import { startControlServer } from '../control/server';
import { ThresholdCore } from '../gate/core';
import type { CallState } from '../gate/events';
import { loadCliConfig, pathContextFor, realDir, resolveDataDir, UsageError, type CliIo } from './context';

const USAGE = 'usage: threshold serve [--data-dir DIR] [--config FILE] [--workspace DIR] [--unattended] [--demo] [--no-agent]';

/** Call states worth a log line: where a call ended up (the steps between are for the UI). */
const LOGGED_CALL_STATES: ReadonlySet<CallState> = new Set(['denied', 'succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled']);

/** One line per event that matters to someone reading the log; the model's text once per step. */
function logEvents(core: ThresholdCore, log: (line: string) => void): void {
  const text = new Map<string, string>();
  const flush = (turnId: string) => {
    const t = text.get(turnId)?.trim();
    text.delete(turnId);
    if (t) log(`model: ${t}`);
  };
  core.events.onAny((name, payload) => {
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
    },
    allowPositionals: true,
  });
  if (positionals.length) throw new UsageError(USAGE);
  if (values.demo && values['no-agent']) throw new UsageError('--demo needs the agent; drop --no-agent.');
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  const demoWorkspace = values.demo && !values.workspace ? demoWorkspaceFor(dataDir) : null;
  const bootstrap = pathContextFor(realDir(values.workspace ?? demoWorkspace ?? io.cwd), io.env, dataDir);
  const config = await loadCliConfig(values.config, io.env, bootstrap);
  const workspace = realDir(values.workspace ?? demoWorkspace ?? config.workspace ?? io.cwd);
  const paths = pathContextFor(workspace, io.env, dataDir);
  const core = await ThresholdCore.open({ dataDir, config, paths });
  const log = (line: string) => io.stderr.write(`threshold: ${core.redactor.redactTextSync(line)}\n`);
  // The last line of defence: no single request ends the daemon. Causes are fixed where they arise;
  // anything that still escapes is logged and serving goes on.
  const escaped = (what: string) => (err: unknown) => log(`${what} (kept serving): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  const onRejection = escaped('an unhandled rejection');
  const onException = escaped('an uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  let agent: Agent | null = null;
  let server;
  try {
    if (!values['no-agent']) agent = createAgent(core, { demo: values.demo, env: io.env });
    server = await startControlServer(core, dataDir, agent);
  } catch (err) {
    await agent?.dispose();
    core.dispose();
    throw err;
  }
  // With --unattended nobody can answer: every ask is denied at once as no_approver.
  if (!values.unattended) core.approvers.add('control');
  const orphans = core.gate.listPending().filter((p) => p.orphan).length;
  log(`serving ${dataDir} (workspace ${workspace}, level ${core.level()}${values.unattended ? ', unattended: asks are denied' : ''}); control socket ${server.path}`);
  log(agent ? `model: ${agent.modelLabel}` : 'no agent: the gate only');
  if (orphans) log(`${orphans} approval(s) from an earlier run are pending as orphans: threshold ctl pending`);
  if (core.recovered.length) log(`${core.recovered.length} call(s) cut short by an earlier run were ended: ${core.recovered.filter((c) => c.state === 'interrupted').length} interrupted, ${core.recovered.filter((c) => c.state === 'not_run').length} not run`);
  logEvents(core, log);
  if (agent && values.demo && core.store.sessions.list(1).length === 0) {
    // The tour starts by itself once; after a restart its session (and any pending approval) carries on.
    const turn = agent.send(null, DEMO_PROMPT);
    log(`demo session ${turn.sessionId} started: "${DEMO_PROMPT}" — approve with: threshold ctl pending, then threshold ctl decide ID approve_once`);
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`stopping (${signal})`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await server.close();
  await agent?.dispose();
  core.dispose();
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onException);
  return 0;
}
