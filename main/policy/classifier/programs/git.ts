// git, by subcommand. Global options can carry code (-c alias.x=!cmd, -c core.pager=...), so they are
// judged before the subcommand.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { found, hasLong, hasShort, operands, optionValues, scanOptions, tableFor } from '../args';
import type { Analysis, Invocation } from '../types';
import { literalWord, writeValue, type Rule } from './helpers';
import { GIT_EXTENSION_READS, GIT_GLOBAL, GIT_READ_OPTIONS, type GitExtensionRead } from './git-options';
import { allGitRemotes, gitRemoteTargets, remoteTarget, type GitNetworkContext } from '../network/uses';
import { remoteSpec } from '../network/hosts';

const READ = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'rev-list', 'ls-files', 'ls-tree', 'cat-file', 'describe', 'shortlog',
  'blame', 'annotate', 'whatchanged', 'name-rev', 'merge-base', 'show-ref', 'for-each-ref', 'count-objects', 'fsck',
  'version', 'help', 'var', 'check-ignore', 'check-attr', 'check-ref-format', 'diff-tree', 'diff-index', 'diff-files',
  'cherry', 'range-diff', 'grep', 'verify-commit', 'verify-tag', 'show-branch', 'get-tar-commit-id', 'ls-remote-local',
  'column', 'interpret-trailers', 'patch-id', 'instaweb-status', 'bugreport-dry', 'verify-pack', 'show-index', 'check-mailmap',
]);

/**
 * Extensions git runs as `git-<name>` from PATH (git-extras, git-flow, git-annex …), when no alias takes the
 * name, and built-ins that reach a remote. Only what reaches further than writing is listed: an alias can
 * shadow an extension, so an unknown subcommand is never read, but one of these is at least its class.
 */
const GIT_EXTENSIONS: Readonly<Record<string, { cls: 'network' | 'install' | 'destructive'; why: string }>> = {
  browse: { cls: 'network', why: 'opens the remote in a browser' }, 'browse-ci': { cls: 'network', why: 'opens the CI page in a browser' },
  bug: { cls: 'network', why: 'syncs bug reports with a remote' }, 'create-branch': { cls: 'network', why: 'creates a branch on the remote too' },
  feature: { cls: 'network', why: 'pushes feature branches' }, flow: { cls: 'network', why: 'pushes and pulls git-flow branches' },
  'force-clone': { cls: 'network', why: 'clones over an existing folder' }, fork: { cls: 'network', why: 'forks a repository on GitHub and clones it' },
  'gh-pages': { cls: 'network', why: 'pushes a gh-pages branch' }, 'ignore-io': { cls: 'network', why: 'fetches templates from gitignore.io' },
  magic: { cls: 'network', why: 'commits and may push' }, 'merge-repo': { cls: 'network', why: 'merges another repository' }, mr: { cls: 'network', why: 'fetches merge requests' },
  pr: { cls: 'network', why: 'fetches pull requests' }, paste: { cls: 'network', why: 'uploads patches to a pastebin' }, 'pull-request': { cls: 'network', why: 'opens a pull request' },
  release: { cls: 'network', why: 'tags and pushes a release' }, 'request-pull': { cls: 'network', why: 'checks the remote for the branch' }, rscp: { cls: 'network', why: 'copies files from a remote' },
  scp: { cls: 'network', why: 'copies files to a remote' }, subtree: { cls: 'network', why: 'adds, pulls or pushes another repository' }, sync: { cls: 'network', why: 'fetches and resets to the remote' },
  annex: { cls: 'network', why: 'moves large files to and from remotes' }, daemon: { cls: 'network', why: 'serves repositories to the network' },
  extras: { cls: 'install', why: 'updates git-extras itself' },
  clear: { cls: 'destructive', why: 'deletes every untracked and ignored file' }, 'delete-branch': { cls: 'destructive', why: 'deletes branches locally and on the remote' },
  'delete-squashed-branches': { cls: 'destructive', why: 'force-deletes branches' }, 'delete-tag': { cls: 'destructive', why: 'deletes a tag locally and on the remote' },
  'rename-tag': { cls: 'destructive', why: 'deletes the old tag on the remote' }, 'filter-repo': { cls: 'destructive', why: 'rewrites history and expires the reflogs' },
  obliterate: { cls: 'destructive', why: 'rewrites history to erase files' },
};
const WRITE = new Set([
  'add', 'commit', 'reset', 'checkout', 'switch', 'restore', 'merge', 'rebase', 'cherry-pick', 'revert', 'rm', 'mv',
  'clean', 'init', 'apply', 'am', 'gc', 'prune', 'repack', 'pack-refs', 'update-index', 'update-ref', 'symbolic-ref',
  'read-tree', 'write-tree', 'commit-tree', 'checkout-index', 'replace', 'sparse-checkout', 'mktag', 'mktree',
  'hash-object', 'unpack-objects', 'prune-packed', 'multi-pack-index', 'commit-graph', 'fast-import', 'rerere',
  'format-patch', 'merge-file', 'merge-tree', 'notes', 'stash', 'worktree', 'tag', 'branch', 'reflog', 'bundle',
  'archive', 'mailsplit', 'fast-export', 'backfill', 'scalar',
]);
const NETWORK = new Set(['fetch', 'pull', 'push', 'clone', 'ls-remote', 'send-email', 'svn', 'p4', 'cvsimport', 'remote-ext', 'fetch-pack', 'send-pack', 'http-fetch', 'http-push', 'submodule', 'lfs']);
/** Subcommands that run programs the user configured or named. */
const RUNS_TOOLS = new Set(['for-each-repo', 'mergetool', 'difftool', 'bisect', 'filter-branch', 'filter-repo', 'daemon', 'instaweb', 'web--browse', 'credential', 'credential-store', 'credential-cache', 'maintenance', 'hook']);

