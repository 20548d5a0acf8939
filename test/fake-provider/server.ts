// A dependency-free fake of the model providers' wire protocols for tests: Anthropic /v1/messages,
// OpenAI /v1/chat/completions and /v1/responses (the Responses API, which Codex speaks), and Google's
// Gemini API (:generateContent and :streamGenerateContent, which Gemini CLI speaks), JSON and SSE,
// scripted step by step. It records every request and, like the real services, rejects a history in
// which a tool call has no result.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedCall {
  id?: string;
  name: string;
  /** Responses API: the namespace of a namespaced tool (Codex's MCP servers are `mcp__<server>`). */
  namespace?: string;
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
  protocol: 'anthropic' | 'openai' | 'responses' | 'gemini';
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
    const protocol: Protocol | null = path.endsWith('/v1/messages')
      ? 'anthropic'
      : path.endsWith('/chat/completions')
        ? 'openai'
        : path.endsWith('/responses')
          ? 'responses'
          : /:(stream)?[gG]enerateContent$/.test(path)
            ? 'gemini'
            : null;
    if (req.method !== 'POST' || !protocol) return json(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await read(req)) as Record<string, unknown>;
    } catch {
      return json(res, 400, { error: { message: 'invalid JSON body' } });
    }
    const recorded: RecordedRequest = { protocol, path, headers: req.headers, body };
    this.requests.push(recorded);
    const pairing = PAIRING[protocol](body);
    if (pairing) {
      if (protocol === 'anthropic') return json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: pairing } });
      if (protocol === 'gemini') return json(res, 400, { error: { code: 400, message: pairing, status: 'INVALID_ARGUMENT' } });
      return json(res, 400, { error: { message: pairing, type: 'invalid_request_error', param: protocol === 'responses' ? 'input' : 'messages', code: null } });
    }
    let step = this.responder?.(recorded) ?? this.script.shift() ?? this.fallback;
    if (step.hang) return;
    if (step.http) return json(res, step.http.status, step.http.body ?? defaultError(protocol, step.http.status));
    if (step.object !== undefined) {
      const raw = typeof step.object === 'string' ? step.object : JSON.stringify(step.object);
      const jsonTool = protocol === 'anthropic' && Array.isArray(body['tools']) && (body['tools'] as { name?: string }[]).some((t) => t.name === 'json');
      step = jsonTool && typeof step.object !== 'string' ? { ...step, toolCalls: [{ name: 'json', args: step.object }] } : { ...step, text: raw };
    }
    const calls = (step.toolCalls ?? []).map((c) => ({ id: c.id ?? `${protocol === 'anthropic' ? 'toolu' : 'call'}_${++this.counter}`, name: c.name, raw: typeof c.args === 'string' ? c.args : JSON.stringify(c.args), ...(c.namespace ? { namespace: c.namespace } : {}) }));
    const stream = body['stream'] === true;
    if (protocol === 'anthropic') return stream ? this.anthropicStream(res, step, calls) : json(res, 200, anthropicMessage(step, calls));
    if (protocol === 'responses') return stream ? this.responsesStream(res, step, calls) : json(res, 200, responsesObject(`resp_${++this.counter}`, step, calls));
    if (protocol === 'gemini') return path.includes(':stream') ? this.geminiStream(res, step, calls) : json(res, 200, geminiResponse(step, calls));
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

  /** The Responses API's stream: the response's life as typed events, each output item added, streamed and done. */
  private responsesStream(res: ServerResponse, step: Step, calls: { id: string; name: string; raw: string }[]): Promise<void> {
    const id = `resp_${++this.counter}`;
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
    const shell = { ...responsesObject(id, step, calls), status: 'in_progress', output: [], usage: null };
    const out: string[] = [ev('response.created', { response: shell }), ev('response.in_progress', { response: shell })];
    const items = responsesItems(step, calls);
    items.forEach((item, index) => {
      if (item['type'] === 'message') {
        const text = step.text ?? '';
        out.push(ev('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } }));
        out.push(ev('response.content_part.added', { item_id: item['id'], output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }));
        for (const piece of pieces(text, 3)) out.push(ev('response.output_text.delta', { item_id: item['id'], output_index: index, content_index: 0, delta: piece }));
        out.push(ev('response.output_text.done', { item_id: item['id'], output_index: index, content_index: 0, text }));
        out.push(ev('response.content_part.done', { item_id: item['id'], output_index: index, content_index: 0, part: { type: 'output_text', text, annotations: [] } }));
      } else {
        out.push(ev('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } }));
        const raw = String(item['arguments']);
        for (const piece of step.wholeCallInOneChunk ? [raw] : pieces(raw, step.argsChunks ?? 2)) out.push(ev('response.function_call_arguments.delta', { item_id: item['id'], output_index: index, delta: piece }));
        out.push(ev('response.function_call_arguments.done', { item_id: item['id'], output_index: index, arguments: raw }));
      }
      out.push(ev('response.output_item.done', { output_index: index, item }));
    });
    if (step.midStreamError) {
      out.push(ev('response.failed', { response: { ...shell, status: 'failed', error: { code: step.midStreamError, message: 'The server had an error' } } }));
      return this.sse(res, step, out);
    }
    out.push(ev('response.completed', { response: responsesObject(id, step, calls) }));
    return this.sse(res, step, out);
  }

  /** Gemini's stream (alt=sse): one GenerateContentResponse a chunk, text in pieces, each function call whole. */
  private geminiStream(res: ServerResponse, step: Step, calls: { id: string; name: string; raw: string }[]): Promise<void> {
    const out: string[] = [];
    const chunk = (parts: unknown[], finish: string | null) => `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'fake-model', responseId: `gem_${this.counter}` })}\r\n\r\n`;
    const textPieces = step.text ? pieces(step.text, 3) : [];
    textPieces.forEach((piece, i) => out.push(chunk([{ text: piece }], i === textPieces.length - 1 && !calls.length ? 'STOP' : null)));
    if (step.midStreamError) {
      out.push(`data: ${JSON.stringify({ error: { code: 500, message: 'The server had an error', status: step.midStreamError } })}\r\n\r\n`);
      return this.sse(res, step, out);
    }
    if (calls.length) out.push(chunk(calls.map((c) => ({ functionCall: { name: c.name, args: parseArgs(c.raw) } })), step.finishReason ?? 'STOP'));
    if (!out.length) out.push(chunk([{ text: '' }], step.finishReason ?? 'STOP'));
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

function parseArgs(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** A Responses API output: a message item for the text, a function_call item for each call. */
function responsesItems(step: Step, calls: { id: string; name: string; raw: string; namespace?: string }[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (step.text !== undefined || !calls.length) items.push({ type: 'message', id: `msg_${calls.length}_${(step.text ?? '').length}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: step.text ?? '', annotations: [] }] });
  for (const c of calls) items.push({ type: 'function_call', id: `fc_${c.id}`, call_id: c.id, name: c.name, ...(c.namespace ? { namespace: c.namespace } : {}), arguments: c.raw, status: 'completed' });
  return items;
}

function responsesObject(id: string, step: Step, calls: { id: string; name: string; raw: string }[]) {
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'fake-model',
    output: responsesItems(step, calls),
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
  };
}

function geminiResponse(step: Step, calls: { id: string; name: string; raw: string }[]) {
  const parts: unknown[] = [];
  if (step.text) parts.push({ text: step.text });
  for (const c of calls) parts.push({ functionCall: { name: c.name, args: parseArgs(c.raw) } });
  return { candidates: [{ content: { role: 'model', parts }, finishReason: step.finishReason ?? 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'fake-model' };
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

/** Responses API: every function_call in the input must be answered by a function_call_output with its call_id. */
function checkResponsesPairing(body: Record<string, unknown>): string | null {
  const input = Array.isArray(body['input']) ? (body['input'] as { type?: string; call_id?: string }[]) : [];
  const answered = new Set(input.filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').map((i) => i.call_id));
  const missing = input.filter((i) => (i.type === 'function_call' || i.type === 'custom_tool_call') && !answered.has(i.call_id)).map((i) => i.call_id);
  return missing.length ? `No tool output found for function call ${missing[0]}.` : null;
}

/** Gemini: a model turn with function calls must be followed by a user turn answering each, in order. */
function checkGeminiPairing(body: Record<string, unknown>): string | null {
  const contents = (body['contents'] as { role?: string; parts?: { functionCall?: { name: string }; functionResponse?: { name: string } }[] }[]) ?? [];
  for (let i = 0; i < contents.length; i++) {
    const calls = (contents[i]!.parts ?? []).filter((p) => p.functionCall).length;
    if (!calls || i === contents.length - 1) continue;
    const answers = (contents[i + 1]!.parts ?? []).filter((p) => p.functionResponse).length;
    if (answers !== calls) return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
  }
  return null;
}

const PAIRING: Record<Protocol, (body: Record<string, unknown>) => string | null> = {
  anthropic: checkAnthropicPairing,
  openai: checkOpenAIPairing,
  responses: checkResponsesPairing,
  gemini: checkGeminiPairing,
};

function defaultError(protocol: Protocol, status: number) {
  const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
  if (protocol === 'anthropic') return { type: 'error', error: { type, message: `fake ${status}` } };
  if (protocol === 'gemini') return { error: { code: status, message: `fake ${status}`, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
  return { error: { message: `fake ${status}`, type, param: null, code: null } };
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
