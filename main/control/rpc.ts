// JSON-RPC 2.0: message shapes and stable error codes. Application errors carry a string code in
// `data.code` that scripts can match, and a message a person can act on.
export const RPC_ERRORS = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  not_found: -32001,
  already_decided: -32002,
  hash_mismatch: -32003,
  outcome_unavailable: -32004,
  invalid_grant: -32005,
  invalid_outcome: -32006,
  invalid_level: -32007,
  already_revoked: -32008,
  revoked: -32008,
  already_recorded: -32009,
  store_failed: -32010,
  message_too_large: -32011,
  agent_unavailable: -32012,
  message_incomplete: -32013,
  too_many_connections: -32014,
  not_runnable: -32015,
  too_many_waiting: -32016,
  idle_timeout: -32017,
  unauthorized: -32018,
} as const;

export type RpcId = string | number | null;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: { code: string; [k: string]: unknown };
}

export type RpcResponse = { jsonrpc: '2.0'; id: RpcId; result: unknown } | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorObject };

export class RpcError extends Error {
  constructor(
    readonly name_: keyof typeof RPC_ERRORS | string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toObject(): RpcErrorObject {
    const code = (RPC_ERRORS as Record<string, number>)[this.name_] ?? -32000;
    return { code, message: this.message, data: { code: this.name_, ...this.extra } };
  }
}