/** Config keys whose value is a command git runs (through the shell), or that point git at code. */
const CODE_KEYS = /^(alias\..+|core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy|attributesfile|excludesfile)|diff\..+\.(command|textconv)|diff\.external|filter\..+\.(clean|smudge|process)|merge\..+\.driver|credential(\..+)?\.helper|gpg(\..+)?\.program|sequence\.editor|pager\..+|interactive\.difffilter|include\.path|includeif\..+|uploadpack\.packobjectshook|protocol\..+\.allow|remote\..+\.(uploadpack|receivepack|proxy)|http\.proxy|sendemail\..+|web\.browser|browser\..+\.cmd|man\..+\.cmd|gui\..+|guitool\..+|mergetool\..+\.cmd|difftool\..+\.cmd|ssh\.variant|fetch\.fsck.*|receive\.procreceiverefs|hook\..+)$/i;

function judgeConfigPair(pair: string, literal: boolean, a: Analysis, via: string): void {
  const eq = pair.indexOf('=');
  const key = eq === -1 ? pair : pair.slice(0, eq);
  const value = eq === -1 ? '' : pair.slice(eq + 1);
  if (!CODE_KEYS.test(key)) return;
  if (!literal) {
    a.markDynamic(`${via} sets ${key} to a value computed at run time`);
    return;
  }
  if (/^alias\./i.test(key)) {
    if (value.startsWith('!')) {
      a.raise('write', `${via} defines the alias ${key.slice(6)} as a shell command`, ['command_exec']);
      a.runCode(value.slice(1), `git alias ${key.slice(6)}`);
    }
    return;
  }
  if (/^core\.fsmonitor$/i.test(key) && !/^(true|false|yes|no|on|off|0|1)$/i.test(value)) {
    a.raise('write', `${via} sets core.fsmonitor to a command git runs on every status`, ['command_exec']);
    a.runCode(value, 'git core.fsmonitor');
    return;
  }
  if (/^(core\.hookspath|include\.path|includeif\.)/i.test(key)) {
    a.raise('write', `${via} points git at code to run (${key})`, SHELL_REACHABLE_EFFECTS);
    return;
  }
  if (/^protocol\..+\.allow$/i.test(key)) {
    a.raise('write', `${via} enables the ${key} transport, which can run commands`, SHELL_REACHABLE_EFFECTS);
    return;
  }
  a.raise('write', `${via} sets ${key}, a command git runs`, ['command_exec']);
  if (/credential(\..+)?\.helper$/i.test(key) && !value.startsWith('!') && !value.includes('/') && !value.includes(' ')) return; // git credential-<name>
  const code = value.replace(/^!/, '');
  if (code) a.runCode(code, `git ${key}`);
}

// ── Discarding history: destructive at every level ────────────────────────────────────────────────
// What these drop is what `git reflog` and a dangling commit would otherwise still hold: a person
// decides each one (the checkpoint holds the history too, but these are the commands whose purpose is
// to make it unrecoverable).

