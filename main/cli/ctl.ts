// `threshold ctl`: talks to a running daemon over its control socket. --json for scripts; tables otherwise.
import { parseArgs } from 'node:util';
import type { DecisionRecord, GrantRecord, PendingApproval } from '../../common/approvals';
import type { TranscriptEntry } from '../../common/contract';
import { patternText } from '../../common/grant-pattern';
import type { CallPage, CallRecord } from '../../common/history';
import type { OperationName, ResultOf } from '../../common/operations';
import { visibleJson, visibleText } from '../../common/visible-text';
import { ControlClient, ControlRefused, ControlUnavailable, RemoteError } from '../control/client';
import { socketPath } from '../control/socket-path';
import { resolveDataDir, UsageError, type CliIo } from './context';

const USAGE = `usage: threshold ctl [--data-dir DIR] [--json] <command>
  pending                              approvals waiting for a decision
  history [--limit N] [--session S] [--outcome O]
                                       recent decisions, with the outcome of execution
  calls [--limit N] [--session S] [--state S,S…] [--tool T] [--class C] [--decided-by G] [--text T] [--cursor C] [--jsonl]
                                       every call, newest first, whoever decided it (G: person grant level rule reviewer
                                       timeout nobody …); --jsonl: every matching call, one JSON object a line
  call ID                              one call in full: arguments, explanation, approval, outcome, checkpoint, audit
  decide ID OUTCOME [--hash H] [--note TEXT] [--duration 15m|1h|session|always] [--pattern JSON]
                                       OUTCOME: approve_once approve_session approve_always approve_all_session skip deny
  grants [--all]                       grants in force (--all: revoked and expired too)
  revoke ID                            revoke a grant
  web                                  the web UI's address with its token (as serve printed it)
  approve-all [end SESSION]            sessions in approve-all mode; end: ask again in that session
  verify                               verify the audit history's hash chain
  level [LEVEL]                        show or set the level (read-only supervised auto-edit full)
  sandbox                              paths the jail denied, waiting for your consent
  consent ID session|always|deny       answer a sandbox request
  request --tool T --args JSON [--session S] [--unattended] [--no-wait] [--execute]
                                       submit a tool call to the gate (--execute: run an approved command in the jail)
  run [--session S] [--unattended] [--no-wait] MESSAGE
                                       send the agent a message and wait for the turn to end
                                       (--unattended: every call that would ask is denied)
  stop SESSION                         stop the session's running turn
  sessions                             the agent's sessions
  transcript SESSION                   a session's conversation
  questions                            questions the agent is waiting on (ask_user)
  answer ID TEXT                       answer a question
  dismiss ID                           dismiss a question (the agent uses its best judgment)`;

/** Exit codes (docs/approvals.md): stable, extended only by adding. */
export const EXIT = { ok: 0, failed: 1, usage: 2, notRunning: 3, busy: 4 } as const;

/** Refusals that mean "running, but no place for you now": nothing was done, trying again later works. */
const BUSY: ReadonlySet<string> = new Set(['too_many_connections', 'too_many_waiting']);

export async function ctlCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      limit: { type: 'string' },
      session: { type: 'string' },
      outcome: { type: 'string' },
      hash: { type: 'string' },
      note: { type: 'string' },
      duration: { type: 'string' },
      pattern: { type: 'string' },
      all: { type: 'boolean' },
      tool: { type: 'string' },
      args: { type: 'string' },
      unattended: { type: 'boolean' },
      'no-wait': { type: 'boolean' },
      execute: { type: 'boolean' },
      state: { type: 'string' },
      class: { type: 'string' },
      'decided-by': { type: 'string' },
      text: { type: 'string' },
      cursor: { type: 'string' },
      jsonl: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  const [command, ...rest] = positionals;
  if (!command) throw new UsageError(USAGE);
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  const path = socketPath(dataDir);
  // Everything printed passes the one escaping rule: a command, a reason or a title from the model
  // cannot move the cursor, reorder a line or hide a part in the terminal. JSON keeps its values
  // (hidden characters become \uXXXX escapes, which JSON.parse reads back as they were).
  const out = (human: string, data: unknown) => io.stdout.write(values.json ? visibleJson(data, 2) + '\n' : printable(human.endsWith('\n') ? human : human + '\n'));

  const plan = planCall(command, rest, values);
  const refused = (err: RemoteError) => {
    const code = err.error.data?.code;
    io.stderr.write(printable(`threshold ctl: ${err.message}${code ? ` (${code})` : ''}\n`));
    return code && BUSY.has(code) ? EXIT.busy : EXIT.failed;
  };
  // A connection the daemon refused as a whole (too many connections: the flood's budgets, never a
  // request it took) is tried again a few times, as its sentence says, while nothing was printed yet.
  for (let attempt = 0; ; attempt++) {
    const written = { any: false };
    const code = await ctlOnce(path, dataDir, command, plan, values, io, out, refused, written, attempt < CONNECTION_RETRIES);
    if (code !== RETRY) return code;
    await new Promise((r) => setTimeout(r, 100 * 2 ** attempt + Math.floor(Math.random() * 50)));
  }
}

