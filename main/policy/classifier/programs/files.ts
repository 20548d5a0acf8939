// Programs that create, change or delete files, judged by their targets.
import { posix } from 'node:path';
import { SYSTEM_DIRS, globPartMatches, isInside, resolvePath, type PathContext } from '../../paths';
import { hasLong, hasShort, operands, optionValues } from '../args';
import type { Analysis, Invocation } from '../types';
import { readOperands, writeOperands, writeValue, type Rule } from './helpers';
import { UNKNOWN_OUTPUT } from '../words';

/** A literal target, resolved; for a glob, the directory before its first wildcard plus whether it is a glob. */
function target(inv: Invocation, a: Analysis, i: number): { abs: string | null; glob: boolean; literal: boolean; raw: string } {
  const w = inv.args[i]!;
  const raw = inv.argv[i]!;
  if (!w.literal) return { abs: null, glob: false, literal: false, raw };
  if (w.glob) {
    const parts = raw.split('/');
    const firstGlob = parts.findIndex((p) => /[*?[]/.test(p));
    const base = parts.slice(0, firstGlob).join('/') || (raw.startsWith('/') ? '/' : '.');
    return { abs: resolvePath(base, inv.cwd, a.ctx), glob: true, literal: true, raw };
  }
  return { abs: resolvePath(raw, inv.cwd, a.ctx), glob: false, literal: true, raw };
}

/** `$X/`, `"$X"/*`, `${X}/` and the like: an empty variable leaves only the root. */
function emptyVariableMeansRoot(source: string): boolean {
  const s = source.replace(/["']/g, '');
  return /^(\$\{?[A-Za-z_]\w*\}?)+\/(\*|\.\*)?$/.test(s) || /^(\$\{?[A-Za-z_]\w*\}?)+\/\.\.?$/.test(s);
}

function isSystemDirItself(abs: string): boolean {
  return SYSTEM_DIRS.includes(abs);
}

// ── Deletions a checkpoint is not the answer to: destructive at every level ───────────────────────
// The workspace root, a repository's .git (its whole history) or the parts of it that hold history,
// the home folder's top-level folders, and anything that contains the workspace.

const HISTORY_PARTS = new Set(['objects', 'refs', 'logs', 'packed-refs']);

/** Why deleting this path (recursively, or a glob's base) is destructive, or null. */
export function broadDeletion(abs: string, ctx: PathContext, how: { recursive: boolean; glob: boolean }): string | null {
  const parts = abs.split('/');
  const gitAt = parts.lastIndexOf('.git');
  if (gitAt !== -1 && (gitAt === parts.length - 1 || (gitAt === parts.length - 2 && HISTORY_PARTS.has(parts[gitAt + 1]!)))) {
    return gitAt === parts.length - 1 || how.glob ? `deletes the repository folder ${tidy(abs, ctx)} and all of its history` : `deletes ${tidy(abs, ctx)}, the repository's history`;
  }
  if (!how.recursive && !how.glob) return null;
  if (abs === ctx.workspace) return how.glob ? 'deletes everything in the workspace' : 'deletes the workspace root';
  if (ctx.workspace !== '/' && isInside(ctx.workspace, abs)) return 'deletes a folder that contains the workspace';
  if (posix.dirname(abs) === ctx.home && abs !== ctx.home) return `deletes ${tidy(abs, ctx)}, a top-level folder of the home folder`;
  return null;
}

/** For find -delete / -exec rm: a root whose whole tree is too broad to delete without a person. */
export function broadDeleteRoot(abs: string, ctx: PathContext): string | null {
  if (abs === '/' || abs === ctx.home) return `everything under ${abs === '/' ? '/' : 'the home folder'}`;
  if (SYSTEM_DIRS.includes(abs)) return `the system directory ${abs}`;
  const why = broadDeletion(abs, ctx, { recursive: true, glob: false });
  return why ? why.replace(/^deletes /, '') : null;
}

const FIND_TESTS = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-newer',
  '-anewer', '-cnewer', '-newermt', '-newerct', '-newerat', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size',
  '-user', '-group', '-uid', '-gid', '-perm', '-empty', '-links', '-inum', '-samefile', '-used', '-nouser', '-nogroup',
]);
/** True when a find expression selects by a test (name, time, size…) and nothing can widen it (-o, !, -not). */
export function findNarrows(expr: readonly string[]): boolean {
  if (expr.some((x) => x === '-o' || x === '-or' || x === '!' || x === '-not' || x === ',')) return false;
  // -name '*' (or '.*', '**') selects everything: it narrows nothing.
  return expr.some((x, i) => FIND_TESTS.has(x) && !(/name$|path$/.test(x) && /^[*.]*\*[*]*$/.test(expr[i + 1] ?? '')));
}

/** `*`, `./*`, `.*`, `dir/**`: a glob whose pattern part takes everything in its folder. */
function matchesAll(raw: string): boolean {
  const parts = raw.split('/').filter((p) => p !== '');
  const firstGlob = parts.findIndex((p) => /[*?[]/.test(p));
  return firstGlob !== -1 && parts.slice(firstGlob).every((p) => /^(\*+|\.\*|\.\[!\.\]\*|\.\?\*)$/.test(p));
}

/**
 * cp/mv/ln/install into a directory: each source lands inside it (a module function rather than a
 * closure: tsx, which runs the bench and the tests, keeps function names at a defineProperty each).
 */
function writeInto(inv: Invocation, a: Analysis, sources: number[], isLink: boolean, dir: string): void {
  if (sources.length === 0) return a.write(dir, true, inv.cwd, 'writes into');
  for (const src of sources) a.write(`${dir.replace(/\/+$/, '')}/${inv.argv[src]!.replace(/\/+$/, '').split('/').pop()}`, inv.args[src]!.literal, inv.cwd, isLink ? 'creates a link at' : 'writes');
}

function tidy(abs: string, ctx: PathContext): string {
  if (isInside(abs, ctx.workspace) && abs !== ctx.workspace) return abs.slice(ctx.workspace.length + 1);
  return abs.startsWith(ctx.home + '/') ? '~' + abs.slice(ctx.home.length) : abs;
}

const rm: Rule = {
  names: ['rm', 'grm', 'unlink', 'rmdir', 'shred', 'srm', 'trash', 'trash-put', 'gio-trash'],
  base: 'write',
  effects: ['file_write', 'file_delete'],
  what: 'deletes files',
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    const recursive = hasShort(argv, 'rR') || hasLong(argv, ['recursive']);
    const force = hasShort(argv, 'f') || hasLong(argv, ['force']);
    if (hasLong(argv, ['no-preserve-root'])) a.markHardline(`${inv.name} --no-preserve-root removes the safety against deleting /`);
    const ops = operands(argv, inv.name === 'shred' ? { short: 'nsx', long: ['iterations', 'size', 'random-source'] } : {});
    if (ops.length === 0 && inv.name !== 'rmdir') a.raise('write', `${inv.name} with no operand deletes nothing`);
    for (const i of ops) {
      const t = target(inv, a, i);
      if (!t.literal) {
        if (recursive && emptyVariableMeansRoot(inv.args[i]!.source)) {
          a.raise('destructive', `${inv.name} ${t.raw}: when the variable is empty this deletes from /`, ['file_delete', 'destructive']);
        } else a.write(t.raw, false, inv.cwd, 'deletes');
        continue;
      }
      const abs = t.abs;
      if (abs === null) {
        a.write(t.raw, true, inv.cwd, 'deletes');
        continue;
      }
      const rootOrHome = abs === '/' || abs === a.ctx.home;
      if (rootOrHome) {
        if (recursive) a.markHardline(`${inv.name} ${recursive ? '-r ' : ''}${t.raw} deletes ${abs === '/' ? 'the whole filesystem' : 'the home directory'}`);
        else a.raise('destructive', `${inv.name} ${t.raw} targets ${abs === '/' ? 'the filesystem root' : 'the home directory'}`, ['file_delete', 'destructive']);
        continue;
      }
      if ((recursive || force) && (isSystemDirItself(abs) || (t.glob && isSystemDirItself(abs)))) {
        a.raise('destructive', `${inv.name} ${t.raw} deletes the system directory ${abs}`, ['file_delete', 'destructive']);
        continue;
      }
      if ((recursive || force || t.glob) && isInside(a.ctx.workspace, abs) && abs !== a.ctx.workspace) {
        a.raise('destructive', `${inv.name} ${t.raw} deletes a folder that contains the workspace`, ['file_delete', 'destructive']);
        continue;
      }
      // A glob that can match .git (.g*, .[g]it, .*) deletes it like the name would.
      const lastPart = t.raw.split('/').filter(Boolean).pop() ?? '';
      const judged = t.glob && /[*?[]/.test(lastPart) && globPartMatches(lastPart, '.git') ? `${abs}/.git` : abs;
      const broad = broadDeletion(judged, a.ctx, { recursive: recursive || inv.name === 'rmdir', glob: t.glob && (judged !== abs || matchesAll(t.raw)) });
      if (broad) {
        a.write(t.raw, true, inv.cwd, 'deletes');
        a.raise('destructive', `${inv.name} ${t.raw} ${broad}`, ['file_delete', 'destructive']);
        continue;
      }
      a.write(t.raw, true, inv.cwd, 'deletes');
    }
  },
  match: ['rm build/out.o', 'rm -rf node_modules', 'rm -f *.log', 'rmdir empty', 'unlink x'],
  notMatch: [
    'rm -rf /', 'rm -rf ~', 'rm -rf $HOME', 'rm -rf /*', 'rm -rf ..', 'rm -rf /usr', 'rm -r "$DIR"/', 'rm /etc/hosts', 'shred /dev/sda', 'rm --no-preserve-root -rf /',
    'rm -rf .', 'rm -rf ./*', 'rm -rf .git', 'rm -rf .git/refs', 'rm -r ~/Documents', 'rm -rf sub/repo/.git',
  ],
};

/** cp, mv, install, ln: sources are read (mv also removes them), the destination is written. */
const copyMove: Rule = {
  names: ['cp', 'gcp', 'mv', 'gmv', 'install', 'ginstall', 'ln', 'gln', 'link'],
  base: 'write',
  effects: ['file_read', 'file_write'],
  what: 'copies, moves or links files',
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    const withValue = inv.name.includes('install') ? { short: 'mogtSZ', long: ['mode', 'owner', 'group', 'target-directory', 'suffix', 'context'] } : { short: 'tS', long: ['target-directory', 'suffix', 'backup', 'reflink', 'sparse', 'preserve', 'no-preserve'] };
    const ops = operands(argv, withValue);
    const targetDirs = optionValues(argv, 't', ['target-directory']);
    const installDirs = inv.name.includes('install') && hasShort(argv, 'd');
    let sources = ops;
    let dests: number[] = [];
    if (installDirs) {
      dests = ops;
      sources = [];
    } else if (targetDirs.length === 0) {
      if (ops.length >= 2) {
        dests = [ops[ops.length - 1]!];
        sources = ops.slice(0, -1);
      } else if (inv.name.endsWith('ln') || inv.name === 'link') {
        a.write('.', true, inv.cwd, 'creates a link in');
      }
    }
    const recursive = hasShort(argv, 'rRa') || hasLong(argv, ['recursive', 'archive']);
    const isLink = inv.name.endsWith('ln') || inv.name === 'link';
    if (!isLink || !hasShort(argv, 's')) readOperands(inv, a, sources, recursive);
    const moving = inv.name.endsWith('mv');
    for (const i of sources) {
      const t = target(inv, a, i);
      if (moving) {
        if (t.abs === '/' || t.abs === a.ctx.home) a.raise('destructive', `mv ${t.raw} moves ${t.abs === '/' ? 'the filesystem root' : 'the home directory'} away`, ['file_delete', 'destructive']);
        else if (t.abs && isSystemDirItself(t.abs)) a.raise('destructive', `mv ${t.raw} moves a system directory`, ['file_delete', 'destructive']);
        else a.write(t.raw, t.literal, inv.cwd, 'moves away');
      }
    }
    // Into a directory (-t DIR, or a destination that is plainly one), each source lands inside it.
    for (const d of targetDirs) writeInto(inv, a, sources, isLink, d);
    for (const i of dests) {
      const t = target(inv, a, i);
      if (t.literal && !t.glob && (t.raw.endsWith('/') || t.abs === a.ctx.home || t.raw === '.' || t.raw === '..' || t.raw === '~')) {
        writeInto(inv, a, sources, isLink, t.raw);
        continue;
      }
      if (t.abs && t.abs.startsWith('/dev/') && (moving || inv.name.endsWith('cp'))) {
        a.raise('destructive', `${inv.name} replaces the device file ${t.abs}`, ['file_write', 'destructive']);
        continue;
      }
      a.write(t.raw, t.literal, inv.cwd, isLink ? 'creates a link at' : 'writes');
    }
    if (inv.name.includes('install')) {
      const modes = optionValues(argv, 'm', ['mode']);
      if (modes.some(setsSpecialBits)) a.raise('destructive', 'install -m sets the setuid or setgid bit', ['destructive']);
    }
  },
  match: ['cp a.txt b.txt', 'mv old.ts new.ts', 'cp -r src backup', 'ln -s ../lib lib', 'install -d build/bin'],
  notMatch: ['cp evil /etc/passwd', 'mv ~/.bashrc x', 'cp x ~/.ssh/authorized_keys', 'mv / /tmp/x', 'cp -r ~ /tmp/backup', 'cp payload /dev/sda'],
};

function setsSpecialBits(mode: string): boolean {
  if (/^[0-7]{4}$/.test(mode)) return mode[0] !== '0';
  return /[ugoa]*[+=][rwxXt]*s/.test(mode);
}

const chmod: Rule = {
  names: ['chmod', 'chown', 'chgrp', 'gchmod', 'gchown', 'chattr', 'setfacl', 'chcon', 'setfattr'],
  base: 'write',
  effects: ['file_write'],
  what: 'changes file permissions or ownership',
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    const recursive = hasShort(argv, 'R') || hasLong(argv, ['recursive']);
    const reference = hasLong(argv, ['reference']);
    let ops = operands(argv, { short: inv.name === 'setfacl' ? 'mMxX' : '', long: ['reference', 'from'] });
    let mode = '';
    if (!reference && ['chmod', 'gchmod', 'chown', 'gchown', 'chgrp', 'chattr'].includes(inv.name)) {
      // The first operand is the mode or owner; chmod modes like -x look like options.
      const modeIndex = inv.name.includes('chmod') ? argv.findIndex((x) => /^[-+=]?[ugoa]*[-+=][rwxXstugo]*$|^[0-7]{3,4}$/.test(x) && !/^-[R]+$/.test(x) && !/^--/.test(x)) : -1;
      if (modeIndex !== -1) {
        mode = argv[modeIndex]!;
        ops = ops.filter((i) => i !== modeIndex);
      } else if (ops.length) {
        mode = argv[ops[0]!]!;
        ops = ops.slice(1);
      }
    }
    if (inv.name.includes('chmod') && setsSpecialBits(mode)) a.raise('destructive', `chmod ${mode} sets the setuid or setgid bit`, ['destructive']);
    const worldWritable = /^[0-7]?[0-7][0-7][2367]$/.test(mode) || /[oa]*[+=][rwx]*w/.test(mode.replace(/^[ug]+/, '')) && /^[oa+=]/.test(mode);
    for (const i of ops) {
      const t = target(inv, a, i);
      if (t.abs === '/' || t.abs === a.ctx.home) {
        if (recursive && t.abs === '/' && inv.name.includes('chmod') && worldWritable) a.markHardline(`chmod -R ${mode} / makes every file on the system writable by anyone`);
        else if (recursive) a.raise('destructive', `${inv.name} -R ${t.raw} changes every file under ${t.abs === '/' ? 'the filesystem root' : 'the home directory'}`, ['destructive']);
        else a.raise('destructive', `${inv.name} ${t.raw} changes ${t.abs === '/' ? 'the filesystem root' : 'the home directory'}`, ['destructive']);
        continue;
      }
      if (recursive && t.abs && isSystemDirItself(t.abs)) {
        a.raise('destructive', `${inv.name} -R ${t.raw} changes a system directory`, ['destructive']);
        continue;
      }
      a.write(t.raw, t.literal, inv.cwd, 'changes');
    }
  },
  match: ['chmod +x build.sh', 'chmod 644 a.txt', 'chown me:me file', 'chmod -R u+w src'],
  notMatch: ['chmod -R 777 /', 'chown -R me /', 'chmod -R 755 ~', 'chmod u+s tool', 'chmod 4755 x', 'chmod 600 /etc/shadow'],
};