/** Why a git subcommand discards history, or null. `rest` is the argv after the subcommand. */
export function discardsHistory(sub: string, rest: readonly string[], config: readonly string[] = []): string | null {
  const verb = rest.find((x) => !x.startsWith('-'));
  switch (sub) {
    case 'branch':
      if (hasShort(rest, 'D') || ((hasShort(rest, 'd') || hasLong(rest, ['delete'])) && (hasShort(rest, 'f') || hasLong(rest, ['force'])))) {
        return 'force-deletes a branch, discarding its commits when no other ref holds them (history)';
      }
      if (hasShort(rest, 'MC') || ((hasShort(rest, 'mc') || hasLong(rest, ['move', 'copy'])) && (hasShort(rest, 'f') || hasLong(rest, ['force'])))) {
        return 'force-renames or copies over an existing branch, discarding the commits it held (history)';
      }
      return null;
    case 'stash':
      if (verb === 'clear') return 'clears every stash entry (stashed changes are history that git keeps nowhere else)';
      if (verb === 'drop') return 'drops a stash entry (stashed changes are history that git keeps nowhere else)';
      return null;
    case 'reflog':
      if (verb === 'expire' || verb === 'delete') return `${verb === 'expire' ? 'expires' : 'deletes'} reflog entries, the record that lets lost commits be found again`;
      return null;
    case 'gc': {
      const prune = rest.find((x) => /^--pru/.test(x) || x === '--prune');
      if (prune && !/=never$/.test(prune)) return 'prunes unreachable objects, discarding commits that no ref or reflog holds';
      // git -c gc.reflogExpire=now gc: the same, through configuration.
      if (config.some((pair) => /^gc\.(.*expire.*)=(?!never$)/i.test(pair))) return 'expires reflogs and prunes objects early (gc.*Expire set on the command line), discarding history';
      return null;
    }
    case 'prune':
      return 'deletes unreachable objects, discarding commits that no ref or reflog holds';
    case 'clean':
      if (hasShort(rest, 'xX')) return 'deletes ignored files too (-x/-X), which git keeps no copy of';
      // -e '!pattern' re-includes ignored files, so clean deletes them as if they were untracked.
      if ([...optionValues(rest, 'e', ['exclude'])].some((p) => p.startsWith('!'))) return 'deletes ignored files too (a negated -e pattern), which git keeps no copy of';
      return null;
  }
  return null;
}

function analyzeGit(inv: Invocation, a: Analysis): void {
  const discarded: { why: string | null } = { why: null };
  analyzeSubcommand(inv, a, discarded);
  // Raised last, so that the card names it (the segment's last reason is the one shown).
  if (discarded.why) a.raise('destructive', discarded.why, ['destructive', 'file_delete']);
}

// The two helpers below are module functions rather than closures in analyzeSubcommand: tsx (the bench,
// the tests) keeps function names, which costs a defineProperty for every closure it creates.

/** Raises what a git subcommand does; a read path keeps only the options its table lists (git-options.ts), any other makes it at least write. */
/** Forms of writing subcommands that only read: `git clean -n`, `git reflog show`, `git hash-object` without -w. */
function readForm(sub: string, rest: readonly string[]): boolean {
  const ops = rest.filter((x) => !x.startsWith('-'));
  switch (sub) {
    case 'clean':
    case 'prune':
      return rest.some((x) => x === '--dry-run' || /^-[a-zA-Z]*n/.test(x)) && !rest.some((x) => /^-[a-zA-Z]*[fi]/.test(x) && x !== '-n');
    case 'hash-object':
      return !rest.includes('-w');
    case 'fast-export':
      return !rest.some((x) => x.startsWith('--export-marks') || x.startsWith('--import-marks'));
    case 'symbolic-ref':
      return ops.length === 1 && !rest.some((x) => x === '-d' || x === '--delete' || x === '-m');
    case 'reflog':
      return ops.length === 0 || ops[0] === 'show' || !['expire', 'delete', 'exists', 'drop', 'write'].includes(ops[0]!);
    case 'rerere':
      return ['status', 'diff', 'remaining'].includes(ops[0] ?? '');
    case 'lfs':
      return (['track', 'untrack'].includes(ops[0] ?? '') && ops.length === 1 && ops[0] === 'track') || ['ls-files', 'status', 'env', 'version', 'logs', 'locks-dry'].includes(ops[0] ?? '');
    case 'bisect':
      return ['log', 'visualize', 'view', 'terms', 'help'].includes(ops[0] ?? '');
    case 'difftool':
    case 'mergetool':
      return rest.length === 1 && rest[0] === '--tool-help';
  }
  return false;
}

/** The read form of a third-party git command this invocation is in, or null (git-options.ts). */
function extensionReadForm(sub: string, rest: readonly string[]): GitExtensionRead | null {
  const ext = Object.hasOwn(GIT_EXTENSION_READS, sub) ? GIT_EXTENSION_READS[sub]! : null;
  if (!ext) return null;
  const dashes = rest.indexOf('--');
  const own = dashes === -1 ? rest : rest.slice(0, dashes);
  const scan = scanOptions(own, tableFor(ext.options));
  if (scan.unknown.length) return null;
  if (ext.need && !found(scan, ...ext.need)) return null;
  const ops = scan.operands.map((i) => own[i]!);
  if (ext.verbs && !ext.verbs.includes(ops.shift() ?? '')) return null;
  if (ext.max !== 'any' && ops.length > ext.max) return null;
  if (dashes !== -1) {
    const log = rest.slice(dashes + 1);
    if (!ext.logArgs || log.some((x) => x.startsWith('-') && !ext.logArgs!.test(x))) return null;
  }
  return ext;
}