/** How often a refused connection is tried again (after 0.1, 0.2, 0.4 s), and the marker for "again". */
const CONNECTION_RETRIES = 3;
const RETRY = -1;

/** The daemon refused the connection itself by its limits (not one request): nothing of it ran. */
function connectionRefused(err: unknown): boolean {
  return err instanceof ControlRefused && err.code === 'too_many_connections';
}

async function ctlOnce(
  path: string,
  dataDir: string,
  command: string,
  plan: ReturnType<typeof planCall>,
  values: Values,
  io: { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown } },
  out0: (human: string, data: unknown) => unknown,
  refused: (err: RemoteError) => number,
  written: { any: boolean },
  mayRetry: boolean,
): Promise<number> {
  const out = (human: string, data: unknown) => {
    written.any = true;
    return out0(human, data);
  };
  let client: ControlClient;
  try {
    client = await ControlClient.connect(path);
  } catch (err) {
    if (mayRetry && connectionRefused(err)) return RETRY;
    if (err instanceof ControlRefused) return refused(err);
    if (err instanceof ControlUnavailable) {
      io.stderr.write(printable(`threshold ctl: Threshold is not running for ${dataDir} (${err.message}).\n  Start it with: threshold serve --data-dir ${dataDir}\n`));
      return 3;
    }
    throw err;
  }
  try {
    if (command === 'decide' && !plan.params['hash']) {
      // Without --hash, decide on the content the pending list shows for this id.
      const pending = await client.call<PendingApproval[]>('approval.list_pending');
      // An id that is not pending gets the daemon's own answer (already decided, or not found).
      plan.params['hash'] = pending.find((x) => x.id === plan.params['id'])?.hash ?? '0'.repeat(64);
    }
    if (command === 'calls' && values.jsonl) {
      // Export: every page, by cursor, one call a line (what the History screen's export writes too).
      let cursor: string | undefined;
      for (;;) {
        const page = await client.call<CallPage>('call.list', { ...plan.params, limit: 500, ...(cursor ? { cursor } : {}) });
        for (const c of page.calls) {
          written.any = true;
          io.stdout.write(visibleJson(c) + '\n');
        }
        if (!page.next_cursor) return 0;
        cursor = page.next_cursor;
      }
    }
    const result = await client.call(plan.method, plan.params);
    out(plan.render(result), result);
    if (command === 'verify' && !(result as { ok: boolean }).ok) return 1;
    if (command === 'run' && ['provider_error', 'crashed'].includes(String((result as { reason?: string }).reason))) return 1;
    return 0;
  } catch (err) {
    if (mayRetry && !written.any && connectionRefused(err)) return RETRY;
    // The daemon's own sentence, refusals by its limits included (exit 4: busy, not "not running").
    if (err instanceof RemoteError) return refused(err);
    if (err instanceof ControlUnavailable) {
      io.stderr.write(`threshold ctl: ${err.message}\n`);
      return 3;
    }
    throw err;
  } finally {
    client.close();
  }
}

type CallDetail = ResultOf<'call.get'>;

type Values = Record<string, string | boolean | undefined>;

