// One fuzz target per boundary. Each checks, for every input, that the boundary answers with a valid
// answer or a clear error (never a throw, a crash, a hang or an answer of the wrong shape).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ALIASES, OPERATION_NAMES, type OperationName } from '../../common/operations';
import { CLASSES } from '../../common/domain';
import { IPC_CHANNELS, registerHandlers, type IpcEventLike } from '../../main/app/ipc';
import { ConfigError, loadConfigFile, parseConfig } from '../../main/config/load';
import { createHandlers } from '../../main/runtime/handlers';
import { handleMessage } from '../../main/control/server';
import { classifyCommand, initClassifier } from '../../main/policy/classifier';
import { canonicalJson } from '../../main/store/canonical';
import { BUILTIN_TOOL_NAMES, parseToolName } from '../../main/policy/tools';
import { testCore } from '../support/core';
import { TEST_PATHS } from '../support/policy';
import { anyOrNasty, anyString, INVALID_UTF8, NASTY_STRINGS, NASTY_VALUES } from './nasty';
import { createMethods } from '../support/control';

export interface FuzzTarget<T = unknown> {
  name: string;
  /** Generated inputs. */
  arbitrary: fc.Arbitrary<T>;
  /** Hand-made inputs, each tried once before the generated ones. */
  nasty: T[];
  /** Builds what the cases run against; `check` throws (an Error naming the broken rule) on a bad answer. */
  setup(): Promise<{ check(input: T): Promise<void>; dispose(): Promise<void> }>;
}

function fail(rule: string, detail: unknown): never {
  throw new Error(`${rule}: ${JSON.stringify(detail)?.slice(0, 400)}`);
}

const nonEmpty = (s: unknown): s is string => typeof s === 'string' && s.trim().length > 0;

// ---- IPC contract: createHandlers behind a fake ipcMain, as the window calls it ----

interface IpcInput {
  channel: OperationName;
  payload: unknown;
  trusted: boolean;
}

const TRUSTED = 'file:///opt/threshold/out/renderer/index.html';

export const ipcTarget: FuzzTarget<IpcInput> = {
  name: 'IPC contract',
  arbitrary: fc.record({ channel: fc.constantFrom(...IPC_CHANNELS), payload: fc.oneof(anyOrNasty, fc.constant(undefined), nearValidPayload()), trusted: fc.boolean() }),
  nasty: IPC_CHANNELS.flatMap((channel) => NASTY_VALUES.map((payload) => ({ channel, payload, trusted: true }))),
  async setup() {
    const core = await testCore({ approver: false });
    const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
    registerHandlers({ handle: (c, f) => handlers.set(c, f) }, { handlers: createHandlers({ version: '0.0.0-fuzz', core, surface: 'desktop' }), trustedFrame: (u) => u === TRUSTED });
    return {
      async check({ channel, payload, trusted }) {
        const r = (await handlers.get(channel)!({ senderFrame: { url: trusted ? TRUSTED : 'https://evil.example/' } }, payload)) as { ok?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } };
        if (!r || typeof r !== 'object' || typeof r.ok !== 'boolean') fail('an IPC answer is a Result', r);
        if (!trusted && (r.ok || r.error?.code !== 'untrusted_sender')) fail('a foreign frame is always refused', r);
        if (!r.ok && (!nonEmpty(r.error?.code) || !nonEmpty(r.error?.message))) fail('an IPC error has a code and a sentence', r);
        if (!r.ok && r.error?.code === 'internal_error') fail('no input makes a handler throw', r);
      },
      async dispose() {
        core.dispose();
      },
    };
  },
};

/** Payloads shaped like the real ones with random values, so the handlers behind the schemas run. */
function nearValidPayload(): fc.Arbitrary<unknown> {
  const id = fc.oneof(fc.constantFrom('ap_x', 'gr_x', 's1', 'q_1'), anyString);
  return fc.oneof(
    fc.record({ id, hash: fc.oneof(fc.constant('a'.repeat(64)), fc.stringMatching(/^[0-9a-f]{64}$/)), outcome: fc.constantFrom('approve_once', 'approve_session', 'approve_always', 'approve_all_session', 'skip', 'deny') }),
    fc.record({ level: fc.constantFrom('read-only', 'supervised', 'auto-edit', 'full', 'yolo') }),
    fc.record({ limit: fc.integer({ min: -5, max: 600 }) }, { requiredKeys: [] }),
    fc.record({ session_id: id }),
    fc.record({ id, answer: anyString }),
    fc.record({ message: anyString }),
  );
}