function judgeSubcommand(a: Analysis, sub: string, restInv: Invocation, cls: 'read' | 'write' | 'network' | 'destructive', why: string, effects: readonly string[] = []): void {
  a.raise(cls, `git ${sub} ${why}`, effects as never);
  if (cls === 'read') a.options(restInv, GIT_READ_OPTIONS[sub] ?? '', `git ${sub}`);
}

/** The remote a fetch, pull, push or ls-remote names (its first operand), or null for the default. */
function remoteOperand(restInv: Invocation, valueOptions: { short?: string; long?: readonly string[] }): { remote: string | null; literal: boolean } {
  const rest = restInv.argv;
  const ops = operands(rest, valueOptions);
  if (ops[0] === undefined) return { remote: null, literal: true };
  return { remote: rest[ops[0]]!, literal: restInv.args[ops[0]]!.literal };
}

function analyzeSubcommand(inv: Invocation, a: Analysis, discarded: { why: string | null }): void {
  const argv = inv.argv;
  let i = 0;
  let cwd = inv.cwd;
  const config: string[] = [];
  a.options(inv, GIT_GLOBAL, 'git');
  // Global options.
  while (i < argv.length && argv[i]!.startsWith('-')) {
    const opt = argv[i]!;
    if (opt.startsWith('-c')) {
      a.raise('write', 'git -c sets configuration for this call, and configuration can run programs', SHELL_REACHABLE_EFFECTS);
      // -c key=value or -ckey=value.
      const attached = opt.length > 2;
      const pair = attached ? opt.slice(2) : argv[i + 1] ?? '';
      config.push(pair);
      judgeConfigPair(pair, (attached ? inv.args[i]?.literal : inv.args[i + 1]?.literal) ?? false, a, 'git -c');
      i += attached ? 1 : 2;
      continue;
    }
    if (opt.startsWith('--config-env')) {
      a.markDynamic('git --config-env takes configuration from the environment');
      i += opt.includes('=') ? 1 : 2;
      continue;
    }
    if (opt === '-C') {
      const dir = argv[i + 1];
      if (dir !== undefined && inv.args[i + 1]!.literal && cwd !== null) cwd = dir.startsWith('/') ? dir : `${cwd}/${dir}`;
      else cwd = null;
      i += 2;
      continue;
    }
    if (/^--(exec-path|git-dir|work-tree|namespace|super-prefix|list-cmds|attr-source)=/.test(opt)) {
      if (opt.startsWith('--exec-path=')) a.raise('write', 'git --exec-path runs git subcommands from another directory', SHELL_REACHABLE_EFFECTS);
      i++;
      continue;
    }
    if (['--git-dir', '--work-tree', '--namespace', '--exec-path'].includes(opt)) {
      if (opt === '--exec-path' && argv[i + 1] && !argv[i + 1]!.startsWith('-')) a.raise('write', 'git --exec-path runs git subcommands from another directory', SHELL_REACHABLE_EFFECTS);
      i += 2;
      continue;
    }
    if (opt === '--version' || opt === '--help' || opt === '-h') return;
    i++;
  }
  // On a case-insensitive filesystem git finds git-stash for `git Stash` (the dashed programs).
  const sub = a.ctx.caseInsensitiveNames ? argv[i]?.toLowerCase() : argv[i];
  if (sub === undefined) return;
  if (!inv.args[i]!.literal) {
    a.markDynamic('the git subcommand is computed at run time');
    return;
  }
  const rest = argv.slice(i + 1);
  const restInv: Invocation = { ...inv, argv: rest, args: inv.args.slice(i + 1), cwd };
  const net: GitNetworkContext = { files: a.files, cwd, overridden: config.length > 0 || argv.slice(0, i).some((x) => /^--(git-dir|config-env|exec-path)/.test(x)) };
  // `git <sub> --help` shows the manual page (git help <sub>), like man; some forms of writing
  // subcommands only read (`git clean -n`, `git reflog show`): judged before anything else.
  if (config.length === 0 && rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) return void a.raise('read', `git ${sub} ${rest[0]} shows its manual`);
  if (config.length === 0 && readForm(sub, rest)) return judgeSubcommand(a, sub, restInv, 'read', 'reads the repository (this form writes nothing)');
  const discards = discardsHistory(sub, rest, config);
  if (discards) discarded.why = `git ${sub} ${discards}`;

  switch (sub) {
    case 'branch': {
      const mutating = hasShort(rest, 'dDmMcCu') || hasLong(rest, ['delete', 'move', 'copy', 'set-upstream-to', 'unset-upstream', 'edit-description', 'force', 'track']);
      const listing = hasShort(rest, 'alrv') || hasLong(rest, ['list', 'all', 'remotes', 'contains', 'merged', 'no-merged', 'points-at', 'show-current', 'format', 'sort', 'verbose']);
      const names = operands(rest, { long: ['contains', 'merged', 'no-merged', 'points-at', 'format', 'sort', 'set-upstream-to'] });
      if (mutating || (!listing && names.length > 0)) judgeSubcommand(a, sub, restInv, 'write', 'changes branches', ['file_write']);
      else judgeSubcommand(a, sub, restInv, 'read', 'lists branches');
      return;
    }
    case 'tag': {
      const names = operands(rest, { short: 'mFun', long: ['message', 'file', 'contains', 'points-at', 'sort', 'format'] });
      const listing = hasShort(rest, 'ln') || hasLong(rest, ['list', 'contains', 'points-at', 'verify']);
      if (!listing && (names.length > 0 || hasShort(rest, 'daf'))) judgeSubcommand(a, sub, restInv, 'write', 'creates or deletes tags', ['file_write']);
      else judgeSubcommand(a, sub, restInv, 'read', 'lists tags');
      return;
    }
    case 'remote': {
      const action = operands(rest)[0];
      const verb = action === undefined ? undefined : rest[action];
      if (verb === undefined || verb === 'get-url') judgeSubcommand(a, sub, restInv, 'read', 'lists remotes');
      else if (verb === 'show' || verb === 'update' || verb === 'prune') {
        judgeSubcommand(a, sub, restInv, 'network', 'contacts the remote', ['network']);
        const named = rest.slice(action! + 1).filter((x) => !x.startsWith('-'));
        a.network({ kind: 'download', hosts: named.length && verb !== 'update' ? named.flatMap((n) => gitRemoteTargets(net, n, false)) : allGitRemotes(net), reason: `git remote ${verb} asks the remotes what they hold` });
      }
      else judgeSubcommand(a, sub, restInv, 'write', 'changes remote configuration', ['file_write']);
      return;
    }
    case 'config': {
      // -e/--edit opens an editor (core.editor, GIT_EDITOR, VISUAL, EDITOR) on the file: a program runs.
      if (hasShort(rest, 'e') || hasLong(rest, ['edit']) || rest[0] === 'edit') {
        const global = hasLong(rest, ['global', 'system']);
        judgeSubcommand(a, sub, restInv, global ? 'destructive' : 'write', `opens an editor on ${global ? 'the configuration outside the workspace' : 'the repository configuration'}`, global ? ['destructive', ...SHELL_REACHABLE_EFFECTS] : SHELL_REACHABLE_EFFECTS);
        return;
      }
      const reading = hasShort(rest, 'l') || hasLong(rest, ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'list', 'show-origin', 'show-scope', 'get-color', 'get-colorbool']) || rest[0] === 'get' || rest[0] === 'list';
      const ops = operands(rest, { short: 'f', long: ['file', 'blob', 'type', 'default'] });
      if (reading || ops.length <= 1) {
        judgeSubcommand(a, sub, restInv, 'read', 'reads configuration');
        return;
      }
      const global = hasLong(rest, ['global', 'system']);
      const key = rest[ops[0] === undefined ? 0 : rest[ops[0]!] === 'set' ? ops[1]! : ops[0]!] ?? '';
      const valueIndex = ops[ops.length - 1]!;
      if (global) judgeSubcommand(a, sub, restInv, 'destructive', 'changes configuration outside the workspace (~/.gitconfig or /etc/gitconfig)', ['file_write', 'destructive']);
      if (CODE_KEYS.test(key)) {
        judgeSubcommand(a, sub, restInv, 'write', `sets ${key}, configuration that runs code later outside the jail`, ['file_write', 'capability_change']);
        if (/^alias\./i.test(key) && rest[valueIndex]?.startsWith('!')) a.runCode(rest[valueIndex]!.slice(1), `git alias ${key.slice(6)}`);
      } else judgeSubcommand(a, sub, restInv, 'write', 'changes configuration', ['file_write']);
      for (const f of optionValues(rest, 'f', ['file'])) writeValue(restInv, a, f);
      return;
    }
    case 'stash': {
      const verb = rest[0];
      if (verb === 'list' || verb === 'show') judgeSubcommand(a, sub, restInv, 'read', 'lists stashes');
      else judgeSubcommand(a, sub, restInv, 'write', 'changes the stash and the working tree', ['file_write']);
      return;
    }
    case 'worktree':
    case 'notes':
    case 'reflog':
    case 'bundle': {
      const verb = rest[0];
      const readVerbs = sub === 'worktree' ? ['list'] : sub === 'notes' ? ['list', 'show', 'get-ref'] : sub === 'reflog' ? ['show', 'exists', undefined] : ['verify', 'list-heads'];
      if (readVerbs.includes(verb) || (sub === 'reflog' && verb?.startsWith('-'))) judgeSubcommand(a, sub, restInv, 'read', 'reads');
      else judgeSubcommand(a, sub, restInv, 'write', 'changes the repository', ['file_write']);
      return;
    }
    case 'submodule': {
      const verb = rest.find((x) => !x.startsWith('-'));
      if (verb === undefined || verb === 'status' || verb === 'summary' || verb === 'foreach-dry') judgeSubcommand(a, sub, restInv, 'read', 'lists submodules');
      else if (verb === 'foreach') {
        judgeSubcommand(a, sub, restInv, 'write', 'runs a command in every submodule', ['command_exec']);
        const codeIndex = rest.indexOf('foreach') + 1;
        const code = restInv.args.slice(codeIndex).filter((w) => !w.value.startsWith('--'));
        if (code.length === 1) a.runCode(code[0]!, 'git submodule foreach');
        else if (code.length > 1) a.runCode(code.map((w) => w.value).join(' '), 'git submodule foreach');
      } else {
        judgeSubcommand(a, sub, restInv, 'network', 'fetches submodules', ['network', 'file_write']);
        a.network({ kind: 'download', hosts: [{ host: null, why: 'the submodules\' remotes are in .gitmodules, which the classifier does not read' }], reason: 'git submodule fetches submodules' });
      }
      return;
    }
    case 'archive': {
      if (hasLong(rest, ['remote'])) {
        judgeSubcommand(a, sub, restInv, 'network', 'fetches an archive from a remote', ['network']);
        a.network({ kind: 'download', hosts: optionValues(rest, '', ['remote']).flatMap((r) => gitRemoteTargets(net, r, false)), reason: 'git archive --remote fetches an archive' });
      }
      const outs = optionValues(rest, 'o', ['output']);
      if (outs.length) {
        judgeSubcommand(a, sub, restInv, 'write', 'writes an archive', ['file_write']);
        for (const o of outs) writeValue(restInv, a, o);
      } else judgeSubcommand(a, sub, restInv, 'read', 'prints an archive');
      if (hasLong(rest, ['exec'])) judgeSubcommand(a, sub, restInv, 'write', 'runs a program on the remote side', SHELL_REACHABLE_EFFECTS);
      return;
    }
    case 'format-patch':
      if (hasLong(rest, ['stdout'])) judgeSubcommand(a, sub, restInv, 'read', 'prints patches');
      else judgeSubcommand(a, sub, restInv, 'write', 'writes patch files', ['file_write']);
      return;
    case 'push': {
      judgeSubcommand(a, sub, restInv, 'network', 'sends commits to a remote', ['network']);
      {
        const { remote, literal } = remoteOperand(restInv, { short: 'o', long: ['repo', 'receive-pack', 'exec', 'push-option', 'signed', 'force-with-lease'] });
        const repo = optionValues(rest, '', ['repo'])[0] ?? remote;
        const hosts = !literal ? [{ host: null, why: 'the remote is only known at run time' }] : hasLong(rest, ['all', 'mirror']) || repo !== null ? gitRemoteTargets(net, repo, true) : gitRemoteTargets(net, null, true);
        const where = hosts.map((h) => h.host ?? 'an unknown host').filter((h, k, all) => all.indexOf(h) === k).join(', ');
        a.network({ kind: 'upload', hosts, reason: `git push sends commits to ${where}, an upload` });
      }
      const force = hasShort(rest, 'fd') || hasLong(rest, ['force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune']);
      const refspecs = operands(rest, { short: 'o', long: ['repo', 'receive-pack', 'exec', 'push-option', 'signed'] }).slice(1).map((k) => rest[k]!);
      if (force || refspecs.some((r) => r.startsWith('+') || r.startsWith(':'))) {
        judgeSubcommand(a, sub, restInv, 'destructive', 'rewrites or deletes history on the remote (force, delete or mirror)', ['destructive']);
      }
      if (hasLong(rest, ['receive-pack', 'exec'])) judgeSubcommand(a, sub, restInv, 'write', 'runs a program on the remote side', SHELL_REACHABLE_EFFECTS);
      return;
    }
    case 'clone':
    case 'fetch':
    case 'pull':
    case 'ls-remote': {
      judgeSubcommand(a, sub, restInv, 'network', 'contacts a remote', ['network', sub === 'ls-remote' ? 'file_read' : 'file_write']);
      {
        const valueOptions = { short: 'objcuj', long: ['origin', 'branch', 'config', 'reference', 'reference-if-able', 'depth', 'deepen', 'shallow-since', 'shallow-exclude', 'upload-pack', 'template', 'separate-git-dir', 'jobs', 'filter', 'refmap', 'negotiation-tip', 'server-option', 'bundle-uri', 'recurse-submodules-default', 'strategy', 'strategy-option', 'gpg-sign', 'cleanup'] };
        const { remote, literal } = remoteOperand(restInv, valueOptions);
        let hosts;
        if (!literal) hosts = [{ host: null as null, why: 'the remote is only known at run time' }];
        else if (sub === 'clone') {
          const t = remote === null ? { host: null as null, why: 'git clone names no source' } : net.overridden ? { host: null as null, why: 'git -c changes configuration for this call, which can point a remote anywhere' } : remoteTarget(remoteSpec(remote), a.files);
          hosts = t ? gitRemoteTargets(net, remote, false) : [];
        } else if (hasLong(rest, ['all', 'multiple'])) hosts = hasLong(rest, ['multiple']) ? operands(rest, valueOptions).flatMap((k) => gitRemoteTargets(net, rest[k]!, false)) : allGitRemotes(net);
        else hosts = gitRemoteTargets(net, remote, false);
        for (const b of optionValues(rest, '', ['bundle-uri'])) hosts.push(...gitRemoteTargets(net, b, false));
        if (hasLong(rest, ['recurse-submodules'])) hosts.push({ host: null, why: 'the submodules\' remotes are in .gitmodules, which the classifier does not read' });
        // A clone of a local path reaches no network: nothing to record.
        if (hosts.length) a.network({ kind: 'download', hosts, reason: `git ${sub} fetches from ${hosts.map((h) => h.host ?? 'an unknown host').join(', ')}` });
      }
      if (hasLong(rest, ['upload-pack', 'config', 'template', 'recurse-submodules']) || hasShort(rest, 'uc')) {
        for (const v of optionValues(rest, 'c', ['config'])) judgeConfigPair(v, true, a, `git ${sub} --config`);
        if (hasLong(rest, ['upload-pack']) || hasShort(rest, 'u')) judgeSubcommand(a, sub, restInv, 'write', 'runs a program named in --upload-pack', SHELL_REACHABLE_EFFECTS);
        if (hasLong(rest, ['template'])) judgeSubcommand(a, sub, restInv, 'write', 'installs hooks from a template directory', ['capability_change']);
      }
      if (rest.some((r) => /^ext::/.test(r))) judgeSubcommand(a, sub, restInv, 'destructive', 'uses the ext:: transport, which runs a shell command', SHELL_REACHABLE_EFFECTS);
      if (sub === 'clone') {
        const dests = operands(rest, { short: 'obcju', long: ['origin', 'branch', 'config', 'reference', 'depth', 'upload-pack', 'template', 'separate-git-dir', 'jobs', 'filter'] });
        if (dests.length >= 2) a.write(rest[dests[1]!]!, restInv.args[dests[1]!]!.literal, cwd, 'clones into');
      }
      return;
    }
    case 'clean':
      judgeSubcommand(a, sub, restInv, 'write', 'deletes untracked files', ['file_write', 'file_delete']);
      return;
    case 'reset':
    case 'checkout':
    case 'restore':
      judgeSubcommand(a, sub, restInv, 'write', 'changes the working tree', ['file_write']);
      return;
    case 'diff':
    case 'log':
    case 'show':
      if (hasLong(rest, ['output'])) {
        judgeSubcommand(a, sub, restInv, 'write', 'writes its output to a file', ['file_write']);
        for (const o of optionValues(rest, '', ['output'])) writeValue(restInv, a, o);
      } else if (hasLong(rest, ['ext-diff', 'textconv'])) judgeSubcommand(a, sub, restInv, 'write', 'runs configured external diff programs', ['command_exec']);
      else judgeSubcommand(a, sub, restInv, 'read', 'reads history');
      return;
    case 'grep':
      if (hasShort(rest, 'O') || hasLong(rest, ['open-files-in-pager'])) judgeSubcommand(a, sub, restInv, 'write', 'opens results in a program', SHELL_REACHABLE_EFFECTS);
      else judgeSubcommand(a, sub, restInv, 'read', 'searches tracked files');
      return;
    case 'bisect':
      if (rest[0] === 'run') {
        judgeSubcommand(a, sub, restInv, 'write', 'runs a command at every step', ['command_exec']);
        a.runArgv(restInv.args.slice(1), 'git bisect run');
      } else judgeSubcommand(a, sub, restInv, 'write', 'moves the working tree between commits', ['file_write']);
      return;
    case 'rebase':
      if (hasShort(rest, 'x') || hasLong(rest, ['exec'])) {
        judgeSubcommand(a, sub, restInv, 'write', 'runs a command after each commit', ['command_exec']);
        for (const c of optionValues(rest, 'x', ['exec'])) a.runCode(c, 'git rebase --exec');
      } else judgeSubcommand(a, sub, restInv, 'write', 'rewrites commits', ['file_write']);
      return;
    case 'commit':
      judgeSubcommand(a, sub, restInv, 'write', 'records a commit', ['file_write']);
      return;
  }
  if (READ.has(sub)) return judgeSubcommand(a, sub, restInv, 'read', 'reads the repository');
  if (WRITE.has(sub)) return judgeSubcommand(a, sub, restInv, 'write', 'changes the repository', ['file_write']);
  if (NETWORK.has(sub)) {
    a.network({ kind: sub.includes('push') || sub === 'send-email' ? 'upload' : 'connect', hosts: [{ host: null, why: `git ${sub} reaches a remote the classifier does not resolve` }], reason: `git ${sub} contacts a remote` });
    return judgeSubcommand(a, sub, restInv, 'network', 'contacts a remote', ['network']);
  }
  const extension = GIT_EXTENSIONS[sub];
  const extensionRead = config.length === 0 ? extensionReadForm(sub, rest) : null;
  if (extensionRead) {
    a.raise('read', `git ${sub} ${extensionRead.what}`);
    a.options(restInv, extensionRead.options, `git ${sub}`);
    return;
  }
  if (RUNS_TOOLS.has(sub)) {
    if (sub === 'maintenance' && ['start', 'register', 'schedule'].includes(rest[0] ?? '')) {
      return judgeSubcommand(a, sub, restInv, 'destructive', 'installs a scheduled job (cron, systemd or launchd) that runs outside the jail', ['destructive', 'capability_change']);
    }
    judgeSubcommand(a, sub, restInv, 'write', 'runs configured or named programs', SHELL_REACHABLE_EFFECTS);
  } else {
    // Could be an alias defined in configuration, which can run anything.
    a.raise('write', `git ${sub} is not a subcommand the classifier knows (it could be an alias that runs anything)`, SHELL_REACHABLE_EFFECTS);
  }
  if (extension) a.raise(extension.cls, `git ${sub} ${extension.why}`, [extension.cls === 'install' ? 'install' : extension.cls, 'network']);
  // git magic -f pushes with --force.
  if (sub === 'magic' && rest.some((x) => /^-[a-z]*f/.test(x))) a.raise('destructive', 'git magic -f force-pushes', ['destructive']);
  // git for-each-repo --config=<key> <git arguments>: runs `git <arguments>` in every repository the key lists.
  if (sub === 'for-each-repo') {
    const start = rest.findIndex((x, i) => !x.startsWith('-') && !(rest[i - 1] === '--config'));
    if (start !== -1) a.runArgv([literalWord('git'), ...restInv.args.slice(start)], 'git for-each-repo');
  }
}