/** The options every listing shares: --limit (1-500) and --session. */
function listParams(v: Values): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (v['limit'] !== undefined) {
    const n = Number(v['limit']);
    if (!Number.isInteger(n) || n < 1 || n > 500) throw new UsageError('--limit must be a whole number from 1 to 500.');
    params['limit'] = n;
  }
  if (v['session']) params['session_id'] = v['session'];
  return params;
}

function planCall(command: string, rest: string[], v: Values): { method: OperationName; params: Record<string, unknown>; render: (r: unknown) => string } {
  const noArgs = (n: number) => {
    if (rest.length !== n) throw new UsageError(USAGE);
  };
  switch (command) {
    case 'pending':
      noArgs(0);
      return { method: 'approval.list_pending', params: {}, render: (r) => renderPending(r as PendingApproval[]) };
    case 'history': {
      noArgs(0);
      const params = listParams(v);
      if (v['outcome']) params['outcome'] = v['outcome'];
      return { method: 'approval.list_decisions', params, render: (r) => renderHistory(r as DecisionRecord[]) };
    }
    case 'calls': {
      noArgs(0);
      const params = listParams(v);
      if (v['state']) params['state'] = String(v['state']).split(',').map((x) => x.trim()).filter(Boolean);
      if (v['tool']) params['tool'] = v['tool'];
      if (v['class']) params['class'] = v['class'];
      if (v['decided-by']) params['decided_by'] = v['decided-by'];
      if (v['text']) params['text'] = v['text'];
      if (v['cursor']) params['cursor'] = v['cursor'];
      return { method: 'call.list', params, render: (r) => renderCalls(r as CallPage) };
    }
    case 'call':
      noArgs(1);
      return { method: 'call.get', params: { id: rest[0] }, render: (r) => renderCall(r as CallDetail) };
    case 'decide': {
      noArgs(2);
      const params: Record<string, unknown> = { id: rest[0], outcome: rest[1] };
      if (v['hash']) params['hash'] = v['hash'];
      if (v['note']) params['note'] = v['note'];
      if (v['duration'] || v['pattern']) {
        let patterns: unknown;
        if (v['pattern']) {
          try {
            patterns = JSON.parse(String(v['pattern']));
          } catch {
            throw new UsageError('--pattern must be JSON, e.g. \'{"kind":"argv","argv":["git","status"]}\'.');
          }
        }
        params['grant'] = { ...(v['duration'] ? { duration: v['duration'] } : {}), ...(patterns ? { patterns: Array.isArray(patterns) ? patterns : [patterns] } : {}) };
      }
      return { method: 'approval.decide', params, render: (r) => `${one((r as DecisionRecord).id)}: ${(r as DecisionRecord).outcome}` };
    }
    case 'grants':
      noArgs(0);
      return { method: 'grant.list', params: v['all'] ? { include_inactive: true } : {}, render: (r) => renderGrants(r as GrantRecord[]) };
    case 'web':
      noArgs(0);
      // The address carries the token, like the line serve printed: for the person who runs ctl, on this computer.
      return { method: 'app.get_web_address', params: {}, render: (r) => (r as { url: string }).url };
    case 'approve-all':
      if (rest.length === 0)
        return {
          method: 'approve_all.list',
          params: {},
          render: (r) => {
            const list = r as ResultOf<'approve_all.list'>;
            return list.length ? table([['SESSION', 'SINCE', 'APPROVED', 'BEGAN ON', 'TITLE'], ...list.map((x) => [x.session_id, when(x.since), String(x.uses), x.call ? short(`${x.call.tool} ${JSON.stringify(x.call.args)}`, 60) : '-', short(x.session_title ?? '', 50)])]) : 'No session is in approve-all mode.';
          },
        };
      if (rest.length !== 2 || rest[0] !== 'end') throw new UsageError('usage: threshold ctl approve-all [end SESSION]');
      return { method: 'approve_all.end', params: { session_id: rest[1] }, render: () => `approve-all ended in ${rest[1]}: its next ask waits for a person again` };
    case 'revoke':
      noArgs(1);
      return { method: 'grant.revoke', params: { id: rest[0] }, render: (r) => `revoked ${(r as GrantRecord).id}` };
    case 'verify':
      noArgs(0);
      return {
        method: 'audit.verify',
        params: {},
        render: (r) => {
          const x = r as { ok: boolean; entries: number; broken_at?: number; reason?: string; head?: string; checkpoints?: number };
          return x.ok ? `audit history verified: ${x.entries} entries${x.checkpoints ? `, ${x.checkpoints} retention checkpoint(s)` : ''}; head ${x.head?.slice(0, 16)}…` : `AUDIT HISTORY BROKEN at entry ${x.broken_at}: ${x.reason}`;
        },
      };
    case 'level':
      if (rest.length > 1) throw new UsageError(USAGE);
      return rest.length
        ? { method: 'settings.set_level', params: { level: rest[0] }, render: (r) => `level: ${(r as { level: string }).level}` }
        : { method: 'settings.get', params: {}, render: (r) => `level: ${(r as { level: string }).level}` };
    case 'sandbox':
      noArgs(0);
      return {
        method: 'sandbox.list_offers',
        params: {},
        render: (r) => {
          const list = r as { id: string; path: string; access: string; attempted: string }[];
          return list.length ? table([['ID', 'ALLOW', 'PATH', 'TRIED'], ...list.map((o) => [o.id, o.access, o.path, o.attempted])]) : 'No sandbox requests.';
        },
      };
    case 'consent':
      noArgs(2);
      return { method: 'sandbox.consent', params: { id: rest[0], choice: rest[1] }, render: (r) => `${(r as { path: string }).path}: ${rest[1]}` };
    case 'request': {
      noArgs(0);
      if (!v['tool'] || !v['args']) throw new UsageError('ctl request needs --tool and --args JSON.');
      let args: unknown;
      try {
        args = JSON.parse(String(v['args']));
      } catch {
        throw new UsageError('--args must be a JSON object.');
      }
      const params: Record<string, unknown> = { tool: v['tool'], args };
      if (v['session']) params['session_id'] = v['session'];
      if (v['unattended']) params['unattended'] = true;
      if (v['no-wait']) params['wait'] = false;
      if (v['execute']) params['execute'] = true;
      return { method: 'approval.request', params, render: (r) => visibleJson(r) };
    }
    case 'run': {
      if (rest.length === 0) throw new UsageError('ctl run needs a MESSAGE.');
      const params: Record<string, unknown> = { message: rest.join(' ') };
      if (v['session']) params['session_id'] = v['session'];
      if (v['unattended']) params['unattended'] = true;
      if (v['no-wait']) params['wait'] = false;
      return { method: 'agent.send', params, render: (r) => renderRun(r as RunResult) };
    }
    case 'stop':
      noArgs(1);
      return { method: 'agent.stop', params: { session_id: rest[0] }, render: (r) => ((r as { stopped: boolean }).stopped ? `stopped ${rest[0]}` : `no turn is running in ${rest[0]}`) };
    case 'sessions':
      noArgs(0);
      return {
        method: 'agent.list_sessions',
        params: {},
        render: (r) => {
          const list = r as { id: string; title: string | null; updated_at?: number | null; created_at: number; running: boolean }[];
          return list.length ? table([['ID', 'STATE', 'UPDATED', 'TITLE'], ...list.map((x) => [x.id, x.running ? 'running' : 'idle', when(x.updated_at ?? x.created_at), short(x.title ?? '', 70)])]) : 'No sessions.';
        },
      };
    case 'transcript':
      noArgs(1);
      return { method: 'agent.get_transcript', params: { session_id: rest[0] }, render: (r) => renderTranscript(r as TranscriptEntry[]) };
    case 'questions':
      noArgs(0);
      return {
        method: 'question.list',
        params: {},
        render: (r) => {
          const list = r as { id: string; session_id: string; question: string; expires_at: number }[];
          return list.length ? table([['ID', 'SESSION', 'EXPIRES', 'QUESTION'], ...list.map((q) => [q.id, q.session_id, when(q.expires_at), short(q.question, 90)])]) : 'No open questions.';
        },
      };
    case 'answer':
      if (rest.length < 2) throw new UsageError('usage: threshold ctl answer ID TEXT');
      return { method: 'question.answer', params: { id: rest[0], answer: rest.slice(1).join(' ') }, render: () => `answered ${rest[0]}` };
    case 'dismiss':
      noArgs(1);
      return { method: 'question.dismiss', params: { id: rest[0] }, render: () => `dismissed ${rest[0]}` };
    default:
      throw new UsageError(`unknown ctl command "${command}".\n${USAGE}`);
  }
}