// ---- JSON-RPC: handleMessage, as the control socket calls it ----

const METHODS = [...OPERATION_NAMES, ...Object.keys(ALIASES)];
const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

function rpcRequest(): fc.Arbitrary<unknown> {
  return fc.record(
    {
      jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: anyOrNasty }),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.boolean(), fc.constant({}), fc.constant([1]), fc.double()),
      method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...METHODS, 'events.subscribe') }, { weight: 2, arbitrary: fc.constantFrom(...PROTO_NAMES) }, { weight: 1, arbitrary: anyOrNasty }),
      params: fc.oneof(anyOrNasty, fc.record({ tool: fc.constantFrom(...BUILTIN_TOOL_NAMES, 'mcp.s.t'), args: fc.dictionary(anyString, anyOrNasty, { maxKeys: 3 }), unattended: fc.constant(true) })),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  );
}

const rpcText = fc.oneof(
  // Serialised without recursion: the hand-made values include some nested 100,000 deep.
  { weight: 6, arbitrary: rpcRequest().map((r) => canonicalJson(r)) },
  { weight: 2, arbitrary: fc.array(rpcRequest(), { minLength: 0, maxLength: 4 }).map((b) => canonicalJson(b)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
);

function checkRpcResponse(r: unknown, request: unknown): void {
  if (!r || typeof r !== 'object' || Array.isArray(r)) fail('a response is an object', r);
  const o = r as Record<string, unknown>;
  if (o['jsonrpc'] !== '2.0') fail('a response says jsonrpc 2.0', o);
  const id = o['id'];
  if (!(id === null || typeof id === 'string' || typeof id === 'number')) fail('a response id is a string, a number or null', o);
  if (('result' in o) === ('error' in o)) fail('a response has exactly one of result and error', o);
  if ('error' in o) {
    const e = o['error'] as { code?: unknown; message?: unknown };
    if (!Number.isInteger(e?.code) || !nonEmpty(e?.message)) fail('an error has an integer code and a sentence', o);
    if (e.code === -32603) fail('no input is an internal error', o);
  }
  const req = request as Record<string, unknown> | null;
  if (req && typeof req === 'object' && !Array.isArray(req) && 'id' in req) {
    const reqId = req['id'];
    const valid = reqId === null || typeof reqId === 'string' || (typeof reqId === 'number' && Number.isFinite(reqId));
    if (valid && id !== reqId && !(Object.is(reqId, -0) && id === 0)) fail('a response carries the request id', { reqId, o });
    if (!valid && (id !== null || !('error' in o))) fail('a request with an invalid id is refused with id null', o);
  }
}

export const rpcTarget: FuzzTarget<string> = {
  name: 'JSON-RPC handleMessage',
  arbitrary: rpcText,
  nasty: [
    ...NASTY_STRINGS,
    ...PROTO_NAMES.map((m) => `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(m)}}`),
    ...['{"x":1}', '[1]', 'true', 'false', '{}', '[]'].map((id) => `{"jsonrpc":"2.0","id":${id},"method":"settings.set_level","params":{"level":"full"}}`),
    `{"jsonrpc":"2.0","id":1,"method":"approval.request","params":{"tool":"run_command","args":{"x":${'['.repeat(2000)}${']'.repeat(2000)}}}}`,
    `[${Array.from({ length: 101 }, () => '{"jsonrpc":"2.0","id":1,"method":"settings.get"}').join(',')}]`,
  ],
  async setup() {
    // No approver: every ask is refused at once (a fuzzed call never waits for a person).
    const core = await testCore({ approver: false });
    const methods = createMethods(core);
    return {
      async check(text) {
        const before = core.level();
        const out = await handleMessage(text, methods);
        let request: unknown;
        try {
          request = JSON.parse(text);
        } catch {
          request = undefined;
        }
        if (out === null) {
          const isNotification = (m: unknown) => !!m && typeof m === 'object' && !Array.isArray(m) && !('id' in m) && (m as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof (m as { method?: unknown }).method === 'string';
          const ok = Array.isArray(request) ? request.length > 0 && request.every(isNotification) : isNotification(request);
          if (!ok) fail('only notifications go unanswered', text.slice(0, 200));
          return;
        }
        const r = JSON.parse(out) as unknown;
        if (Array.isArray(r)) {
          if (!Array.isArray(request)) fail('a batch answer only for a batch', text.slice(0, 200));
          for (const x of r) checkRpcResponse(x, undefined);
        } else checkRpcResponse(r, request);
        const badId = request && typeof request === 'object' && !Array.isArray(request) && 'id' in request && typeof (request as { id: unknown }).id === 'object' && (request as { id: unknown }).id !== null;
        if (badId && core.level() !== before) fail('a request with an object or array id executes nothing', text.slice(0, 200));
      },
      async dispose() {
        core.dispose();
      },
    };
  },
};

// ---- Config: parseConfig on text, loadConfigFile on bytes ----

const CONFIG_KEYS = ['autonomy', 'rules', 'rules.effects', 'rules.tools', 'grants', 'approvals', 'executor', 'provider', 'agent', 'mcp.servers.x', 'control', 'audit', 'workspace'];
const tomlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(...CONFIG_KEYS).map((k) => `[${k}]`),
      fc.constantFrom('[[grants]]', 'tool = "run_command"', 'argv = ["git", "status"]', 'level = "full"', 'ttl_seconds = 5', 'network = "ask"', 'enabled = true', 'kind = "anthropic"'),
      fc.tuple(fc.constantFrom('level', 'ttl_seconds', 'argv', 'path', 'x', '__proto__', 'constructor', '"a.b"'), fc.oneof(anyString.map((s) => JSON.stringify(s)), fc.integer().map(String), fc.constantFrom('[', '{', '[[[]]]', 'inf', 'nan', '1979-05-27T07:32:00Z', "'''x'''", '"""'))).map(([k, v]) => `${k} = ${v}`),
      anyString,
    ),
    { maxLength: 12 },
  )
  .map((lines) => lines.join('\n'));

type ConfigInput = { text: string } | { bytes: Uint8Array };

export const configTarget: FuzzTarget<ConfigInput> = {
  name: 'config loading',
  arbitrary: fc.oneof({ weight: 6, arbitrary: tomlish.map((text) => ({ text })) }, { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((text) => ({ text })) }, { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })) }),
  nasty: [
    ...NASTY_STRINGS.map((text) => ({ text })),
    { text: `x = ${'['.repeat(5000)}${']'.repeat(5000)}` },
    { text: `[mcp.servers.x]\ncommand = "a"\nenv = ${'{a='.repeat(900)}"1"${'}'.repeat(900)}` },
    { text: '[autonomy]\n__proto__ = "full"' },
    { text: '[rules.tools]\nconstructor = "allow"' },
    ...INVALID_UTF8.map((b) => ({ bytes: Buffer.concat([Buffer.from('[autonomy]\nlevel = "'), b, Buffer.from('"\n')]) })),
  ],
  async setup() {
    await initClassifier();
    const dir = mkdtempSync(join(tmpdir(), 'threshold-fuzz-config-'));
    let n = 0;
    return {
      async check(input) {
        let file = '/fuzz/threshold.toml';
        const load = async () => {
          if ('text' in input) return parseConfig(input.text, file);
          file = join(dir, `c${n++ % 8}.toml`);
          writeFileSync(file, input.bytes);
          return loadConfigFile(file, { required: true });
        };
        try {
          const c = await load();
          if (!(CLASSES.length && typeof c.level === 'string' && c.file === file)) fail('a loaded config names its file and level', c);
        } catch (err) {
          if (!(err instanceof ConfigError)) fail('a bad config is a ConfigError, nothing else', { name: (err as Error).name, message: (err as Error).message });
          if (!err.message.startsWith(`Config error in ${file}: `) || !nonEmpty(err.problem)) fail('a config error names the file and the problem', err.message);
        }
      },
      async dispose() {},
    };
  },
};

