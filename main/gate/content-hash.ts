// The content hash binds a decision to exactly what was shown: the tool, its exact arguments, the
// directory and the names (not values) of the environment it runs with.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../store/canonical';

export function contentHash(call: { tool: string; args: unknown; cwd: string; envKeys?: readonly string[] }): string {
  const body = canonicalJson({ tool: call.tool, args: call.args ?? {}, cwd: call.cwd, env_keys: [...(call.envKeys ?? [])].sort() });
  return createHash('sha256').update(body).digest('hex');
}