/** A whole printout: newlines are its lines; everything else hidden shows as an escape. */
function printable(text: string): string {
  return visibleText(text);
}

/** One value on one line (a table cell, a field): newlines and every hidden character as escapes. */
function one(s: string): string {
  return visibleText(s, { oneLine: true });
}

function table(rows: string[][]): string {
  if (rows.length <= 1) return '';
  rows = rows.map((r) => r.map(one));
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd()).join('\n');
}

function short(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? one.slice(0, n - 1) + '…' : one;
}

function when(ms: number | null): string {
  if (ms === null) return 'never';
  const d = Math.round((ms - Date.now()) / 1000);
  return d >= 0 ? `in ${d}s` : `${-d}s ago`;
}

function renderPending(list: PendingApproval[]): string {
  if (list.length === 0) return 'No approvals are pending.';
  return table([
    ['ID', 'TOOL', 'CLASS', 'HASH', 'EXPIRES', 'STATE', 'ASKED BY', 'REASON'],
    ...list.map((p) => [p.id, p.tool, p.class, p.hash.slice(0, 12), when(p.expires_at), p.orphan ? 'orphan' : 'waiting', askedBy(p), short(p.reason, 90)]),
  ]);
}

/** Who asked and where: "Claude Code (session claude-code-b805…) in ~/project/src"; Threshold's own agent as "agent". */
function askedBy(p: PendingApproval): string {
  const who = p.origin?.kind === 'external' ? `${short(p.origin.name, 40)} (session ${short(p.session_id, 24)})` : p.origin?.kind === 'control' ? 'ctl' : 'agent';
  return p.cwd && p.origin?.kind === 'external' ? `${who} in ${short(p.cwd, 60)}` : who;
}