export const gitRules: Rule[] = [
  {
    names: ['git'],
    base: 'read',
    effects: ['file_read'],
    what: 'works with a git repository',
    readsArgs: false,
    options: GIT_GLOBAL,
    checksOwnOptions: true,
    analyze: analyzeGit,
    match: ['git status', 'git log --oneline -5', 'git diff HEAD~1', 'git show abc123', 'git branch', 'git branch -a', 'git tag -l', 'git remote -v', 'git config --get user.name', 'git stash list'],
    notMatch: [
      'git config -e', 'git config --edit', 'git config --global -e', 'git --exec-path=/tmp/evil log',
      'git commit -m x', 'git add .', 'git push', 'git push --force', 'git fetch', 'git clone https://x/y', 'git clean -fdx',
      'git -c alias.x="!rm -rf ~" x', 'git -c core.pager="sh -c id" log', 'git branch new-feature', 'git config core.hooksPath .hooks',
      'git frobnicate', 'git push origin +main', 'git push origin :old', 'git -c color.ui=always log', 'git --config-env=core.pager=P log',
      'git log --output=x', 'git diff --ext-diff', 'git show --textconv HEAD', 'git grep -O foo', 'git grep --open-files-in-pager=vi foo',
      'git status --frobnicate', 'git --frobnicate status', 'git help -w log', 'git log $X',
      'git branch -D old', 'git branch --delete --force old', 'git branch -M main', 'git stash drop', 'git stash clear',
      'git reflog expire --expire=now --all', 'git reflog delete HEAD@{1}', 'git gc --prune=now', 'git prune', 'git clean -fX',
    ],
  },
];
