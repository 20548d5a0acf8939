// Checkpoints of a workspace in a shadow git repository kept in Threshold's data directory. The user's
// own .git, index and stash are never touched: every git command names the shadow repository and the
// work tree explicitly, with no user or system configuration and no hooks. Snapshots are incremental
// (git's index stat cache), honour the workspace's .gitignore, and leave out files above a size cap.
// Each snapshot also holds the workspace repository's history (see ./checkpoint-history.ts): refs,
// HEAD, stash, reflogs, the index, and every object file.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { isRegenerable } from '../common/regenerable';
import { gitRunner, type CommandRunner } from './checkpoints-runner';
import { HISTORY_EXCLUDES, historyDir, mirrorObjects, restoreObjects, userGitDir, ensureRepositoryShape } from './checkpoint-history';
import { readIndexEntries, treesOf } from './index-tree';

export interface Snapshot {
  commit: string;
  tree: string;
  /** Files in the snapshot. */
  files: number;
  /** Paths left out because of the size cap (ignored files are left out by .gitignore). */
  excluded: string[];
  /** Whether nothing changed since the previous snapshot. */
  unchanged: boolean;
  /** The workspace repository's history, when the workspace has a .git directory. */
  history: { tree: string; commit: string; objectsAdded: number } | null;
  /**
   * Workspace-relative paths the snapshot does not hold (ignored, over the cap; ignored folders as
   * one entry ending in /), outside the regenerable folders: the jail keeps these read-only.
   */
  unheld: string[];
  ms: number;
}

const HISTORY_TRAILER = /^Threshold-History: ([0-9a-f]{40,64})$/m;
const IGNORED_TRAILER = /^Threshold-Ignored: ([0-9a-f]{40,64})$/m;

export interface DiffResult {
  from: string;
  to: string;
  stat: string;
  patch: string;
  truncated: boolean;
}

const GIT_ENV_BASE: NodeJS.ProcessEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  LC_ALL: 'C',
};

export class GitError extends Error {}

/** The workspace is no longer the state a restore was checked against. */
export class WorkspaceChanged extends Error {
  constructor(
    readonly expected: string,
    readonly found: string,
  ) {
    super('The workspace changed while the restore was being prepared, so nothing was restored.');
    this.name = 'WorkspaceChanged';
  }
}