function renderHistory(list: DecisionRecord[]): string {
  if (list.length === 0) return 'No decisions yet.';
  return table([
    ['ID', 'OUTCOME', 'BY', 'TOOL', 'CLASS', 'EXECUTION', 'WHAT'],
    ...list.map((d) => [
      d.id,
      d.outcome,
      d.decided_by,
      d.tool,
      d.class,
      d.execution ? `${d.execution.status}${d.execution.exit_code !== null ? ` (${d.execution.exit_code})` : ''}` : d.follow_up === 'awaiting' ? 'awaiting follow-up' : '-',
      short(typeof (d.args as { command?: unknown })?.command === 'string' ? String((d.args as { command: string }).command) : JSON.stringify(d.args), 60),
    ]),
  ]);
}

function renderCalls(page: CallPage): string {
  if (page.calls.length === 0) return 'No calls.';
  const lines = table([
    ['ID', 'WHEN', 'TOOL', 'CLASS', 'BY', 'OUTCOME', 'TOOK', 'WHAT'],
    ...page.calls.map((c) => [c.id, when(c.created_at), c.tool, c.class ?? '-', c.decided_by ?? '-', outcomeText(c), c.execution?.duration_ms != null ? `${c.execution.duration_ms} ms` : '-', short(c.summary, 60)]),
  ]);
  return page.next_cursor ? `${lines}\nmore: --cursor ${page.next_cursor}` : lines;
}

function outcomeText(c: CallRecord): string {
  const code = c.execution?.exit_code;
  return code !== null && code !== undefined && c.state !== 'succeeded' ? `${c.state} (${code})` : c.state;
}

