// `npm run soak`: 50 concurrent sessions for 10 simulated minutes through the fake provider, on one core
// (file database, real gate, store, redaction and checkpoints), the way one daemon serves them. Every
// session takes a turn every 30 simulated seconds: the model lists the workspace (a read: runs at once),
// writes its notes file (asks; a simulated user approves at once; a checkpoint is taken; the file is
// written), then answers. Reports latency (model emitted the call → approval.requested; whole turns)
// against the benchmark target and memory after every simulated round. Not part of `npm test`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from '../../main/agent/agent';
import { createModel } from '../../main/providers/create-model';
import type { ProviderConfig } from '../../main/config/load';
import { Store } from '../../main/store/store';
import { percentile } from '../bench/harness';
import { FakeProvider, type RecordedRequest, type Step } from '../fake-provider/server';
import { testCore } from '../support/core';
import { jailFixture } from '../support/jail';
import { agentParts } from '../../main/runtime/parts';

const { values } = parseArgs({ options: { sessions: { type: 'string' }, minutes: { type: 'string' }, every: { type: 'string' } } });
const SESSIONS = Number(values.sessions ?? 50);
const MINUTES = Number(values.minutes ?? 10);
const TURN_EVERY_S = Number(values.every ?? 30);
const ROUNDS = Math.round((MINUTES * 60) / TURN_EVERY_S);
/** The benchmark's target for "model emits a call → approval.requested", p95 (test/bench/agent.bench.ts). */
const TARGET_P95_MS = 50;

const MARK = '[soak]';
const fx = await jailFixture();
const fake = await FakeProvider.start();
const dataDir = join(fx.root, 'soak-data');
mkdirSync(dataDir, { mode: 0o700 });
let simulated = Date.parse('2026-01-05T09:00:00Z');
const now = () => simulated;
const core = await testCore({ level: 'supervised', store: Store.openDataDir(dataDir), now, paths: { home: fx.home, workspace: fx.workspace, appDirs: [fx.configDir, fx.dataDir, dataDir] }, dataDir });
const cfg: ProviderConfig = { kind: 'openai-compatible', baseUrl: `${fake.url}/v1`, model: 'soak-model', apiKeyEnv: null, timeoutMs: 120_000 };
// The app's default of two retries: under 50 concurrent streams a kept-alive connection to the fake is
// sometimes reset just as it is reused, which the SDK retries like any transient network error.
const agent = new Agent({ ...agentParts(core), model: createModel(cfg, 'soak-key').model, modelLabel: 'soak', provider: cfg, maxSteps: 6, questionTimeoutMs: 5_000, now });

// The model's side: what a request gets depends on how far its turn has come (tool results since the
// user's message), so concurrent sessions each follow their own script.
const writeAnsweredAt = new Map<string, number>();
fake.responder = (req: RecordedRequest): Step => {
  const text = JSON.stringify(req.body['messages']);
  const at = text.lastIndexOf(MARK);
  const session = /\[soak\] session (\d+) round (\d+)/.exec(text.slice(at))!;
  const results = text.slice(at).split('"role":"tool"').length - 1;
  if (results === 0) return { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
  if (results === 1) {
    writeAnsweredAt.set(`s${session[1]}`, performance.now());
    return { toolCalls: [{ name: 'write_file', args: { path: `notes-${session[1]}.md`, content: `round ${session[2]}\n`.repeat(20) } }] };
  }
  return { text: `Round ${session[2]} done.` };
};

// The user's side: approves every card at once, and times it.
const toApproval: number[] = [];
const sessionOf = new Map<string, string>();
core.events.on('approval.requested', (p) => {
  const key = sessionOf.get(p.session_id);
  const started = key ? writeAnsweredAt.get(key) : undefined;
  if (started !== undefined) toApproval.push(performance.now() - started);
  void core.gate.decideApproval({ approvalId: p.id, hash: p.hash, outcome: 'approve_once', surface: 'desktop' });
});

const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => {
  gc?.();
  const m = process.memoryUsage();
  return { rssMb: Math.round(m.rss / 1048576), heapMb: Math.round(m.heapUsed / 1048576) };
};
const sessionIds: (string | null)[] = Array.from({ length: SESSIONS }, () => null);
const turnMs: number[] = [];
const rounds: { round: number; simulatedMinute: number; seconds: number; rssMb: number; heapMb: number }[] = [];
let failures = 0;
const failed = new Map<string, number>();
const started = performance.now();
process.stderr.write(`soak: ${SESSIONS} sessions, ${ROUNDS} rounds (a turn every ${TURN_EVERY_S} simulated s for ${MINUTES} simulated minutes)\n`);
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  await Promise.all(
    sessionIds.map(async (id, s) => {
      const t = performance.now();
      const turn = agent.send(id, `${MARK} session ${s} round ${r}: list the workspace, then update your notes.`);
      sessionIds[s] = turn.sessionId;
      sessionOf.set(turn.sessionId, `s${s}`);
      const summary = await turn.done;
      if (summary.reason !== 'completed') {
        failures++;
        const why = `${summary.reason}: ${(summary.error ?? '').slice(0, 160)}`;
        failed.set(why, (failed.get(why) ?? 0) + 1);
      }
      turnMs.push(performance.now() - t);
    }),
  );
  simulated += TURN_EVERY_S * 1000;
  // The fake keeps every request for tests; the soak does not need them (they would count as our growth).
  fake.requests.length = 0;
  const m = memory();
  rounds.push({ round: r + 1, simulatedMinute: Math.round(((r + 1) * TURN_EVERY_S) / 6) / 10, seconds: Math.round((performance.now() - t0) / 100) / 10, ...m });
  process.stderr.write(`  round ${r + 1}/${ROUNDS}: ${rounds.at(-1)!.seconds} s, RSS ${m.rssMb} MB, heap ${m.heapMb} MB\n`);
}
await agent.dispose();
core.dispose();
await fake.close();
await fx.close();

toApproval.sort((a, b) => a - b);
turnMs.sort((a, b) => a - b);
const settled = rounds.slice(Math.min(2, rounds.length - 1));
const heapGrowth = settled.at(-1)!.heapMb - settled[0]!.heapMb;
const rssGrowth = settled.at(-1)!.rssMb - settled[0]!.rssMb;
const summary = {
  sessions: SESSIONS,
  rounds: ROUNDS,
  turns: turnMs.length,
  failedTurns: failures,
  failureReasons: Object.fromEntries(failed),
  wallSeconds: Math.round((performance.now() - started) / 1000),
  callToApprovalMs: { p50: round(percentile(toApproval, 50)), p95: round(percentile(toApproval, 95)), p99: round(percentile(toApproval, 99)), targetP95: TARGET_P95_MS, met: percentile(toApproval, 95) <= TARGET_P95_MS },
  turnMs: { p50: round(percentile(turnMs, 50)), p95: round(percentile(turnMs, 95)), p99: round(percentile(turnMs, 99)) },
  memory: { first: rounds[0], afterWarmup: settled[0], last: rounds.at(-1), heapGrowthMbAfterWarmup: heapGrowth, rssGrowthMbAfterWarmup: rssGrowth },
};
process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
process.exitCode = failures ? 1 : 0;

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
