// A dependency-free fake of the model providers' wire protocols for tests: Anthropic /v1/messages and
// OpenAI /v1/chat/completions, JSON and SSE, scripted step by step. It records every request and, like
// the real services, rejects a history in which a tool call has no result.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedCall {
  id?: string;
  name: string;
  /** An object (serialised) or a raw string (sent as is, for malformed arguments). */
  args: unknown;
}

export interface Step {
  text?: string;
  toolCalls?: ScriptedCall[];
  refusal?: string;
  /** Overrides the finish/stop reason (e.g. 'stop' with tool calls, as Ollama sends). */
  finishReason?: string;
  /** Split each call's arguments into this many deltas. */
  argsChunks?: number;
  /** Send each tool call whole in one chunk (Ollama style). */
  wholeCallInOneChunk?: boolean;
  chunkDelayMs?: number;
  /** Answer with an HTTP error instead. */
  http?: { status: number; body?: unknown };
  /** Stream some content, then an error event. */
  midStreamError?: string;
  /** Close the connection after this many SSE chunks. */
  dropAfterChunks?: number;
  /** Never answer. */
  hang?: boolean;
  /**
   * Answer a structured-output request (the reviewer's generateObject) with this value: as the `json`
   * tool's input where the request offers one (Anthropic's tool mode), else as the message's JSON text. A
   * string is sent as the text itself (prose, malformed JSON).
   */
  object?: unknown;
}

/** Whether a request asks for structured output (the reviewer's call), in either protocol. */
export function isStructuredRequest(req: RecordedRequest): boolean {
  const b = req.body;
  return b['response_format'] !== undefined || b['output_format'] !== undefined || (Array.isArray(b['tools']) && (b['tools'] as { name?: string }[]).some((t) => t.name === 'json'));
}

/** The text of a request's last user message (the reviewer's packet), in either protocol. */
export function lastUserText(req: RecordedRequest): string {
  const messages = (req.body['messages'] as { role: string; content: unknown }[]) ?? [];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text ?? '').join('');
}