// ---- Classifier input ----

const shellish = fc
  .array(fc.oneof(fc.constantFrom('ls', 'rm', '-rf', '/', 'git', 'push', 'curl', '|', '&&', ';', '>', '>>', '<<EOF', '$(', ')', '`', '"', "'", '\\', '*', '~', '$HOME', '{a,b}', 'sudo', 'sh', '-c', 'eval', '\n', '#', '&', '(', '<(', 'EOF'), anyString), { maxLength: 24 })
  .map((words) => words.join(' '));

export const classifierTarget: FuzzTarget<string> = {
  name: 'classifier input',
  arbitrary: fc.oneof({ weight: 3, arbitrary: shellish }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) }),
  // Deeper $( nesting and longer input are the classifier's own limits (another change sets them).
  nasty: [...NASTY_STRINGS.filter((s) => s.length <= 64 * 1024), 'echo ' + '$('.repeat(1000) + 'x' + ')'.repeat(1000), 'a '.repeat(20_000), 'cat <<EOF\n' + 'x\n'.repeat(5000)],
  async setup() {
    await initClassifier();
    const classes = new Set<string>(CLASSES);
    return {
      async check(command) {
        const c = classifyCommand(command, { ctx: TEST_PATHS });
        if (!classes.has(c.class) || typeof c.hardline !== 'boolean' || !Array.isArray(c.segments) || !Array.isArray(c.reasons)) fail('a classification has a class, segments and reasons', c);
      },
      async dispose() {},
    };
  },
};