/** The id git gives a blob (SHA-1 of "blob <size>\0" and the bytes), without a process to ask. */
function gitBlobId(text: string): string {
  const body = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** A git object id and its loose-object bytes (SHA-1 repositories: what `git init` makes here). */
function looseObject(type: 'blob' | 'commit' | 'tree', body: Buffer): { id: string; bytes: Buffer } {
  const header = Buffer.from(`${type} ${body.length}\0`);
  return { id: createHash('sha1').update(header).update(body).digest('hex'), bytes: deflateSync(Buffer.concat([header, body]), { level: 1 }) };
}

/** The previous checkpoint, as this process last wrote or read it: no git process to ask again. */
interface Parent {
  commit: string;
  tree: string;
  body: string;
}

export class ShadowGit {
  readonly gitDir: string;
  /** Snapshots and restores of one workspace run one at a time (they share the shadow index). */
  private queue: Promise<unknown> = Promise.resolve();
  private parent: Parent | null = null;

  constructor(
    readonly workspace: string,
    baseDir: string,
    private readonly maxFileBytes = 10 * 1024 * 1024,
    /** Who starts the git processes: the shared runner, or (null, for comparison) the daemon itself. */
    private readonly runner: CommandRunner | null = gitRunner,
  ) {
    const id = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
    this.gitDir = join(baseDir, `${id}.git`);
  }

  private git(args: string[], opts: { input?: string; maxBuffer?: number; workTree?: string; index?: string } = {}): Promise<string> {
    const workTree = opts.workTree ?? this.workspace;
    const argv = ['git', '--git-dir', this.gitDir, '--work-tree', workTree, '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', ...args];
    const env: Record<string, string> = { ...(GIT_ENV_BASE as Record<string, string>), HOME: this.gitDir, ...(opts.index ? { GIT_INDEX_FILE: opts.index } : {}) };
    const failed = (stderr: string, fallback: string) => new GitError(`git ${args[0]} failed: ${stderr.trim() || fallback}`);
    const viaRunner = this.runner ? this.runner.run(argv, { cwd: workTree, env, ...(opts.input !== undefined ? { input: opts.input } : {}) }) : Promise.reject(new Error('no runner'));
    return viaRunner.then(
      (r) => {
        if (r.code !== 0) throw failed(r.stderr, `exit ${r.code}`);
        return r.stdout;
      },
      // The runner itself could not run it (it could not start, or stopped): a process of its own, then.
      () =>
        new Promise<string>((resolve, reject) => {
          const child = execFile(argv[0]!, argv.slice(1), { cwd: workTree, env: { ...env, PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => (err ? reject(failed(stderr, err.message)) : resolve(stdout)));
          if (opts.input !== undefined) child.stdin?.end(opts.input);
        }),
    );
  }

  private async ensure(): Promise<void> {
    if (existsSync(join(this.gitDir, 'HEAD'))) return;
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    await this.git(['init', '--quiet']);
    for (const [k, v] of [
      ['user.name', 'Threshold'],
      ['user.email', 'checkpoints@threshold.invalid'],
      ['core.autocrlf', 'false'],
      ['core.untrackedCache', 'true'],
      ['core.preloadIndex', 'true'],
      ['core.quotePath', 'false'],
      ['gc.auto', '0'],
      ['commit.gpgSign', 'false'],
      ['advice.addEmbeddedRepo', 'false'],
    ]) await this.git(['config', k!, v!]);
  }

  /** Leaves files above the size cap out of every snapshot, and says which. */
  private async excludeLargeFiles(): Promise<string[]> {
    const out = await this.git(['ls-files', '--others', '--exclude-standard', '-z']);
    const large: string[] = [];
    for (const rel of out.split('\0')) {
      if (!rel) continue;
      try {
        const st = lstatSync(join(this.workspace, rel));
        if (st.isFile() && st.size > this.maxFileBytes) large.push(rel);
      } catch {
        // vanished
      }
    }
    if (large.length) appendFileSync(join(this.gitDir, 'info', 'exclude'), large.map((p) => '/' + p.replace(/([*?[\\])/g, '\\$1')).join('\n') + '\n');
    return large;
  }

  excludedSoFar(): string[] {
    try {
      return readFileSync(join(this.gitDir, 'info', 'exclude'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('/'))
        .map((l) => l.slice(1));
    } catch {
      return [];
    }
  }

  private async head(): Promise<string | null> {
    // Threshold writes this ref itself and never packs refs: the file is the answer.
    try {
      const text = readFileSync(join(this.gitDir, 'refs', 'heads', 'checkpoints'), 'utf8').trim();
      if (/^[0-9a-f]{40}$/.test(text)) return text;
    } catch {
      // not there yet (or packed by someone else): ask git
    }
    try {
      return (await this.git(['rev-parse', '--verify', '--quiet', 'refs/heads/checkpoints'])).trim() || null;
    } catch {
      return null;
    }
  }

  /** The tree and message of a checkpoint commit: remembered, else read from its loose object, else from git. */
  private async parentOf(commit: string): Promise<Parent> {
    if (this.parent?.commit === commit) return this.parent;
    let raw: string | null = null;
    try {
      raw = inflateSync(readFileSync(join(this.gitDir, 'objects', commit.slice(0, 2), commit.slice(2)))).toString('utf8');
    } catch {
      // packed, or another object format: git reads it
    }
    const text = raw && raw.startsWith('commit ') ? raw.slice(raw.indexOf('\0') + 1) : await this.git(['cat-file', 'commit', commit]);
    const split = text.indexOf('\n\n');
    const tree = /^tree ([0-9a-f]+)$/m.exec(text.slice(0, split))?.[1] ?? '';
    return (this.parent = { commit, tree, body: split === -1 ? '' : text.slice(split + 2) });
  }

  /** Writes an object straight into the object store (as git does: a temporary file, then a link). */
  private writeObject(type: 'blob' | 'commit' | 'tree', body: Buffer): string {
    const { id, bytes } = looseObject(type, body);
    const dir = join(this.gitDir, 'objects', id.slice(0, 2));
    const path = join(dir, id.slice(2));
    if (existsSync(path)) return id;
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `tmp_obj_threshold_${randomBytes(6).toString('hex')}`);
    writeFileSync(temp, bytes, { mode: 0o444 });
    try {
      linkSync(temp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      rmSync(temp, { force: true });
    }
    return id;
  }

  private writeCommit(tree: string, parents: readonly string[], message: string, when: number): string {
    const who = `Threshold <checkpoints@threshold.invalid> ${Math.floor(when / 1000)} +0000`;
    const text = `tree ${tree}\n${parents.map((p) => `parent ${p}\n`).join('')}author ${who}\ncommitter ${who}\n\n${message.endsWith('\n') ? message : `${message}\n`}`;
    return this.writeObject('commit', Buffer.from(text, 'utf8'));
  }

  /**
   * `git write-tree` without the process: the shadow index's trees, computed and stored here (see
   * ./index-tree.ts). Null when the index is not the plain SHA-1 case; then git writes the tree.
   */
  private writeTreeHere(indexFile = join(this.gitDir, 'index')): string | null {
    let index: Buffer;
    try {
      if (/objectformat/i.test(readFileSync(join(this.gitDir, 'config'), 'utf8'))) return null;
      index = readFileSync(indexFile);
    } catch {
      return null;
    }
    const entries = readIndexEntries(index);
    if (!entries) return null;
    const { root, trees } = treesOf(entries);
    for (const t of trees) this.writeObject('tree', t.body);
    return root;
  }

  /** Points refs/heads/checkpoints at a commit (a new file renamed over the old: never half-written). */
  private setHead(commit: string): void {
    const ref = join(this.gitDir, 'refs', 'heads', 'checkpoints');
    mkdirSync(join(this.gitDir, 'refs', 'heads'), { recursive: true });
    const temp = `${ref}.threshold-${randomBytes(6).toString('hex')}`;
    writeFileSync(temp, `${commit}\n`);
    renameSync(temp, ref);
  }

  /** How many entries the shadow index holds (its header says so), else what git lists. */
  private async indexEntries(): Promise<number> {
    try {
      const fd = openSync(join(this.gitDir, 'index'), 'r');
      try {
        const header = Buffer.alloc(12);
        if (readSync(fd, header, 0, 12, 0) === 12 && header.toString('latin1', 0, 4) === 'DIRC') return header.readUInt32BE(8);
      } finally {
        closeSync(fd);
      }
    } catch {
      // no index yet
    }
    return (await this.git(['ls-files', '-z'])).split('\0').filter(Boolean).length;
  }

  snapshot(message: string): Promise<Snapshot> {
    const run = this.queue.then(() => this.takeSnapshot(message));
    this.queue = run.catch(() => undefined);
    return run;
  }

  // Independent work runs side by side: the listing of ignored paths, the repository history (its own
  // index) and the previous checkpoint, beside the size check, the add and the tree, which follow one
  // another. The ignored listing may read the shadow index before or after the add: the add never
  // tracks an ignored path (no --force), so it lists the same either way. The blob, commit and ref
  // are written here, not by more git processes.
  private async takeSnapshot(message: string): Promise<Snapshot> {
    const started = performance.now();
    await this.ensure();
    const staged = this.excludeLargeFiles().then(async (large) => {
      await this.addWorkspace();
      return { large, tree: this.writeTreeHere() ?? (await this.git(['write-tree'])).trim() };
    });
    const [{ large, tree }, ignoredFirst, history, parent] = await Promise.all([staged, this.ignoredPaths(), this.snapshotHistory(), this.head().then((h) => (h ? this.parentOf(h) : null))]);
    // A file found over the cap just now is ignored from now on: list again so that it counts.
    const ignored = large.length ? await this.ignoredPaths() : ignoredFirst;
    // What was ignored then is recorded, so that a restore never deletes it (see restore).
    const ignoredText = ignored.join('\0');
    const ignoredBlob = gitBlobId(ignoredText);
    const trailers = `${history ? `Threshold-History-Tree: ${history.tree}\n` : ''}Threshold-Ignored: ${ignoredBlob}\n`;
    let commit = parent?.commit ?? null;
    let histCommit = parent ? (HISTORY_TRAILER.exec(parent.body)?.[1] ?? null) : null;
    const unchanged = parent !== null && parent.tree === tree && parent.body.includes(trailers);
    if (!unchanged) {
      const sha1 = tree.length === 40;
      if (sha1) this.writeObject('blob', Buffer.from(ignoredText, 'utf8'));
      else await this.git(['hash-object', '-w', '--stdin'], { input: ignoredText });
      const now = Date.now();
      histCommit = history ? (sha1 ? this.writeCommit(history.tree, [], 'repository history', now) : (await this.git(['commit-tree', history.tree, '-m', 'repository history'])).trim()) : null;
      const body = `${message}\n\n${histCommit ? `Threshold-History: ${histCommit}\n` : ''}${trailers}`;
      // The history commit is a second parent so that it stays reachable in the shadow repository.
      const parents = [...(parent ? [parent.commit] : []), ...(histCommit ? [histCommit] : [])];
      if (sha1) {
        commit = this.writeCommit(tree, parents, body, now);
        this.setHead(commit);
      } else {
        commit = (await this.git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', body])).trim();
        await this.git(['update-ref', 'refs/heads/checkpoints', commit]);
      }
      this.parent = { commit, tree, body: body.endsWith('\n') ? body : `${body}\n` };
    }
    const files = await this.indexEntries();
    const unheld = ignored.filter((rel) => !isRegenerable(rel));
    return {
      commit: commit!,
      tree,
      files,
      excluded: this.excludedSoFar(),
      unchanged,
      history: history ? { tree: history.tree, commit: histCommit ?? '', objectsAdded: history.objectsAdded } : null,
      unheld,
      ms: Math.round(performance.now() - started),
    };
  }

  private async addWorkspace(): Promise<void> {
    await this.git(['add', '--all', '--ignore-errors', '--', '.']).catch((e: Error) => {
      // Unreadable files are left out (--ignore-errors), which git still reports as a failure.
      if (!/unable to index|could not open|Permission denied/.test(e.message)) throw e;
    });
  }

  /**
   * What the snapshot leaves out: ignored paths (a wholly ignored folder as one entry) and files over
   * the cap, minus the regenerable folders. Read-only in the jail so that what cannot be restored
   * cannot be changed unprompted.
   */
  async unheldPaths(): Promise<string[]> {
    return (await this.ignoredPaths()).filter((rel) => !isRegenerable(rel));
  }

  /** Everything the snapshot leaves out (ignored by .gitignore or by the cap), a wholly ignored folder as "dir/". */
  private async ignoredPaths(): Promise<string[]> {
    const out = await this.git(['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z']);
    return out.split('\0').filter(Boolean);
  }

  /** Mirrors the object files and stages refs, HEAD, stash, reflogs and the index into a tree. */
  private async snapshotHistory(): Promise<{ tree: string; objectsAdded: number } | null> {
    const userGit = userGitDir(this.workspace);
    if (!userGit) return null;
    const mirrored = mirrorObjects(join(userGit, 'objects'), join(historyDir(this.gitDir), 'objects'));
    await this.addHistory(userGit);
    const tree = this.writeTreeHere(this.historyIndex) ?? (await this.git(['write-tree'], { index: this.historyIndex })).trim();
    return { tree, objectsAdded: mirrored.added };
  }

  private get historyIndex(): string {
    return join(historyDir(this.gitDir), 'index');
  }

  private async addHistory(userGit: string): Promise<void> {
    mkdirSync(historyDir(this.gitDir), { recursive: true, mode: 0o700 });
    const excludes = HISTORY_EXCLUDES.map((p) => `:(exclude,glob)${p}`);
    await this.git(['add', '--all', '--force', '--ignore-errors', '--', '.', ...excludes], { workTree: userGit, index: this.historyIndex }).catch((e: Error) => {
      if (!/unable to index|could not open|Permission denied/.test(e.message)) throw e;
    });
  }

  private async historyCommitOf(commit: string): Promise<string | null> {
    return this.trailer(commit, HISTORY_TRAILER);
  }

  private async trailer(commit: string, re: RegExp): Promise<string | null> {
    const body = await this.git(['log', '-1', '--format=%B', commit]);
    return re.exec(body)?.[1] ?? null;
  }

  /** The tree of the workspace as it is now (staged into the shadow index, not committed). */
  async currentTree(): Promise<string> {
    await this.ensure();
    await this.excludeLargeFiles();
    await this.addWorkspace().catch(() => undefined);
    return (await this.git(['write-tree'])).trim();
  }

  /** The workspace's tree as it is now, computed in turn with snapshots and restores (they share the shadow index). */
  treeNow(): Promise<string> {
    const run = this.queue.then(() => this.currentTree());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Paths that differ between two trees or commits: A added, M modified (or type changed), D deleted, on the way from → to. */
  async changedFiles(from: string, to: string): Promise<{ path: string; change: 'A' | 'M' | 'D' }[]> {
    const out = await this.git(['diff', '--name-status', '--no-renames', '--no-color', '-z', from, to]);
    const parts = out.split('\0');
    const files: { path: string; change: 'A' | 'M' | 'D' }[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const status = parts[i]![0];
      files.push({ path: parts[i + 1]!, change: status === 'A' ? 'A' : status === 'D' ? 'D' : 'M' });
    }
    return files;
  }

  /** Paths no snapshot holds now (ignored by .gitignore, or over the size cap; an ignored folder as "dir/"). */
  leftOutNow(): Promise<string[]> {
    const run = this.queue.then(async () => {
      await this.ensure();
      return [...new Set([...(await this.ignoredPaths()), ...this.excludedSoFar()])].sort();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async diff(from: string, to: string, maxBytes = 256 * 1024): Promise<DiffResult> {
    const stat = await this.git(['diff', '--stat', '--no-color', from, to]);
    const patch = await this.git(['diff', '--no-color', '--no-ext-diff', from, to], { maxBuffer: 256 * 1024 * 1024 });
    const truncated = patch.length > maxBytes;
    return { from, to, stat, patch: truncated ? patch.slice(0, maxBytes) + `\n… ${patch.length - maxBytes} bytes omitted …\n` : patch, truncated };
  }

  /** What was ignored (or over the cap) when a snapshot was taken: a restore to it never deletes those paths. */
  async ignoredAt(commit: string): Promise<string[]> {
    const blob = await this.trailer(commit, IGNORED_TRAILER);
    if (!blob) return [];
    return (await this.git(['cat-file', 'blob', blob])).split('\0').filter(Boolean);
  }

  /**
   * A file that was ignored when the snapshot was taken is not "added since", even if it is no longer
   * ignored now (the call deleted or edited .gitignore): it is dropped from the shadow index before
   * the reset, so the reset leaves it on disk instead of deleting it.
   */
  private async keepWhatWasIgnored(commit: string): Promise<void> {
    const blob = await this.trailer(commit, IGNORED_TRAILER);
    if (!blob) return;
    const ignored = (await this.git(['cat-file', 'blob', blob])).split('\0').filter(Boolean);
    if (!ignored.length) return;
    const added = (await this.git(['diff', '--cached', '--name-only', '--no-renames', '--diff-filter=A', '-z', commit])).split('\0').filter(Boolean);
    const wasIgnored = (rel: string) => ignored.some((i) => (i.endsWith('/') ? rel.startsWith(i) : rel === i));
    const keep = added.filter(wasIgnored);
    if (keep.length) await this.git(['update-index', '--force-remove', '-z', '--stdin'], { input: keep.join('\0') });
  }

  /**
   * Makes the workspace match a snapshot: files changed since are restored, files added since are
   * removed. Files the snapshots leave out (ignored, too large) are not touched. The repository's
   * history comes back too: missing or altered object files, then refs, HEAD, stash, reflogs and the
   * index exactly as they were (refs and reflogs made since are removed).
   */
  restore(commit: string, expectTree?: string): Promise<void> {
    const run = this.queue.then(() => this.restoreNow(commit, expectTree));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * With `expectTree`: the workspace must still be exactly that tree (the safety checkpoint just taken of
   * it), or nothing is changed: whatever changed in between would be in no checkpoint, and the restore
   * could not be undone.
   */
  private async restoreNow(commit: string, expectTree?: string): Promise<void> {
    this.parent = null;
    const now = await this.currentTree();
    if (expectTree !== undefined && now !== expectTree) throw new WorkspaceChanged(expectTree, now);
    await this.keepWhatWasIgnored(commit);
    await this.git(['read-tree', '-u', '--reset', commit]);
    const hist = await this.historyCommitOf(commit);
    if (!hist) return;
    const userGit = join(this.workspace, '.git');
    if (existsSync(userGit) && !lstatSync(userGit).isDirectory()) throw new GitError(`${userGit} is no longer a directory, so the repository history cannot be restored into it.`);
    mkdirSync(userGit, { recursive: true });
    restoreObjects(join(historyDir(this.gitDir), 'objects'), join(userGit, 'objects'));
    // Stage what is there now, so that refs and reflogs made since the snapshot are removed.
    await this.addHistory(userGit);
    await this.git(['read-tree', '-u', '--reset', hist], { workTree: userGit, index: this.historyIndex });
    ensureRepositoryShape(userGit);
  }
}