const create: Rule = {
  names: ['touch', 'mkdir', 'gmkdir', 'truncate', 'mkfifo', 'fallocate'],
  base: 'write',
  effects: ['file_write'],
  what: 'creates or resizes files',
  readsArgs: false,
  analyze(inv, a) {
    const ops = operands(inv.argv, { short: 'msrdtlo', long: ['mode', 'size', 'reference', 'date', 'length', 'offset', 'context'] });
    writeOperands(inv, a, ops, inv.name === 'mkdir' || inv.name === 'gmkdir' ? 'creates' : inv.name === 'touch' ? 'touches' : 'writes');
  },
  match: ['touch notes.md', 'mkdir -p build/out', 'truncate -s 0 log.txt'],
  notMatch: ['touch /etc/cron.d/job', 'mkdir ~/.config/autostart/x'],
};

const dd: Rule = {
  names: ['dd'],
  base: 'read',
  effects: ['file_read'],
  what: 'copies raw data',
  readsArgs: false,
  // Its operands are key=value (if=, of=, bs= …): of= is judged below.
  options: '--help --version',
  analyze(inv, a) {
    let wrote = false;
    inv.argv.forEach((arg, i) => {
      const literal = inv.args[i]!.literal;
      if (arg.startsWith('of=')) {
        wrote = true;
        a.raise('write', 'dd writes its output file', ['file_write']);
        a.write(arg.slice(3), literal, inv.cwd);
      } else if (arg.startsWith('if=')) a.read(arg.slice(3), literal, inv.cwd);
    });
    // With if=FILE it sends the file on, not what came in: local data, which the exfiltration check counts.
    const fromFile = inv.argv.some((x) => x.startsWith('if=') && x !== 'if=/dev/stdin');
    if (!wrote) a.produce(inv.stdin.kind === 'remote' || inv.stdin.kind === 'decoded' ? (fromFile ? { kind: inv.stdin.kind, withLocal: true } : inv.stdin) : UNKNOWN_OUTPUT);
  },
  match: ['dd if=/dev/zero bs=1M count=1', 'dd if=in.bin bs=512 count=1'],
  notMatch: ['dd if=/dev/zero of=/dev/sda', 'dd if=a of=b bs=1M'],
};