// ---- A model's tool-call arguments, through the gate (describe, evaluate, record) ----

interface CallInput {
  tool: string;
  args: unknown;
}

const toolName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...BUILTIN_TOOL_NAMES) }, { weight: 2, arbitrary: fc.constantFrom('mcp.srv.tool', 'mcp..x', 'mcp.a', 'mcp.a.b.c') }, { weight: 1, arbitrary: anyString });
const toolArgs = fc.oneof(
  anyOrNasty,
  fc.record({ command: fc.oneof(shellish, anyString), cwd: fc.oneof(anyString, fc.constantFrom('/', '..', '/etc', '~/.ssh')) }, { requiredKeys: ['command'] }),
  fc.record({ path: fc.oneof(anyString, fc.constantFrom('.', '~/.ssh/id_rsa', '/etc/passwd', '../../x', '')), content: anyString }, { requiredKeys: ['path'] }),
  fc.record({ url: fc.oneof(anyString, fc.webUrl(), fc.constantFrom('http://127.0.0.1/', 'file:///etc/passwd', 'http://[::1]/')) }),
);

export const toolCallTarget: FuzzTarget<CallInput> = {
  name: 'tool-call arguments through the gate',
  arbitrary: fc.record({ tool: toolName, args: toolArgs }),
  nasty: [...BUILTIN_TOOL_NAMES, 'mcp.srv.tool'].flatMap((tool) => NASTY_VALUES.map((args) => ({ tool, args }))),
  async setup() {
    await initClassifier();
    const core = await testCore({ approver: false });
    let n = 0;
    return {
      async check({ tool, args }) {
        const turnId = `fuzz-${n++}`;
        const v = await core.calls.review({ sessionId: 'fuzz', turnId, turnKind: 'unattended', tool: parseToolName(tool), args, cwd: TEST_PATHS.workspace });
        if (!/^[0-9a-f]{64}$/.test(v.hash)) fail('every call gets a content hash', v);
        if (!['allow', 'ask', 'deny'].includes(v.evaluation.decision)) fail('a decision is allow, ask or deny', v.evaluation);
        if (!v.run && !nonEmpty(v.message)) fail('a refused call says why', v);
        if (v.run && v.evaluation.decision !== 'allow') fail('in an unattended turn only an allowed call runs', v.evaluation);
        if (!core.store.calls.get(v.callId)) fail('every call is recorded', { tool, callId: v.callId });
      },
      async dispose() {
        core.dispose();
      },
    };
  },
};

// ---- An answer from a chat service, through the remote approvers' checks ----

interface PressInput {
  bridge: 'telegram' | 'matrix';
  audience: string;
  sender: string;
  token: string | null;
  card: { messageId: string; outcome: string } | null;
}

const tokenish = fc.oneof(
  anyString,
  fc.stringMatching(/^1\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{22}$/),
  fc.constantFrom('approve_once', '1..', '1.AAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA', ''),
);