function renderCall(c: CallDetail): string {
  const lines = [
    `call ${c.id}  ${one(c.tool)}  ${c.class ?? '-'}  ${outcomeText(c)}`,
    `decided by: ${one(c.decided_by ?? '-')} (policy said ${c.decision ?? '-'})`,
    `session: ${one(c.session_id)}${c.turn_id ? `, turn ${one(c.turn_id)}` : ''}; at ${new Date(c.created_at).toISOString()}${c.cwd ? ` in ${one(c.cwd)}` : ''}`,
    `arguments: ${visibleJson(c.args)}`,
    `why: ${one(c.explanation ?? '-')}`,
  ];
  if (c.asked) lines.push(`asked: approval ${c.asked.id} → ${c.asked.outcome ?? 'pending'}${c.asked.decided_by ? ` by ${one(c.asked.decided_by)}` : ''}${c.asked.note ? `; note: ${one(c.asked.note)}` : ''}`);
  if (c.execution) lines.push(`ran: ${c.execution.status}${c.execution.exit_code !== null ? `, exit ${c.execution.exit_code}` : ''}${c.execution.duration_ms !== null ? `, ${c.execution.duration_ms} ms` : ''}${c.execution.error ? `: ${short(c.execution.error, 200)}` : ''}`);
  if (c.checkpoint) lines.push(`checkpoint: ${c.checkpoint.id}${c.checkpoint.restored_at ? ' (restored)' : ''}; undo with: threshold checkpoints restore ${c.checkpoint.id}`);
  lines.push(`audit: ${c.audit.map((e) => `#${e.seq} ${e.kind}`).join(', ') || '-'}`);
  return lines.join('\n');
}

interface RunResult {
  session_id: string;
  turn_id: string;
  appended: boolean;
  reason?: string;
  steps?: number;
  text?: string;
  error?: string | null;
}

function renderRun(r: RunResult): string {
  if (r.appended) return `added to the turn running in session ${one(r.session_id)}`;
  if (r.reason === undefined) return `started turn ${one(r.turn_id)} in session ${one(r.session_id)}`;
  const tail = `[session ${one(r.session_id)}, turn ${one(r.turn_id)}: ${r.reason} after ${r.steps} step(s)]`;
  return [r.text, r.error && r.error !== r.text ? r.error : '', tail].filter(Boolean).join('\n');
}

/** One line per message part: what was said, which tool was called with what, and what came back. */
function renderTranscript(rows: TranscriptEntry[]): string {
  if (rows.length === 0) return 'The session is empty.';
  const lines: string[] = [];
  for (const row of rows) {
    const content = (row.content as { content?: unknown; text?: string }) ?? {};
    if (row.role === 'note') {
      lines.push(`[threshold] ${one(content.text ?? '')}`);
      continue;
    }
    const parts = typeof content.content === 'string' ? [{ type: 'text', text: content.content }] : Array.isArray(content.content) ? (content.content as Record<string, unknown>[]) : [];
    for (const p of parts) {
      if (p['type'] === 'text' && p['text']) lines.push(`${row.origin === 'threshold' ? 'threshold (to the model)' : row.role}: ${String(p['text'])}`);
      else if (p['type'] === 'tool-call') lines.push(`${row.role}: → ${one(String(p['toolName']))} ${short(JSON.stringify(p['input']), 120)}`);
      else if (p['type'] === 'tool-result') {
        const out = p['output'] as { type?: string; value?: unknown } | undefined;
        lines.push(`${row.role}: ← ${one(String(p['toolName']))}${out?.type === 'error-text' ? ' (error)' : ''}: ${short(typeof out?.value === 'string' ? out.value : JSON.stringify(out?.value), 160)}`);
      }
    }
  }
  return lines.join('\n');
}

function renderGrants(list: GrantRecord[]): string {
  if (list.length === 0) return 'No grants.';
  const pattern = (g: GrantRecord) => (g.pattern.kind === 'tool' ? '(any call)' : g.pattern.kind === 'url' ? g.pattern.prefix : patternText(g.pattern)) + (g.not_in_force ? ' [not in force: wider than it looks]' : '');
  return table([
    ['ID', 'TOOL', 'PATTERN', 'SCOPE', 'USED', 'SOURCE', 'STATE'],
    ...list.map((g) => [g.id, g.tool, short(pattern(g), 50), g.scope === 'until' ? `until ${new Date(g.expires_at ?? 0).toISOString()}` : g.scope, String(g.use_count), g.source, g.revoked_at ? 'revoked' : g.expires_at !== null && g.expires_at < Date.now() ? 'expired' : 'active']),
  ]);
}
