// `threshold mcp-gateway [--data-dir DIR] [--http PORT]`: Threshold's MCP gateway (main/mcp-gateway).
// Speaks MCP over stdio (what an MCP client's config starts); --http PORT adds Streamable HTTP on
// 127.0.0.1 (0: any free port; the address is printed). Needs the core running for that data directory.
import { parseArgs } from 'node:util';
import { resolveDataDir, UsageError, type CliIo } from './context';
import { VERSION } from '../runtime/version';

const USAGE = 'usage: threshold mcp-gateway [--data-dir DIR] [--http PORT]';

export async function mcpGatewayCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, http: { type: 'string' } }, allowPositionals: true });
  if (positionals.length) throw new UsageError(USAGE);
  const port = values.http === undefined ? null : Number(values.http);
  if (port !== null && (!/^\d{1,5}$/.test(values.http!) || port > 65535)) throw new UsageError('--http must be a port number from 0 to 65535 (0: any free port).');
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  const { serveHttp, serveStdio } = await import('../mcp-gateway/gateway');
  const o = { dataDir, version: VERSION, log: (line: string) => io.stderr.write(`threshold mcp-gateway: ${line}\n`) };
  if (port === null) {
    await serveStdio(o);
    return 0;
  }
  const http = await serveHttp(o, port);
  io.stderr.write(`threshold mcp-gateway: Streamable HTTP at ${http.url}\n`);
  // With HTTP the process lives until it is stopped; stdio serves alongside, for a client on it.
  void serveStdio(o).catch(() => undefined);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await http.close();
  return 0;
}
