// The core's end of the desktop shell's channel (common/desktop-channel.ts): a control connection becomes
// the desktop window's once it presents the data directory's UI token. From then on it runs the UI
// operations as the `desktop` surface and answers each with its Result value; while it stays open the
// desktop counts as an approver (the shell can raise a notification and open a window).
import { ATTACH_METHOD, attachParamsSchema, type AttachResult } from '../../common/desktop-channel';
import type { Handlers } from '../runtime/handlers';
import { invokeOperation } from '../runtime/invoke';
import { sameSecret } from '../web/security';
import type { ControlMethods } from './methods';
import { RpcError } from './rpc';

export interface DesktopChannel {
  /** The UI token (the web token of the data directory). */
  token: string;
  /** The operations' handlers for the desktop surface. */
  handlers: Handlers;
  /** Registers the desktop as an approver surface; returns the unregister function. */
  addApprover: () => () => void;
  info: () => AttachResult;
}

export interface ConnectionMethods {
  methods: ControlMethods;
  /** The connection closed: the desktop stops counting as an approver. */
  close(): void;
}

/** The methods of one connection: the control API until `desktop.attach` succeeds, then the desktop's. */
export function connectionMethods(control: ControlMethods, desktop: DesktopChannel | undefined): ConnectionMethods {
  let attached = false;
  let removeApprover: (() => void) | null = null;
  const attach = (params: unknown): AttachResult => {
    if (!desktop) throw new RpcError('method_not_found', `There is no method "${ATTACH_METHOD}" on this control socket.`);
    if (attached) throw new RpcError('invalid_request', 'This connection is already the desktop window’s.');
    const parsed = attachParamsSchema.safeParse(params);
    if (!parsed.success) throw new RpcError('invalid_params', `Invalid params for ${ATTACH_METHOD}: ${parsed.error.issues[0]?.path.join('.') || 'params'}: ${parsed.error.issues[0]?.message}.`);
    if (!sameSecret(parsed.data.token, desktop.token)) throw new RpcError('unauthorized', 'Refused: that is not this data directory’s UI token.');
    attached = true;
    removeApprover = desktop.addApprover();
    return desktop.info();
  };
  return {
    methods: {
      async call(method, params) {
        if (method === ATTACH_METHOD) return attach(params);
        if (!attached || !desktop) return control.call(method, params);
        // Errors are values on this channel: the shell hands them to the window as they are.
        return invokeOperation(desktop.handlers, 'ui', method, params);
      },
    },
    close() {
      removeApprover?.();
      removeApprover = null;
    },
  };
}
