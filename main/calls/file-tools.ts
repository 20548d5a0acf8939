// The file tools' runners: read_file, list_dir, search_files (ripgrep, jailed read-only), write_file and
// edit_file (a checkpoint first, so an unprompted edit can be undone), and the diff an edit's card shows.
import { createTwoFilesPatch } from 'diff';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Executor } from '../../executor/run';
import { resolvePath, type PathContext } from '../policy/paths';
import type { CheckpointService } from './checkpoints';
import { runsOnUndo, unheldCovering, UNHELD_REASON } from './run-command';
import { failed, succeeded, type RunContext, type Runner } from './runner';

const READ_CAP = 256 * 1024;
const LIST_CAP = 500;

type PathArgs = { path?: unknown };

/** A path argument as the file it names (relative to where the call runs). */
function pathOf(p: unknown, cwd: string, paths: PathContext): string {
  return resolvePath(String(p ?? '.'), cwd, paths)!;
}

export function readFileRunner(paths: () => PathContext): Runner<PathArgs> {
  return {
    async run(args, ctx) {
      const p = pathOf(args.path, ctx.cwd, paths());
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) return failed(`${p} does not exist.`);
      if (st.isDirectory()) return failed(`${p} is a directory; use list_dir.`);
      const buf = readFileSync(p);
      if (buf.subarray(0, 8192).includes(0)) return succeeded(`(${p} is a binary file of ${buf.length} bytes)`);
      const text = buf.subarray(0, READ_CAP).toString('utf8');
      return succeeded(buf.length > READ_CAP ? `${text}\n… (${buf.length - READ_CAP} more bytes not shown)` : text);
    },
  };
}

export function listDirRunner(paths: () => PathContext): Runner<PathArgs> {
  return {
    async run(args, ctx) {
      const p = pathOf(args.path, ctx.cwd, paths());
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st?.isDirectory()) return failed(`${p} is not a directory.`);
      const entries = readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
      const lines = entries.slice(0, LIST_CAP).map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name));
      if (entries.length > LIST_CAP) lines.push(`… ${entries.length - LIST_CAP} more entries`);
      return succeeded(lines.join('\n') || '(empty)');
    },
  };
}

/** ripgrep runs in a read-only jail: credential locations are hidden from it as from any command. */
export function searchFilesRunner(paths: () => PathContext, executor: () => Executor): Runner<PathArgs & { pattern?: unknown }> {
  return {
    async run(args, ctx) {
      const p = pathOf(args.path ?? '.', ctx.cwd, paths());
      const workspace = paths().workspace;
      const r = await executor().run(
        { argv: ['rg', '--line-number', '--no-heading', '--color', 'never', '--max-count', '50', '--max-filesize', '2M', '--', String(args.pattern), p], cwd: workspace, env: process.env, jail: { class: 'read', workspace }, limits: { timeoutMs: 30_000, outputCapBytes: 128 * 1024 } },
        ctx.signal,
      );
      if (r.exitCode === 1) return succeeded('No matches.');
      if (r.exitCode !== 0) return failed(`Search failed: ${r.stderr.text.trim() || `exit ${r.exitCode ?? r.signal}`}`);
      return succeeded(r.stdout.text);
    },
  };
}

type EditArgs = { path?: unknown; content?: unknown; old?: unknown; new?: unknown };

/** write_file (`kind: 'write'`) and edit_file (`kind: 'edit'`): a checkpoint of the workspace first. */
export function fileEditRunner(kind: 'write' | 'edit', paths: () => PathContext, checkpoints: Pick<CheckpointService, 'before'>): Runner<EditArgs> {
  return {
    preview: (args, cwd) => previewEdit(kind, args, cwd, paths()),
    async run(args, ctx: RunContext) {
      const p = pathOf(args.path, ctx.cwd, paths());
      const before = existsSync(p) ? readFileSync(p, 'utf8') : null;
      let content: string;
      if (kind === 'write') content = String(args.content);
      else {
        if (before === null) return failed(`${p} does not exist.`);
        const count = before.split(String(args.old)).length - 1;
        if (count !== 1) return failed(`The text to replace occurs ${count} times in ${p}; it must occur exactly once. Nothing was changed.`);
        content = before.replace(String(args.old), () => String(args.new));
      }
      const checkpoint = await checkpoints.before(paths().workspace, { sessionId: ctx.sessionId, callId: ctx.callId });
      // Unprompted at auto-edit only because it can be undone: not so for what the checkpoint does not hold.
      if (runsOnUndo(ctx.evaluation) && unheldCovering(p, checkpoint.unheld)) {
        return failed(`Refused: ${p} was not changed because ${UNHELD_REASON}. Ask the user before changing it.`);
      }
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
      return succeeded(`${kind === 'write' ? (before === null ? 'Created' : 'Wrote') : 'Edited'} ${p} (${Buffer.byteLength(content)} bytes).`);
    },
  };
}

/** A unified diff of what write_file or edit_file would do, for the approval card. */
function previewEdit(kind: 'write' | 'edit', args: EditArgs, cwd: string, paths: PathContext): string | null {
  const path = resolvePath(String(args.path ?? ''), cwd, paths);
  if (!path) return null;
  let before: string;
  try {
    before = existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : '';
  } catch {
    before = '';
  }
  let after: string;
  if (kind === 'write') after = String(args.content ?? '');
  else {
    const old = String(args.old ?? '');
    if (!old || before.split(old).length !== 2) return `(edit_file: the text to replace occurs ${old ? before.split(old).length - 1 : 0} times in ${relative(paths.workspace, path)}, so this edit would fail)`;
    after = before.replace(old, () => String(args.new ?? ''));
  }
  const name = relative(paths.workspace, path) || path;
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, { context: 3 }).split('\n').slice(2).join('\n');
}