const patch: Rule = {
  names: ['patch', 'gpatch'],
  base: 'write',
  effects: ['file_read', 'file_write'],
  what: 'applies a patch to files',
  readsArgs: false,
  analyze(inv, a) {
    const dirs = optionValues(inv.argv, 'd', ['directory']);
    for (const o of optionValues(inv.argv, 'o', ['output'])) writeValue(inv, a, o);
    for (const i of optionValues(inv.argv, 'i', ['input'])) a.read(i, true, inv.cwd);
    const ops = operands(inv.argv, { short: 'dopiDFrBzVYgsuxE', long: ['directory', 'output', 'input', 'strip'] });
    writeOperands(inv, a, ops.slice(0, 1));
    if (dirs.length) for (const d of dirs) a.write(d, true, inv.cwd, 'patches files in');
    else a.write('.', true, inv.cwd, 'patches files in');
  },
  match: ['patch -p1 < fix.diff', 'patch -p0 -i change.patch'],
  notMatch: ['patch -d /etc -p1 -i x.diff'],
};

const mknod: Rule = {
  names: ['mknod'],
  base: 'destructive',
  effects: ['file_write', 'destructive'],
  what: 'creates device files',
  readsArgs: false,
  match: ['mknod /tmp/x b 8 0'],
  notMatch: [],
};

export const fileRules: Rule[] = [rm, copyMove, chmod, create, dd, patch, mknod];
