// The control API's methods: the operations table's control operations (common/operations.ts), by
// canonical name or by an older alias, run through the shared handlers. Failures become RpcErrors
// carrying the handler's stable code.
import { invokeOperation, type Handlers } from '../../common/invoke';
import { RpcError } from './rpc';

export interface ControlMethods {
  /** Runs one method; throws an RpcError for every failure. `signal`: the client went away. */
  call(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
}

/** The control methods over a set of handlers (the runtime's, which own what they start). */
export function methodsFor(handlers: Handlers): ControlMethods {
  return {
    async call(method, params, signal) {
      const r = await invokeOperation(handlers, 'control', method, params, signal ? { signal } : undefined);
      if (r.ok) return r.value;
      if (r.error.code === 'unknown_operation') throw new RpcError('method_not_found', `There is no method "${method}".`);
      throw new RpcError(r.error.code, r.error.message);
    },
  };
}