export interface RecordedRequest {
  protocol: 'anthropic' | 'openai';
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

type Protocol = RecordedRequest['protocol'];

export class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  private readonly script: Step[] = [];
  private readonly sockets = new Set<Socket>();
  private counter = 0;
  /** performance.now() when the last streamed response was fully written (for latency benchmarks). */
  lastStreamEndedAt = 0;
  /** Answers a request by its content before the script is consulted (concurrent sessions, the soak). */
  responder: ((req: RecordedRequest) => Step | undefined) | null = null;
  /** Served when the script is empty (so a runaway loop ends instead of hanging). */
  fallback: Step = { text: 'The script for this test has no more steps.' };

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeProvider> {
    const holder: { fake?: FakeProvider } = {};
    const server = createServer((req, res) => void holder.fake!.handle(req, res));
    const fake = (holder.fake = new FakeProvider(server));
    server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  enqueue(...steps: Step[]): this {
    this.script.push(...steps);
    return this;
  }

  /** Drops the steps not served yet. */
  clear(): void {
    this.script.length = 0;
  }

  get remaining(): number {
    return this.script.length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method === 'GET' && path.endsWith('/models')) return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] });
    const protocol: Protocol | null = path.endsWith('/v1/messages') ? 'anthropic' : path.endsWith('/chat/completions') ? 'openai' : null;
    if (req.method !== 'POST' || !protocol) return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await read(req)) as Record<string, unknown>;
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON body' } });
    }
    const recorded: RecordedRequest = { protocol, path, headers: req.headers, body };
    this.requests.push(recorded);
    const pairing = protocol === 'anthropic' ? checkAnthropicPairing(body) : checkOpenAIPairing(body);
    if (pairing) {
      return protocol === 'anthropic'
        ? json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: pairing } })
        : json(res, 400, { error: { message: pairing, type: 'invalid_request_error', param: 'messages', code: null } });
    }
    let step = this.responder?.(recorded) ?? this.script.shift() ?? this.fallback;
    if (step.hang) return;
    if (step.http) return json(res, step.http.status, step.http.body ?? defaultError(protocol, step.http.status));
    if (step.object !== undefined) {
      const raw = typeof step.object === 'string' ? step.object : JSON.stringify(step.object);
      const jsonTool = protocol === 'anthropic' && Array.isArray(body['tools']) && (body['tools'] as { name?: string }[]).some((t) => t.name === 'json');
      step = jsonTool && typeof step.object !== 'string' ? { ...step, toolCalls: [{ name: 'json', args: step.object }] } : { ...step, text: raw };
    }
    const calls = (step.toolCalls ?? []).map((c) => ({ id: c.id ?? `${protocol === 'anthropic' ? 'toolu' : 'call'}_${++this.counter}`, name: c.name, raw: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) }));
    const stream = body['stream'] === true;
    if (protocol === 'anthropic') return stream ? this.anthropicStream(res, step, calls) : json(res, 200, anthropicMessage(step, calls));
    return stream ? this.openaiStream(res, step, calls) : json(res, 200, openaiCompletion(step, calls));
  }

  private async sse(res: ServerResponse, step: Step, events: string[]): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let sent = 0;
    for (const e of events) {
      if (step.dropAfterChunks !== undefined && sent >= step.dropAfterChunks) {
        res.socket?.destroy();
        return;
      }
      res.write(e);
      sent++;
      if (step.chunkDelayMs) await new Promise((r) => setTimeout(r, step.chunkDelayMs));
    }
    res.end();
    this.lastStreamEndedAt = performance.now();
  }

  private anthropicStream(res: ServerResponse, step: Step, calls: { id: string; name: string; raw: string }[]): Promise<void> {
    const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    const out: string[] = [ev('message_start', { type: 'message_start', message: { id: `msg_${++this.counter}`, type: 'message', role: 'assistant', model: 'fake-model', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } })];
    let index = 0;
    if (step.text) {
      out.push(ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const piece of pieces(step.text, 3)) out.push(ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
      out.push(ev('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    }
    if (step.midStreamError) {
      out.push(ev('error', { type: 'error', error: { type: step.midStreamError, message: 'Overloaded' } }));
      return this.sse(res, step, out);
    }
    for (const c of calls) {
      out.push(ev('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }));
      for (const piece of step.wholeCallInOneChunk ? [c.raw] : pieces(c.raw, step.argsChunks ?? 2)) out.push(ev('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      out.push(ev('content_block_stop', { type: 'content_block_stop', index }));
      index++;
    }
    const stop = step.finishReason ?? (step.refusal ? 'refusal' : calls.length ? 'tool_use' : 'end_turn');
    out.push(ev('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }));
    out.push(ev('message_stop', { type: 'message_stop' }));
    return this.sse(res, step, out);
  }

  private openaiStream(res: ServerResponse, step: Step, calls: { id: string; name: string; raw: string }[]): Promise<void> {
    const id = `chatcmpl-${++this.counter}`;
    const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fake-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const out: string[] = [chunk({ role: 'assistant', content: '' })];
    if (step.text) for (const piece of pieces(step.text, 3)) out.push(chunk({ content: piece }));
    if (step.refusal) out.push(chunk({ refusal: step.refusal }));
    if (step.midStreamError) {
      out.push(`data: ${JSON.stringify({ error: { message: 'The server had an error', type: step.midStreamError } })}\n\n`);
      return this.sse(res, step, out);
    }
    calls.forEach((c, i) => {
      if (step.wholeCallInOneChunk) {
        out.push(chunk({ tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.name, arguments: c.raw } }] }));
        return;
      }
      out.push(chunk({ tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
      for (const piece of pieces(c.raw, step.argsChunks ?? 2)) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
    });
    out.push(chunk({}, step.finishReason ?? (calls.length ? 'tool_calls' : 'stop')));
    out.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fake-model', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
    out.push('data: [DONE]\n\n');
    return this.sse(res, step, out);
  }
}

function pieces(s: string, n: number): string[] {
  if (n <= 1 || s.length < n) return [s];
  const size = Math.ceil(s.length / n);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function anthropicMessage(step: Step, calls: { id: string; name: string; raw: string }[]) {
  const content: unknown[] = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  for (const c of calls) {
    let input: unknown;
    try {
      input = JSON.parse(c.raw);
    } catch {
      input = c.raw;
    }
    content.push({ type: 'tool_use', id: c.id, name: c.name, input });
  }
  return { id: 'msg_fake', type: 'message', role: 'assistant', model: 'fake-model', content, stop_reason: step.finishReason ?? (step.refusal ? 'refusal' : calls.length ? 'tool_use' : 'end_turn'), stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } };
}

function openaiCompletion(step: Step, calls: { id: string; name: string; raw: string }[]) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        finish_reason: step.finishReason ?? (calls.length ? 'tool_calls' : 'stop'),
        message: { role: 'assistant', content: step.text ?? null, ...(step.refusal ? { refusal: step.refusal } : {}), ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.raw } })) } : {}) },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** Anthropic: every tool_use must be answered by a tool_result at the start of the next user message. */
function checkAnthropicPairing(body: Record<string, unknown>): string | null {
  const messages = (body['messages'] as { role: string; content: unknown }[]) ?? [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    const ids = (m.content as { type: string; id?: string }[]).filter((b) => b.type === 'tool_use').map((b) => b.id!);
    if (!ids.length) continue;
    const next = messages[i + 1];
    const results = new Set(Array.isArray(next?.content) ? (next!.content as { type: string; tool_use_id?: string }[]).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
    const missing = ids.filter((id) => !results.has(id));
    if (next?.role !== 'user' || missing.length) return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}. Each tool_use block must have a corresponding tool_result block in the next message.`;
  }
  return null;
}

/** OpenAI: an assistant message with tool_calls must be followed by a tool message for each id. */
function checkOpenAIPairing(body: Record<string, unknown>): string | null {
  const messages = (body['messages'] as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[]) ?? [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++) answered.add(messages[j]!.tool_call_id!);
    const missing = m.tool_calls.filter((c) => !answered.has(c.id)).map((c) => c.id);
    if (missing.length) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`;
  }
  return null;
}

function defaultError(protocol: Protocol, status: number) {
  const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
  return protocol === 'anthropic' ? { type: 'error', error: { type, message: `fake ${status}` } } : { error: { message: `fake ${status}`, type, param: null, code: null } };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (s += c));
    req.on('end', () => resolve(s));
    req.on('error', reject);
  });
}
