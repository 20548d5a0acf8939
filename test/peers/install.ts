// The real programs Threshold stands in front of, for the end-to-end tests: the peer agents (Claude Code,
// Codex, Gemini CLI) and the MCP servers the gateway fronts (server-filesystem, server-everything), from
// npm, pinned by test/peers/package-lock.json, installed once (npm ci --ignore-scripts: their install scripts only copy
// the native binary we call directly) into a cache folder outside the repository and outside
// node_modules: $THRESHOLD_PEERS_CACHE, else $XDG_CACHE_HOME/threshold-peers, else ~/.cache/threshold-peers,
// in a folder named after the lock file's hash. Parallel test files wait for one install (a lock folder).
// `node --import tsx test/peers/install.ts` installs ahead (.ci/run does, so no test waits on a download).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const HERE = import.meta.dirname;

export interface Peers {
  dir: string;
  /** Claude Code's native binary. */
  claude: string;
  /** Codex's native binary. */
  codex: string;
  /** Gemini CLI's entry script (run with this Node). */
  gemini: string;
  /** The MCP servers' entry scripts (run with this Node). */
  mcpFilesystem: string;
  mcpEverything: string;
}

export function peersCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const lock = readFileSync(join(HERE, 'package-lock.json'));
  const base = env['THRESHOLD_PEERS_CACHE'] ?? join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'threshold-peers');
  return join(base, `peers-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`);
}

const PLATFORM = `${process.platform}-${process.arch}`;

/** The installed binaries, or null when the install is not complete. */
function locate(dir: string): Peers | null {
  const nm = join(dir, 'node_modules');
  const claude = join(nm, '@anthropic-ai', `claude-code-${PLATFORM}`, 'claude');
  const vendor = join(nm, '@openai', `codex-${PLATFORM}`, 'vendor');
  const triple = existsSync(vendor) ? readdirSync(vendor).find((d) => existsSync(join(vendor, d, 'bin', 'codex'))) : undefined;
  const codex = triple ? join(vendor, triple, 'bin', 'codex') : '';
  const gemini = join(nm, '@google', 'gemini-cli', 'bundle', 'gemini.js');
  const mcpFilesystem = join(nm, '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
  const mcpEverything = join(nm, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  if (![claude, codex, gemini, mcpFilesystem, mcpEverything, join(dir, '.complete')].every((p) => p && existsSync(p))) return null;
  return { dir, claude, codex, gemini, mcpFilesystem, mcpEverything };
}

/** Installs the pinned peers into the cache once; every later call returns at once. */
export async function ensurePeers(log: (line: string) => void = () => {}): Promise<{ ok: true; peers: Peers } | { ok: false; why: string }> {
  const dir = peersCacheDir();
  const ready = locate(dir);
  if (ready) return { ok: true, peers: ready };
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 20 * 60_000;
  mkdirSync(join(dir, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file installs; a lock older than the deadline is from a run that died.
      const done = locate(dir);
      if (done) return { ok: true, peers: done };
      if (Date.now() > deadline) return { ok: false, why: `waited 20 minutes for another install of the peers (${lock})` };
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 20 * 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    const again = locate(dir);
    if (again) return { ok: true, peers: again };
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(HERE, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(HERE, 'package-lock.json'), join(dir, 'package-lock.json'));
    log(`installing Claude Code, Codex, Gemini CLI and two MCP servers into ${dir} (npm ci, about 900 MB, once)…`);
    const r = spawnSync('npm', ['ci', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel', 'error'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15 * 60_000 });
    if (r.status !== 0) return { ok: false, why: `npm ci failed: ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' ')}` };
    spawnSync('touch', [join(dir, '.complete')]);
    // An install from an older lock file is 900 MB nobody will use again.
    for (const old of readdirSync(join(dir, '..'))) if (/^peers-[0-9a-f]{12}$/.test(old) && join(dir, '..', old) !== dir) rmSync(join(dir, '..', old), { recursive: true, force: true });
    const peers = locate(dir);
    return peers ? { ok: true, peers } : { ok: false, why: `npm ci finished but the binaries for ${PLATFORM} are not in ${dir}` };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const r = await ensurePeers((line) => process.stderr.write(`${line}\n`));
  if (!r.ok) {
    process.stderr.write(`peers not installed: ${r.why}\n`);
    process.exitCode = 1;
  } else process.stdout.write(`peers ready in ${r.peers.dir}\n`);
}
