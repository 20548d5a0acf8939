// The `threshold` command line. Each command lives in its own module; this file only dispatches.
// Commands are loaded when they are run: `threshold classify` never parses the daemon, the store or the
// agent, which keeps the command's cold start short (bench: CLI cold start).
import { pathToFileURL } from 'node:url';
import { nativeModuleMismatch, type CoreRuntime } from '../../common/start-problems';
import type { CliIo } from './context';
import { UsageError } from './usage-error';

const HELP = `threshold: a desktop assistant that asks before it acts

usage: threshold <command> [options]

commands:
  classify "<command>"       explain what a shell command can do
  classify --jsonl           classify {"cmd": "..."} lines from stdin, one JSON result a line
  evaluate --jsonl           the gate's decision for {"tool": "...", "args": {...}} lines from stdin
                             [--level L] [--config FILE] [--workspace DIR]
  serve [--data-dir DIR] [--config FILE] [--workspace DIR] [--unattended] [--demo] [--no-agent]
        [--web-port N | --no-web] [--open]
                             run the core headless: gate, store, the control API and the web UI
  ctl [--data-dir DIR] [--json] <pending | history | decide | grants | revoke | verify | level | request>
                             talk to a running core; "threshold ctl" alone lists its commands
  jail --workspace DIR [--class read|write|network] [--print] -- <argv...>
                             run argv in the jail as the executor would (no gate); --print shows the jail's command line (bwrap; sandbox-exec on macOS)
  checkpoints [--data-dir DIR] <list | diff ID | restore ID>
                             workspace checkpoints: list, what a call changed, restore
  hook <claude-code | codex | gemini> [--data-dir DIR] [--timeout SECONDS]
                             another agent's hook: judges its tool call on stdin, answers in its format
  hook install|uninstall <agent> [--project | --user] [--print] [--data-dir DIR]
                             add or remove Threshold's hook in that agent's settings (never clobbers)
  mcp-gateway [--data-dir DIR] [--http PORT]
                             an MCP server fronting threshold.toml's MCP servers: every call crosses the gate
  import <claude-code | codex | gemini> FILE [--print] [--json] [--project DIR] [--data-dir DIR]
                             another agent's permission rules as grants and rules (--print: show, change nothing)
  help                       this text
`;

type Command = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  classify: async (argv, io) => (await import('./classify')).classifyCli(argv, io),
  evaluate: async (argv, io) => (await import('./evaluate')).evaluateCli(argv, io),
  serve: async (argv, io) => (await import('./serve')).serveCli(argv, io),
  ctl: async (argv, io) => (await import('./ctl')).ctlCli(argv, io),
  jail: async (argv, io) => (await import('./jail')).jailCli(argv, io),
  checkpoints: async (argv, io) => (await import('./checkpoints')).checkpointsCli(argv, io),
  hook: async (argv, io) => (await import('./hook')).hookCli(argv, io),
  'mcp-gateway': async (argv, io) => (await import('./mcp-gateway')).mcpGatewayCli(argv, io),
  import: async (argv, io) => (await import('./import')).importCli(argv, io),
};

/** Errors that carry a sentence for the user; their modules are loaded only once something failed. */
async function isUserFacingError(err: unknown): Promise<boolean> {
  if (!(err instanceof Error)) return false;
  try {
    const [{ ConfigError }, { CoreError }, { StoreError }] = await Promise.all([import('../config/load'), import('../config/dirs'), import('../store/db')]);
    return err instanceof ConfigError || err instanceof CoreError || err instanceof StoreError;
  } catch {
    return false; // the modules themselves cannot load: the original error is shown with its stack
  }
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.stdout.write(HELP);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`threshold: unknown command "${name}". Run "threshold help" for the list.\n`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`threshold ${name}: ${err.message}\n`);
      return 2;
    }
    // A native module built for another runtime: one sentence naming the fix, not a stack.
    const mismatch = nativeModuleMismatch(err instanceof Error ? err.message : String(err), coreRuntime());
    if (mismatch) {
      io.stderr.write(`threshold: ${mismatch}\n`);
      return 1;
    }
    if (await isUserFacingError(err)) {
      io.stderr.write(`threshold: ${(err as Error).message}\n`);
      return 1;
    }
    if (err instanceof TypeError && 'code' in err && String((err as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      io.stderr.write(`threshold ${name}: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`threshold ${name}: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

function processIo(): CliIo {
  // A reader that goes away (`threshold classify --jsonl … | head -1`) ends the command quietly, as for
  // any Unix tool. A closed stderr is ignored: the daemon logs there and keeps serving without a reader.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** The runtime this process is: Electron run as Node (a packaged app's core), or Node. */
function coreRuntime(): CoreRuntime {
  const electron = process.versions['electron'];
  return electron ? { kind: 'electron', version: electron } : { kind: 'node', version: process.versions.node };
}

// Run directly (`node out/cli-<id>/threshold.mjs serve …`): how a packaged app starts its core, with
// Electron's binary as Node. bin/threshold.js imports this module instead, after rebuilding it if needed.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
