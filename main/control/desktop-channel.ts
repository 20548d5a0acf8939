// The core's end of the desktop shell's channel (common/desktop-channel.ts): a control connection becomes
// the desktop window's once it presents the data directory's UI token. From then on it runs the UI
// operations as the `desktop` surface and answers each with its Result value; while it stays open the
// desktop counts as an approver (the shell can raise a notification and open a window). A provider key
// moves to another endpoint only on this connection's own answer to the question the core asked it
// (key-use-questions.ts): nothing else can answer, and without an answer no key is sent.
import { ATTACH_METHOD, attachParamsSchema, KEY_USE_ANSWER_METHOD, keyUseAnswerParamsSchema, type AttachResult } from '../../common/desktop-channel';
import type { Handlers } from '../../common/invoke';
import { invokeOperation } from '../../common/invoke';
import type { KeyConfirmation } from '../../common/key-use';
import { sameSecret } from '../web/security';
import { KeyUseQuestions } from './key-use-questions';
import type { ControlMethods } from './methods';
import { RpcError } from './rpc';

export interface DesktopChannel {
  /** The UI token (the web token of the data directory). */
  token: string;
  /** The operations' handlers for the desktop surface, asking the person through `confirmKeyUse`. */
  handlers: (confirmKeyUse: KeyConfirmation) => Handlers;
  /** Registers the desktop as an approver surface; returns the unregister function. */
  addApprover: () => () => void;
  info: () => AttachResult;
  /** How long a key question waits for the person (default: KEY_USE_TIMEOUT_MS). */
  keyUseTimeoutMs?: number;
}

export interface ConnectionMethods {
  methods: ControlMethods;
  /** Whether the connection is the desktop window's (its requests are then answered as each is done). */
  attached(): boolean;
  /** The connection closed: the desktop stops counting as an approver, and its open questions are answered "no". */
  close(): void;
}

const invalidParams = (method: string, error: { issues: { path: PropertyKey[]; message: string }[] }) =>
  new RpcError('invalid_params', `Invalid params for ${method}: ${error.issues[0]?.path.join('.') || 'params'}: ${error.issues[0]?.message}.`);

/**
 * The methods of one connection: the control API until `desktop.attach` succeeds, then the desktop's.
 * `notify` writes a line to this connection (the key questions).
 */
export function connectionMethods(control: ControlMethods, desktop: DesktopChannel | undefined, notify: (text: string) => void = () => undefined): ConnectionMethods {
  let session: { handlers: Handlers; questions: KeyUseQuestions; removeApprover: () => void } | null = null;
  let closed = false;
  const attach = (params: unknown): AttachResult => {
    if (!desktop) throw new RpcError('method_not_found', `There is no method "${ATTACH_METHOD}" on this control socket.`);
    if (session) throw new RpcError('invalid_request', 'This connection is already the desktop window’s.');
    const parsed = attachParamsSchema.safeParse(params);
    if (!parsed.success) throw invalidParams(ATTACH_METHOD, parsed.error);
    if (!sameSecret(parsed.data.token, desktop.token)) throw new RpcError('unauthorized', 'Refused: that is not this data directory’s UI token.');
    if (closed) throw new RpcError('invalid_request', 'This connection is closing.');
    const questions = new KeyUseQuestions(notify, desktop.keyUseTimeoutMs);
    session = { handlers: desktop.handlers((request) => questions.ask(request)), questions, removeApprover: desktop.addApprover() };
    return desktop.info();
  };
  const answer = (questions: KeyUseQuestions, params: unknown) => {
    const parsed = keyUseAnswerParamsSchema.safeParse(params);
    if (!parsed.success) throw invalidParams(KEY_USE_ANSWER_METHOD, parsed.error);
    const { id, send } = parsed.data;
    // The same sentence whether the id was answered, expired, or belongs to another connection: an
    // answer never learns about questions asked elsewhere.
    if (!questions.answer(id, send)) throw new RpcError('not_found', `No question about the API key waits for an answer under ${JSON.stringify(id)} on this connection: it was answered already, its time ran out, or it was not asked here. No key was sent for it.`);
    return { id, send };
  };
  return {
    methods: {
      async call(method, params, signal) {
        if (method === ATTACH_METHOD) return attach(params);
        // Not attached: the control API, which has no such method (an ordinary connection cannot answer).
        if (!session) return control.call(method, params, signal);
        if (method === KEY_USE_ANSWER_METHOD) return answer(session.questions, params);
        // Errors are values on this channel: the shell hands them to the window as they are.
        return invokeOperation(session.handlers, 'ui', method, params, signal ? { signal } : undefined);
      },
    },
    attached: () => session !== null,
    close() {
      closed = true;
      session?.questions.close();
      session?.removeApprover();
      session = null;
    },
  };
}