export const remotePressTarget: FuzzTarget<PressInput> = {
  name: 'chat answers through the remote approvers',
  arbitrary: fc.record({
    bridge: fc.constantFrom('telegram' as const, 'matrix' as const),
    audience: fc.oneof(fc.constantFrom('42', '!room:example.org', '', '-42'), anyString),
    sender: fc.oneof(fc.constantFrom('42', '@me:example.org', '0'), anyString),
    token: fc.option(tokenish, { nil: null }),
    card: fc.option(fc.record({ messageId: fc.oneof(anyString, fc.constantFrom('100', '$ev1:example.org')), outcome: fc.oneof(fc.constantFrom('approve_once', 'approve_always', 'deny', 'unknown:x'), anyString) }), { nil: null }),
  }),
  nasty: NASTY_STRINGS.slice(0, 40).flatMap((x) => [
    { bridge: 'telegram' as const, audience: '42', sender: '42', token: x, card: null },
    { bridge: 'matrix' as const, audience: '!room:example.org', sender: '@me:example.org', token: null, card: { messageId: x, outcome: x } },
  ]),
  async setup() {
    await initClassifier();
    const { FakeTelegram } = await import('../fake-remote/telegram');
    const { TelegramBridge } = await import('../../main/remote/telegram');
    const { RemoteApprovers } = await import('../../main/remote/hub');
    const { DecisionTokens } = await import('../../main/remote/decision-token');
    const { REMOTE_OFF } = await import('../../main/config/remote-settings');
    const { randomBytes } = await import('node:crypto');
    const tg = await FakeTelegram.start();
    const core = await testCore({ approver: false });
    const config = { ...REMOTE_OFF, pollSeconds: 1, telegram: { apiBase: tg.base, botTokenEnv: 'X', chatId: 42 }, matrix: { homeserver: 'http://127.0.0.1:9', accessTokenEnv: 'Y', roomId: '!room:example.org', userId: '@me:example.org' } };
    const bridge = new TelegramBridge({ config: config.telegram, token: tg.token, pollSeconds: 1, redact: (t) => t });
    const hub = new RemoteApprovers({ core, config, tokens: new DecisionTokens(core.store, randomBytes(32)), bridges: [bridge] });
    hub.start();
    // One card waits the whole run: nothing fuzzed may decide it.
    const parked = core.calls.review({ sessionId: 'fuzz', turnId: 'fz', turnKind: 'reactive', tool: 'run_command', args: { command: 'touch fuzz.txt' }, cwd: TEST_PATHS.workspace });
    for (let i = 0; i < 200 && !core.gate.listPending().length; i++) await new Promise((r) => setTimeout(r, 5));
    const id = core.gate.listPending()[0]!.id;
    // …and its message is in the chat before the first answer, so every answer meets the same card.
    for (let i = 0; i < 400 && !core.store.remote.message(id, 'telegram'); i++) await new Promise((r) => setTimeout(r, 5));
    if (!core.store.remote.message(id, 'telegram')) throw new Error('the parked card never reached the fake Telegram');
    const isOwnersAnswer = (p: PressInput) =>
      p.bridge === 'telegram' && p.token === null && p.audience === '42' && p.sender === '42' && p.card !== null &&
      core.store.remote.messageByRef('telegram', p.card.messageId)?.approval_id === id &&
      core.store.remote.tokenFor(id, 'telegram', p.card.outcome) !== undefined;
    const reasons = new Set(['malformed', 'unknown', 'forged', 'foreign', 'expired', 'used', 'foreign_chat', 'foreign_sender', 'no_card', 'already_decided', 'altered', 'not_offered', 'gate_refused']);
    return {
      async check(input) {
        // The owner's own answer to the card's message with an outcome it offered is the one input that must
        // decide (the remote tests prove it does); the fuzzer can build it from the constants above, so it is
        // left out here rather than let it use up the card every other input must fail to decide.
        if (isOwnersAnswer(input)) return;
        let replies = 0;
        const r = await hub.answer({ ...input, reply: async () => void replies++ });
        if (r.ok) fail('a fuzzed answer never decides', input);
        if (!reasons.has(r.reason)) fail('a refusal names one of the reasons', r);
        if (replies > 1) fail('an answer is told at most once', replies);
        if (core.store.approvals.get(id)!.status !== 'pending') fail('the waiting card still waits', input);
      },
      async dispose() {
        await hub.dispose();
        core.gate.cancelApproval(id);
        await parked;
        core.dispose();
        await tg.close();
      },
    };
  },
};

export const TARGETS: FuzzTarget<never>[] = [ipcTarget, rpcTarget, configTarget, classifierTarget, toolCallTarget, remotePressTarget] as unknown as FuzzTarget<never>[];
