// Programs that only read, and the flags that make some of them write or run code.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { endOfOptions, found, hasLong, hasOption, hasShort, operands, optionValues, tableFor } from '../args';
import type { Analysis, Invocation, ProgramConventions } from '../types';
import { mayBeOption, UNKNOWN_OUTPUT, type Word } from '../words';
import { broadDeleteRoot, findNarrows } from './files';
import { fetchesUrls, filledAtRunTime, readOperands, writeOperands, writeValue, type Rule } from './helpers';
import { ACK_OPTIONS, AG_OPTIONS, DECODER_CAT_OPTIONS, GREP_OPTIONS, READER_OPTIONS, RG_OPTIONS } from './read-options';

/**
 * What each reader learns from the files it is given (docs/policy.md, "Metadata reads are not content
 * reads"): names, sizes, times and modes only, or a digest of the content; the others read content.
 */
const READ_KINDS: Readonly<Record<string, ProgramConventions>> = {
  ...Object.fromEntries(['ls', 'dir', 'vdir', 'du', 'df', 'stat', 'lsattr', 'getfacl', 'namei', 'findmnt', 'tree', 'locate', 'mlocate', 'plocate', 'whereis', 'which', 'type', 'lsof'].map((n) => [n, { reads: 'metadata' as const }])),
  ...Object.fromEntries(['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'xxhsum', 'wc', 'file'].map((n) => [n, { reads: 'digest' as const }])),
  '*': {},
};

const simpleReaders: Rule = {
  names: [
    'ls', 'dir', 'vdir', 'tac', 'nl', 'head', 'tail', 'wc', 'cut', 'paste', 'join', 'comm', 'cmp', 'file', 'stat',
    'du', 'df', 'od', 'hexdump', 'strings', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum',
    'sha512sum', 'b2sum', 'cksum', 'sum', 'column', 'fold', 'fmt', 'rev', 'tr', 'look', 'numfmt', 'expand',
    'unexpand', 'pr', 'tsort', 'lsblk', 'lscpu', 'lsusb', 'lspci', 'lsmod', 'lsof', 'ps', 'pgrep', 'pidof',
    'free', 'uptime', 'w', 'who', 'last', 'users', 'vmstat', 'nproc', 'getconf',
    'locale', 'printenv', 'tty', 'groups', 'logname', 'arch', 'uname', 'id', 'whoami',
    'jq', 'bat', 'batcat', 'nm', 'objdump', 'readelf', 'size', 'zdump', 'namei', 'findmnt', 'dmesg', 'top',
    'ss', 'netstat', 'lsattr', 'getfacl', 'tput', 'clear', 'sensors',
    'fc-list', 'xxhsum', 'tokei', 'less', 'more', 'man', 'apropos', 'whatis',
    'fzf', 'shellcheck', 'hadolint', 'yamllint', 'pdfinfo', 'locate',
    'mlocate', 'plocate', 'whereis', 'which', 'type', 'hash', 'help', 'cal', 'ncal', 'factor', 'units',
  ],
  base: 'read',
  effects: ['file_read'],
  what: 'reads files or system state',
  options: { ...READER_OPTIONS, batcat: READER_OPTIONS.bat!, mlocate: READER_OPTIONS.locate!, plocate: READER_OPTIONS.locate!, ncal: READER_OPTIONS.cal! },
  conventions: { byName: READ_KINDS },
  match: ['ls -la src', 'head -n 5 README.md', 'wc -l *.ts', 'jq .name package.json', 'ps aux', 'ls --sort=time --hum', 'tail -20 log'],
  notMatch: ['ls --frobnicate', 'dmesg -C', 'ss -K dst 10.0.0.1', 'file -C -m magic', 'man -P "sh -c id" ls', 'fzf --bind "enter:execute(id)"', 'hash -p /tmp/evil ls', 'less +!id notes.txt', 'bat --pager "sh -c id" x', 'file $X'],
};

/** ldd runs the program it inspects with some loaders (its manual says never to use it on an untrusted file). */
const ldd: Rule = {
  names: ['ldd'],
  base: 'write',
  effects: SHELL_REACHABLE_EFFECTS,
  what: 'may run the program it inspects',
  match: ['ldd ./app'],
  notMatch: [],
};

const quietBuiltins: Rule = {
  names: [
    'echo', 'printf', 'true', 'false', ':', 'test', '[', 'basename', 'dirname', 'pwd', 'sleep', 'seq', 'yes', 'expr',
    'exit', 'return', 'break', 'continue', 'shift', 'wait', 'jobs', 'times', 'read', 'getopts', 'let', 'umask',
    'ulimit', 'set', 'unalias', 'history', 'disown', 'bg', 'fg', 'dirs', 'realpath', 'readlink', 'sync', 'caller', 'suspend', 'compgen', 'complete',
  ],
  base: 'read',
  effects: [],
  what: 'prints or tests values',
  readsArgs: false,
  // `*`: the words are data (echo's text, test's expression, a job or a number), never options.
  options: {
    '*': '@data',
    printf: '@in-order !-v:',
    basename: '--help --version -a -s: -z --multiple --suffix= --zero @all-read',
    dirname: '--help --version -z --zero @all-read',
    pwd: '-L -P --logical --physical @all-read',
    sleep: '--help --version @all-read',
    seq: '--help --version -f: -s: -w -NUM --format= --separator= --equal-width @all-read',
    wait: '-n -f !-p:',
    jobs: '-l -n -p -r -s',
    read: '@in-order -a: -d: -e -E -i: -n: -N: -p: -r -s -t: -u:',
    umask: '-p -S @all-read',
    ulimit: '-a -b -c -d -e -f -i -k -l -m -n -p -q -r -s -t -u -v -x -P -R -T -H -S @all-read',
    set: '@in-order @plus -a -b -e -f -h -m -n -p -t -u -v -x -B -C -E -H -P -T !-o: +a +b +e +f +h +m +n +p +t +u +v +x +B +C +E +H +P +T +o:',
    unalias: '-a @all-read',
    // -a, -w, -r and -n read or write the history file: not listed. -c and -s change only this shell's list.
    history: '@in-order -NUM -c -d: -p -s',
    disown: '-a -h -r @all-read',
    dirs: '-c -l -p -v -NUM @all-read',
    realpath: `--help --version -e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical --quiet
      --relative-to= --relative-base= --strip --no-symlinks --zero @all-read`,
    readlink: `--help --version -f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet
      --silent --verbose --zero @all-read`,
    sync: '--help --version -d -f --data --file-system @all-read',
    suspend: '-f @all-read',
    // -W's word list is expanded (a $(…) in it runs): judged below. -F and -C run a function or command: not listed.
    compgen: '-a -b -c -d -e -f -g -j -k -s -u -v -o: -A: -G: -P: -S: -X: !-W: -V:',
    // Builtins stop reading options at the first operand (bash's internal getopt): `type ls -l` looks up `-l` too.
    // -C, -F and -W name code or words the shell runs or expands at completion time: not listed.
    complete: '@in-order -p -r -a -b -c -d -e -f -g -j -k -s -u -v -D -E -I -o: -A: -G: -X: -P: -S:',
  },
  analyze(inv, a) {
    if (inv.name === 'echo' || inv.name === 'printf') {
      a.produce({ kind: 'literal', text: printedText(inv) });
    }
    // Builtins that assign to a variable named in their arguments: the name is judged like an assignment.
    const names: string[] = [];
    if (inv.name === 'printf' || inv.name === 'wait') names.push(...optionValues(inv.argv, inv.name === 'printf' ? 'v' : 'p', []));
    if (inv.name === 'read') names.push(...optionValues(inv.argv, 'a', []), ...operands(inv.argv, { short: 'adinNptu' }).map((i) => inv.argv[i]!));
    if (inv.name === 'getopts' && inv.argv.length >= 2) names.push(inv.argv[1]!);
    if (inv.name === 'compgen') {
      names.push(...optionValues(inv.argv, 'V', []));
      if (optionValues(inv.argv, 'W', []).some((w) => /[$`]/.test(w))) a.raise('write', 'compgen -W expands its word list, and a $(…) or `…` in it runs', SHELL_REACHABLE_EFFECTS);
    }
    for (const n of names) a.assign(n, setByBuiltin(`(set by ${inv.name})`));
    if (names.length) a.raise('read', `${inv.name} sets a variable`);
    if (inv.name === 'set') {
      for (const o of [...optionValues(inv.argv, 'o', []), ...(inv.argv.includes('-k') || /^-\w*k/.test(inv.argv[0] ?? '') ? ['keyword'] : [])]) {
        // set -k: assignments anywhere in a command's words go to its environment (git log GIT_PAGER=…).
        if (o === 'keyword') a.raise('write', 'set -k makes NAME=value words anywhere in a command set its environment', SHELL_REACHABLE_EFFECTS);
      }
    }
    if (inv.name === 'let') {
      for (const x of inv.argv) if (/\[/.test(x) && !/\[(\d+|[@*])\]/.test(x)) a.raise('write', `let evaluates ${x}, whose array subscript can run code`, SHELL_REACHABLE_EFFECTS);
    }
  },
  match: ['echo hello', 'printf "%s\\n" x', 'test -f x', 'pwd', 'sleep 1', 'true', 'echo -n --frob', 'seq -5 5', 'read -r line', 'set -euo pipefail'],
  notMatch: ['printf -v PATH %s /tmp', 'read BASH_ENV', "printf -v 'a[$(id)]' x", 'set -k', 'set -o keyword', 'wait -p BASH_ENV', 'jobs -x rm -rf ~', 'compgen -W "$(id)"', 'history -w ~/.bashrc', 'let "a[i]"'],
};

/** The text echo/printf print, for judging what a shell in the pipeline would run. */
/** The value of a variable a builtin sets (read, getopts, printf -v, wait -p): only the run knows it. */
function setByBuiltin(source: string): Word {
  return { source, value: source, literal: false, glob: false, substitutions: [], unknown: [] };
}

function printedText(inv: Invocation): string {
  if (!inv.args.every((w) => w.literal)) return inv.argv.join(' ');
  if (inv.name === 'echo') {
    const args = [...inv.argv];
    let interpret = false;
    while (args.length && /^-[neE]+$/.test(args[0]!)) interpret = interpret || args.shift()!.includes('e');
    const text = args.join(' ');
    return interpret ? decodeEscapes(text) : text;
  }
  const [format = '', ...rest] = inv.argv;
  return decodeEscapes(format.replace(/%[-+ #0]*\d*(\.\d+)?[sbdiqc]/g, () => rest.shift() ?? '')) + rest.join('');
}

function decodeEscapes(s: string): string {
  // Every escape starts with a backslash.
  if (!s.includes('\\')) return s;
  return s
    .replace(/\\x([0-9a-fA-F]{1,2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\0?([0-7]{1,3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)))
    .replace(/\\u([0-9a-fA-F]{1,4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\n/g, '\n')
    .replace(/\\t/g, '\t')
    .replace(/\\\\/g, '\\');
}

const cd: Rule = {
  names: ['cd', 'pushd', 'popd'],
  base: 'read',
  effects: [],
  what: 'changes the current directory',
  options: { '*': '-L -P -e -@ @in-order', pushd: '-n -NUM @in-order', popd: '-n -NUM @in-order' },
  readsArgs: false,
  analyze(inv, a) {
    if (inv.name === 'popd') return a.setCwd(null);
    const ops = operands(inv.argv);
    if (ops.length === 0) return a.setCwd(a.ctx.home);
    const w = inv.args[ops[0]!]!;
    const target = inv.argv[ops[0]!]!;
    if (!w.literal || target === '-') return a.setCwd(null);
    const base = inv.cwd;
    if (target.startsWith('/') || target.startsWith('~')) a.setCwd(resolveAgainst(target, '/', a));
    else a.setCwd(base === null ? null : resolveAgainst(target, base, a));
  },
  match: ['cd src', 'cd ..', 'pushd /tmp'],
  notMatch: ['cd --frob src', 'cd ~/.ssh && cat id_ed25519'],
};

function resolveAgainst(target: string, cwd: string, a: Analysis): string | null {
  if (target.startsWith('~')) target = a.ctx.home + target.slice(1);
  if (!target.startsWith('/')) target = `${cwd}/${target}`;
  const parts: string[] = [];
  for (const p of target.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return '/' + parts.join('/');
}

const cat: Rule = {
  names: ['cat', 'zcat', 'bzcat', 'xzcat', 'zstdcat', 'lz4cat'],
  base: 'read',
  effects: ['file_read'],
  what: 'prints files',
  options: {
    cat: `--help --version -A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs
      --show-nonprinting @all-read`,
    '*': DECODER_CAT_OPTIONS,
  },
  analyze(inv, a) {
    const ops = operands(inv.argv);
    const decoder = inv.name !== 'cat';
    if (ops.length === 0 || (ops.length === 1 && inv.argv[ops[0]!] === '-')) a.produce(decoder ? { kind: 'decoded' } : inv.stdin);
    else a.produce(decoder ? { kind: 'decoded' } : UNKNOWN_OUTPUT);
  },
  match: ['cat README.md', 'cat -n a b', 'zcat log.gz'],
  notMatch: ['cat ~/.ssh/id_rsa', 'cat --frob x', 'zcat --frob x.gz'],
};

const grep: Rule = {
  names: ['grep', 'egrep', 'fgrep', 'zgrep', 'ag', 'ack', 'ack-grep'],
  base: 'read',
  effects: ['file_read'],
  what: 'searches files',
  options: { '*': GREP_OPTIONS, ag: AG_OPTIONS, ack: ACK_OPTIONS, 'ack-grep': ACK_OPTIONS },
  analyze(inv, a) {
    const recursive = hasShort(inv.argv, 'rR') || hasLong(inv.argv, ['recursive', 'dereference-recursive']) || inv.name === 'ag' || inv.name.startsWith('ack');
    const ops = operands(inv.argv, { short: 'efABCmd', long: ['regexp', 'file', 'after-context', 'before-context', 'context', 'max-count'] });
    const files = hasShort(inv.argv, 'ef') || hasLong(inv.argv, ['regexp', 'file']) ? ops : ops.slice(1);
    if (recursive) readOperands(inv, a, files, true);
    if (recursive && files.length === 0) a.read('.', true, inv.cwd, true);
    const fileOpts = optionValues(inv.argv, 'f', ['file']);
    for (const f of fileOpts) a.read(f, true, inv.cwd);
  },
  match: ['grep -rn TODO src', 'grep foo file.txt', 'egrep -i "a|b" x'],
  notMatch: ['grep -r key ~/.ssh', 'grep --frob x f', 'ag --pager=less x'],
};

const rg: Rule = {
  names: ['rg', 'ripgrep'],
  base: 'read',
  effects: ['file_read'],
  what: 'searches files',
  options: RG_OPTIONS,
  analyze(inv, a) {
    if (hasLong(inv.argv, ['pre'])) {
      a.raise('write', 'rg --pre runs a program on every file it searches', SHELL_REACHABLE_EFFECTS);
      for (const p of optionValues(inv.argv, '', ['pre'])) a.runArgv([{ source: p, value: p, literal: true, glob: false, substitutions: [], unknown: [] }], 'rg --pre');
    }
    const hidden = hasLong(inv.argv, ['hidden', 'no-ignore', 'unrestricted']) || /(^|\s)-[a-zA-Z]*u/.test(inv.argv.join(' '));
    const ops = operands(inv.argv, { short: 'egtTmAB CMjf', long: ['regexp', 'glob', 'type', 'type-not', 'max-count', 'context', 'file', 'max-columns', 'threads', 'pre-glob', 'sort', 'sortr', 'iglob', 'encoding', 'replace'] });
    const files = hasShort(inv.argv, 'ef') || hasLong(inv.argv, ['regexp', 'file']) ? ops : ops.slice(1);
    readOperands(inv, a, files, hidden);
    if (hidden && files.length === 0) a.read('.', true, inv.cwd, true);
  },
  match: ['rg TODO', 'rg -n foo src', 'rg --files'],
  notMatch: ['rg --pre ./decode.sh foo', 'rg --pre=bash foo'],
};

const sed: Rule = {
  names: ['sed', 'gsed'],
  base: 'read',
  effects: ['file_read'],
  what: 'transforms text',
  options: `--help --version -n -e: -f: -E -r -s -u -z -l: -b !-i? --debug --posix --sandbox --follow-symlinks --null-data --zero-terminated
    --separate --unbuffered --line-length= --regexp-extended --expression= --file= --quiet --silent --binary !--in-place?`,
  analyze(inv, a) {
    const scripts = optionValues(inv.argv, 'e', ['expression']);
    const scriptFiles = optionValues(inv.argv, 'f', ['file']);
    const ops = operands(inv.argv, { short: 'eflsS', long: ['expression', 'file', 'line-length'] });
    let files = ops;
    if (scripts.length === 0 && scriptFiles.length === 0 && ops.length) {
      scripts.push(inv.argv[ops[0]!]!);
      if (!inv.args[ops[0]!]!.literal) a.markDynamic('sed runs a script computed at run time');
      files = ops.slice(1);
    }
    if (scriptFiles.length) a.raise('write', 'sed -f runs a script file whose commands can write files or run programs', ['file_write', 'command_exec']);
    const inPlace = hasShort(inv.argv, 'i') || hasLong(inv.argv, ['in-place']);
    if (inPlace) {
      a.raise('write', 'sed -i edits files in place', ['file_write']);
      writeOperands(inv, a, files, 'edits');
    }
    for (const s of scripts) judgeSedScript(s, inv, a);
  },
  match: ["sed -n '1,5p' file", "sed 's/a/b/g' file", "sed -e 's/x/y/' -e 's/p/q/' f"],
  notMatch: ["sed -i 's/a/b/' file", "sed --in-place=.bak 's/a/b/' f", "sed 's/a/b/w out.txt' f", "sed '1e id' f", "sed --in-pl 's/a/b/' f", "sed -ni 's/a/b/p' f"],
};

// The sed scanner's steps, as module functions that take and return the position: closures made for every
// script cost a defineProperty each where function names are kept (tsx: the bench, the tests, the dev CLI).

/** The position after the spaces and ;s at i. */
function skipSedSpace(script: string, i: number): number {
  while (i < script.length && /[\s;]/.test(script[i]!)) i++;
  return i;
}

/** The position after a part delimited by delim whose opening delimiter is at i (escaped characters skipped). */
function skipSedDelimited(script: string, i: number, delim: string): number {
  i++;
  while (i < script.length && script[i] !== delim) {
    if (script[i] === '\\') i++;
    i++;
  }
  return i + 1;
}

/** The position of the end of the line at i. */
function sedLineEnd(script: string, i: number): number {
  while (i < script.length && script[i] !== '\n') i++;
  return i;
}

/** The rest of the line from i, trimmed. */
function sedLine(script: string, i: number): string {
  return script.slice(i, sedLineEnd(script, i)).trim();
}

/** Finds sed commands that write (w, W, s///w) or execute (e, s///e), and files read by r/R. */
function judgeSedScript(script: string, inv: Invocation, a: Analysis): void {
  let i = 0;
  const n = script.length;
  while (i < n) {
    i = skipSedSpace(script, i);
    if (i >= n) break;
    // Address: numbers, $, /re/, \cREc, ranges, steps, !.
    for (;;) {
      const c = script[i];
      if (c === undefined) break;
      if (/[0-9$,~+!]/.test(c) || c === ' ') i++;
      else if (c === '/') i = skipSedDelimited(script, i, '/');
      else if (c === '\\' && i + 1 < n) {
        i++;
        i = skipSedDelimited(script, i, script[i]!);
      } else break;
    }
    const cmd = script[i];
    if (cmd === undefined) break;
    i++;
    if (cmd === '{' || cmd === '}') continue;
    if (cmd === '#') {
      i = sedLineEnd(script, i);
      continue;
    }
    if (cmd === 's' || cmd === 'y') {
      const delim = script[i];
      if (delim === undefined) break;
      i = skipSedDelimited(script, i, delim);
      const replacementStart = i;
      i--;
      i = skipSedDelimited(script, i, delim);
      const replacement = script.slice(replacementStart, i - 1);
      if (cmd === 'y') continue;
      let flags = '';
      while (i < n && /[gpiImMe0-9w]/.test(script[i]!)) {
        flags += script[i];
        if (script[i] === 'w') {
          i++;
          const target = sedLine(script, i);
          i = sedLineEnd(script, i);
          a.raise('write', `sed's s///w writes ${target}`, ['file_write']);
          a.write(target, true, inv.cwd);
          break;
        }
        i++;
      }
      if (flags.includes('e')) {
        a.raise('write', "sed's s///e runs the pattern space as a command", SHELL_REACHABLE_EFFECTS);
        // A replacement without references to the input is the command itself; with them, it is built at run time.
        if (/\\[0-9]|&/.test(replacement)) a.markDynamic("sed's s///e runs a command built from the input");
        else a.runCode(replacement.replace(/\\(.)/g, '$1'), 'sed s///e');
      }
      continue;
    }
    if (cmd === 'w' || cmd === 'W') {
      const target = sedLine(script, i);
      i = sedLineEnd(script, i);
      a.raise('write', `sed's ${cmd} command writes ${target}`, ['file_write']);
      a.write(target, true, inv.cwd);
      continue;
    }
    if (cmd === 'e') {
      const code = sedLine(script, i);
      i = sedLineEnd(script, i);
      a.raise('write', "sed's e command runs a shell command", SHELL_REACHABLE_EFFECTS);
      if (code) a.runCode(code, 'sed e');
      continue;
    }
    if (cmd === 'r' || cmd === 'R') {
      a.read(sedLine(script, i), true, inv.cwd);
      i = sedLineEnd(script, i);
      continue;
    }
    if ('aic'.includes(cmd)) {
      i = sedLineEnd(script, i);
      continue;
    }
    if ('btT:'.includes(cmd)) {
      while (i < n && !/[;\n}]/.test(script[i]!)) i++;
      continue;
    }
    if ('lLqQ'.includes(cmd)) {
      while (i < n && /[0-9 ]/.test(script[i]!)) i++;
      continue;
    }
    if (!'pPnNdDhHgGxz=F'.includes(cmd)) {
      // An unknown command letter: the script may be cleverer than this scanner.
      a.raise('write', `sed script uses the command "${cmd}", which the classifier does not know`, ['file_write', 'command_exec']);
      return;
    }
  }
}

const sort: Rule = {
  names: ['sort'],
  base: 'read',
  effects: ['file_read'],
  what: 'sorts lines',
  options: `--help --version -b -d -f -g -h -i -M -n -R -r -V -c -C -k: -m -s -S: -t: -T: -u -z !-o: --ignore-leading-blanks --dictionary-order
    --ignore-case --general-numeric-sort --human-numeric-sort --ignore-nonprinting --month-sort --numeric-sort --random-sort
    --random-source= --reverse --sort= --version-sort --batch-size= --check? --debug --files0-from= --key= --merge !--output= --stable
    --buffer-size= --field-separator= --temporary-directory= --parallel= --unique --zero-terminated !--compress-program=`,
  analyze(inv, a) {
    for (const out of optionValues(inv.argv, 'o', ['output'])) {
      a.raise('write', 'sort -o writes its output to a file', ['file_write']);
      writeValue(inv, a, out);
    }
    if (hasLong(inv.argv, ['compress-program'])) {
      a.raise('write', 'sort --compress-program runs a program', SHELL_REACHABLE_EFFECTS);
      for (const p of optionValues(inv.argv, '', ['compress-program'])) a.runCode(p, 'sort --compress-program');
    }
    const files = optionValues(inv.argv, '', ['files0-from']);
    for (const f of files) a.read(f, true, inv.cwd);
  },
  match: ['sort -n data.txt', 'sort -u -k2 x', 'sort -t, -k1 f'],
  notMatch: ['sort -o out.txt in.txt', 'sort --output=o.txt x', 'sort -uo x x', 'sort --compress-program=gzip big'],
};

const uniq: Rule = {
  names: ['uniq'],
  base: 'read',
  effects: ['file_read'],
  what: 'filters repeated lines',
  options: `--help --version -c -d -D -f: -i -s: -u -w: -z --count --repeated --all-repeated? --skip-fields= --group? --ignore-case --skip-chars=
    --unique --zero-terminated --check-chars=`,
  analyze(inv, a) {
    const ops = operands(inv.argv, { short: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars'] });
    if (ops.length >= 2) {
      a.raise('write', 'uniq with a second file writes its output there', ['file_write']);
      writeOperands(inv, a, [ops[1]!]);
    }
  },
  match: ['uniq -c sorted.txt', 'uniq'],
  notMatch: ['uniq in.txt out.txt'],
};

const tee: Rule = {
  names: ['tee'],
  base: 'read',
  effects: [],
  what: 'copies its input to files',
  options: '--help --version -a -i -p --append --ignore-interrupts --output-error?',
  readsArgs: false,
  analyze(inv, a) {
    writeOperands(inv, a, operands(inv.argv, { long: ['output-error'] }));
    if (inv.stdin.kind === 'remote' || inv.stdin.kind === 'decoded' || inv.stdin.kind === 'literal') a.produce(inv.stdin);
  },
  match: ['tee', 'tee /dev/null'],
  notMatch: ['tee out.log', 'tee -a a.txt b.txt'],
};

/** find's predicates and actions; -exec/-ok and the -f… file actions are judged by the rule. */
const FIND_PREDICATES = `@single-dash -print -print0 -ls -prune -quit -true -false -not -a -and -o -or -depth -d -mount -xdev -follow -noleaf
  -daystart -ignore_readdir_race -noignore_readdir_race -empty -executable -readable -writable -nouser -nogroup -help -version
  -name: -iname: -path: -ipath: -wholename: -iwholename: -regex: -iregex: -type: -xtype: -size: -mtime: -mmin: -atime: -amin: -ctime:
  -cmin: -newer: -anewer: -cnewer: -perm: -user: -group: -uid: -gid: -links: -inum: -samefile: -lname: -ilname: -maxdepth: -mindepth:
  -regextype: -fstype: -context: -used: -printf: -files0-from: !-delete !-fprint: !-fprint0: !-fls: !-fprintf: !-exec !-execdir !-ok !-okdir`;

const find: Rule = {
  names: ['find', 'gfind', 'bfs'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists files',
  readsArgs: false,
  options: FIND_PREDICATES,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    let firstExpr = argv.findIndex((x, i) => i > 0 && /^[-(!]/.test(x) && !['-H', '-L', '-P'].includes(x));
    if (firstExpr === -1) firstExpr = argv.length;
    if (argv[0] && /^[-(!]/.test(argv[0]) && !['-H', '-L', '-P'].includes(argv[0])) firstExpr = 0;
    const roots: number[] = [];
    for (let i = 0; i < firstExpr; i++) if (!['-H', '-L', '-P'].includes(argv[i]!) && !argv[i]!.startsWith('-O') && !argv[i]!.startsWith('-D')) roots.push(i);
    if (roots.length === 0) roots.push(-1);
    const rootPaths = roots.map((i) => (i === -1 ? { v: '.', lit: true } : { v: argv[i]!, lit: inv.args[i]!.literal }));
    const deletes = argv.includes('-delete');
    let execs = false;
    const known = tableFor(FIND_PREDICATES).long;
    for (let i = 0; i < firstExpr; i++) {
      const w = inv.args[i]!;
      if (mayBeOption(w)) a.raise('write', `find: ${w.source} is only known at run time and could be an expression (-delete, -exec)`, SHELL_REACHABLE_EFFECTS);
      if (/^-[^HLP]/.test(argv[i]!) && !/^-[OD]/.test(argv[i]!)) a.raise('write', `find: unknown option ${argv[i]}, so it is not provably read-only`, SHELL_REACHABLE_EFFECTS);
    }
    for (let i = firstExpr; i < argv.length; i++) {
      const x = argv[i]!;
      const w = inv.args[i]!;
      if (mayBeOption(w)) a.raise('write', `find: ${w.source} is only known at run time and could be an expression (-delete, -exec)`, SHELL_REACHABLE_EFFECTS);
      if (x.startsWith('-') && x.length > 1 && !['-exec', '-execdir', '-ok', '-okdir'].includes(x)) {
        const arity = known.get(x.slice(1)) ?? (/^-newer[aBcmt][aBcmt]$/.test(x) ? 'required' : undefined);
        if (arity === undefined) a.raise('write', `find: unknown option ${x}, so it is not provably read-only`, SHELL_REACHABLE_EFFECTS);
        else if (arity === 'required' && !['-fprint', '-fprint0', '-fls', '-fprintf'].includes(x)) {
          i += 1;
          continue;
        }
      }
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(x)) {
        execs = true;
        let end = i + 1;
        while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
        // {} stands for each path found: a value known only at run time.
        const cmd = inv.args.slice(i + 1, end).map((w) => (w.value.includes('{}') ? filledAtRunTime(w, UNKNOWN_OUTPUT) : w));
        a.runArgv(cmd, `find ${x}`);
        for (const r of rootPaths) a.read(r.v, r.lit, inv.cwd, true);
        // Run on every file under / or ~, a deleting or changing command is as broad as rm -rf of it.
        const program = cmd[0]?.value.split('/').pop() ?? '';
        for (const r of rootPaths) {
          const abs = r.lit ? resolveAgainst(r.v, inv.cwd ?? '/', a) : null;
          if (abs !== '/' && abs !== a.ctx.home) {
            const broad = abs !== null && ['rm', 'shred', 'unlink', 'rmdir'].includes(program) && !findNarrows(argv.slice(firstExpr, i)) ? broadDeleteRoot(abs, a.ctx) : null;
            if (broad) a.raise('destructive', `find ${r.v} ${x} ${program} deletes ${broad}`, ['file_delete', 'destructive']);
            continue;
          }
          if (['rm', 'shred', 'unlink', 'rmdir'].includes(program)) a.markHardline(`find ${r.v} ${x} ${program} deletes everything under ${r.v}`);
          else if (['chmod', 'chown', 'chgrp', 'mv', 'truncate', 'sed', 'dd', 'cp'].includes(program)) a.raise('destructive', `find ${r.v} ${x} ${program} changes files across ${r.v === '/' ? 'the whole filesystem' : 'the home folder'}`, ['destructive']);
        }
        i = end;
      } else if (['-fprint', '-fprint0', '-fprintf', '-fls'].includes(x)) {
        const target = argv[i + 1];
        if (target !== undefined) {
          a.raise('write', `find ${x} writes to a file`, ['file_write']);
          a.write(target, inv.args[i + 1]!.literal, inv.cwd);
        }
      }
    }
    if (deletes) {
      a.raise('write', 'find -delete deletes every file it matches', ['file_write', 'file_delete']);
      for (const r of rootPaths) {
        if (!r.lit) continue;
        const abs = resolveAgainst(r.v, inv.cwd ?? '/', a);
        if (abs === '/' || abs === a.ctx.home) a.markHardline(`find ${r.v} -delete deletes everything under ${r.v}`);
        else {
          const broad = abs === null || findNarrows(argv.slice(firstExpr)) ? null : broadDeleteRoot(abs, a.ctx);
          a.write(r.v, r.lit, inv.cwd, 'deletes files under');
          if (broad) a.raise('destructive', `find ${r.v} -delete deletes ${broad}`, ['file_delete', 'destructive']);
        }
      }
    }
    // Without an action find only lists names and attributes: a metadata read (docs/policy.md).
    if (!deletes && !execs) for (const r of rootPaths) if (r.lit && roots[0] !== -1) a.read(r.v, true, inv.cwd, false, 'metadata');
  },
  match: ['find . -name "*.ts"', 'find src -type f -newer x', 'find . -maxdepth 2 -print', 'find . -newermt 2024-01-01 -name -x'],
  notMatch: ['find * -name x', 'find . -frobnicate', 'find $DIR -print', 'find . -fprint0 out', 'find . -fls out', 'find . -fprintf out %p', 'find . -ok rm {} ;', 'find . -okdir rm {} ;', 'find . -name "*.o" -delete', 'find . -exec rm {} \\;', 'find . -fprint out.txt', 'find / -delete', 'find . -execdir sh -c "rm {}" \\;', 'find ~/Documents -delete', 'find .. -exec rm -rf {} +'],
};

const awk: Rule = {
  names: ['awk', 'gawk', 'mawk', 'nawk'],
  base: 'read',
  effects: ['file_read'],
  what: 'processes text',
  // -e/--source is program text; -f/-E/--file/--exec a program file; -i/-l/--include/--load load code. gawk's -d, -o and -p
  // (dump, pretty-print, profile) write files and mawk's -W takes sub-options (-W exec): they are not listed.
  options: `@in-order -F: -v: !-f: !-E: !-i: !-l: -e: -b -c -C -g -h -L -M -n -N -O -P -r -s -S -t -V -k --field-separator= --assign= !--file=
    !--exec= !--include= !--load= --source= --characters-as-bytes --traditional --copyright --gen-pot --help --bignum --use-lc-numeric
    --no-optimize --optimize --posix --re-interval --sandbox --non-decimal-data --version --lint-old --csv`,
  analyze(inv, a) {
    const progFiles = optionValues(inv.argv, 'f', ['file', 'exec']).concat(optionValues(inv.argv, 'E', []));
    if (progFiles.length) {
      a.raise('write', 'awk -f runs a program file that can write files and run commands', SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (hasShort(inv.argv, 'il') || hasLong(inv.argv, ['include', 'load'])) {
      const values = optionValues(inv.argv, 'i', ['include']);
      if (values.includes('inplace')) a.raise('write', 'gawk -i inplace edits files in place', ['file_write']);
      else a.raise('write', 'awk loads extra code', SHELL_REACHABLE_EFFECTS);
    }
    const ops = operands(inv.argv, { short: 'vFfEile', long: ['assign', 'field-separator', 'file', 'include', 'load', 'exec', 'source'] });
    // gawk -e/--source: the program is the option's value and every operand is a file.
    const sources = optionValues(inv.argv, 'e', ['source']);
    if (sources.length) {
      for (const src of sources) {
        const w = inv.args[inv.argv.indexOf(src)];
        if (w && !w.literal) a.markDynamic('awk runs a program computed at run time');
        else judgeAwkProgram(src, a);
      }
      readOperands(inv, a, ops);
      return;
    }
    if (ops.length === 0) return;
    const progWord = inv.args[ops[0]!]!;
    const prog = inv.argv[ops[0]!]!;
    if (!progWord.literal) {
      a.markDynamic('awk runs a program computed at run time');
      return;
    }
    judgeAwkProgram(prog, a);
    readOperands(inv, a, ops.slice(1));
  },

  match: ["awk '{print $1}' file", "awk -F: '$3 > 100 {print $1}' /etc/passwd", "awk 'NR==1' x"],
  notMatch: ["gawk -e 'BEGIN{system(\"rm -rf ~\")}'", "awk -E prog.awk", "awk -l ext '{print}'", "awk --exec=p.awk", "awk --include=lib '{print}'", "awk --load=ext '{print}'", "awk --file=p.awk x", "gawk -o out.awk '{print}'", "awk 'BEGIN{system(\"id\")}'", "awk '{print > \"out.txt\"}' f", "awk '{print | \"sh\"}' f", "awk -f prog.awk data", "awk -i inplace '{print}' f"],
};

function judgeAwkProgram(prog: string, a: Analysis): void {
  judgeAwkCommands(prog, a);
  if (/\b(print|printf)\b[^;{}|]*>/.test(prog)) a.raise('write', 'the awk program writes output to a file', ['file_write']);
  if (/@load|@include|\bextension\s*\(/.test(prog)) a.raise('write', 'the awk program loads code or a native extension', SHELL_REACHABLE_EFFECTS);
  if (/inplace::|INPLACE_SUFFIX/.test(prog)) a.raise('write', 'the awk program edits files in place', ['file_write']);
}

/** awk runs shell commands through system("…"), print | "…" and "…" | getline. */
function judgeAwkCommands(prog: string, a: Analysis): void {
  const literal = (expr: string): string | null => {
    const m = /^\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(expr);
    return m ? m[1]!.replace(/\\(.)/g, '$1') : null;
  };
  for (const m of prog.matchAll(/\bsystem\s*\(([^)]*)\)/g)) {
    a.raise('write', 'the awk program calls system(), which runs shell commands', SHELL_REACHABLE_EFFECTS);
    const code = literal(m[1]!);
    if (code === null) a.markDynamic('the awk program runs a command it builds at run time');
    else a.runCode(code, 'awk system()');
  }
  const piped = [...prog.matchAll(/\b(?:print|printf)\b[^;{}]*?\|&?\s*("(?:[^"\\]|\\.)*"|[^;{}]+)/g), ...prog.matchAll(/("(?:[^"\\]|\\.)*"|[\w$]+)\s*\|&?\s*getline/g)];
  for (const m of piped) {
    a.raise('write', 'the awk program pipes to or from a shell command', SHELL_REACHABLE_EFFECTS);
    const code = literal(m[1]!);
    if (code === null) a.markDynamic('the awk program pipes through a command it builds at run time');
    else {
      a.runCode(code, 'awk |');
      // What awk prints into that command is computed from the input: for a shell, that is code.
      if (/^\s*(\S*\/)?(ba|da|z|k)?sh\b/.test(code)) a.markDynamic('the awk program feeds computed text to a shell');
    }
  }
}

const xxd: Rule = {
  names: ['xxd'],
  base: 'read',
  effects: ['file_read'],
  what: 'prints a hex dump',
  options: '-a -b -C -e -E -h -i -p -u -v -d -c: -g: -l: -n: -o: -s: -R: !-r',
  analyze(inv, a) {
    const ops = operands(inv.argv, { short: 'cglosn', long: ['cols', 'groupsize', 'len', 'seek', 'name'] });
    const reverse = hasShort(inv.argv, 'r') || hasLong(inv.argv, ['revert']);
    if (ops.length >= 2) {
      a.raise('write', 'xxd with an output file writes it', ['file_write']);
      writeOperands(inv, a, [ops[1]!]);
    }
    if (reverse) a.produce({ kind: 'decoded' });
  },
  match: ['xxd file.bin', 'xxd -l 64 x'],
  notMatch: ['xxd -r dump.hex out.bin'],
};

const base64: Rule = {
  names: ['base64', 'base32', 'basenc', 'uudecode', 'rot13'],
  base: 'read',
  effects: ['file_read'],
  what: 'encodes or decodes data',
  options: {
    '*': '--help --version -d -D -i -w: --decode --ignore-garbage --wrap= --base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf --z85 @all-read',
    uudecode: '--help --version !-o: !--output-file=',
    rot13: '@data',
  },
  analyze(inv, a) {
    if (hasShort(inv.argv, 'dD') || hasLong(inv.argv, ['decode']) || inv.name === 'uudecode' || inv.name === 'rot13') a.produce({ kind: 'decoded' });
    if (inv.name === 'uudecode') {
      const outs = optionValues(inv.argv, 'o', ['output-file']);
      // Without -o, uudecode writes the file named inside the encoded data: a path only the run knows.
      if (outs.length === 0) a.raise('write', 'uudecode writes the file named inside the encoded data', ['file_write']);
      else if (!outs.every((o) => o === '-' || o === '/dev/stdout')) a.raise('write', 'uudecode writes a file', ['file_write']);
    }
  },
  match: ['base64 file', 'base64 -d payload.txt', 'base64 --decode'],
  notMatch: ['uudecode -o out.bin x.uu', 'uudecode --output-file=out.bin x.uu', 'base64 --frobnicate'],
};

const date: Rule = {
  names: ['date', 'gdate'],
  base: 'read',
  effects: [],
  what: 'prints the date',
  options: `--help --version -d: -f: -I? -R -r: !-s: -u --date= --file= --iso-8601? --rfc-email --rfc-3339= --reference= !--set= --utc --universal
    --debug --resolution`,
  readsArgs: false,
  analyze(inv, a) {
    const ops = operands(inv.argv, { short: 'dfrI', long: ['date', 'file', 'reference', 'rfc-3339'] });
    const setsOperand = ops.some((i) => !inv.argv[i]!.startsWith('+'));
    if (hasShort(inv.argv, 's') || hasLong(inv.argv, ['set']) || setsOperand) a.raise('destructive', 'date --set changes the system clock', ['destructive']);
    for (const f of optionValues(inv.argv, 'f', ['file'])) a.read(f, true, inv.cwd);
  },
  match: ['date', 'date +%Y-%m-%d', 'date -u -d yesterday'],
  notMatch: ['date --set "2020-01-01"', 'date -s 10:00', 'date 010100002030'],
};

const hostname: Rule = {
  names: ['hostname', 'hostnamectl', 'timedatectl'],
  base: 'read',
  effects: [],
  what: 'prints system identity',
  options: {
    hostname: `--help --version -a -A -d -f -i -I -s -y -n -v -h -V --alias --all-fqdns --domain --fqdn --long --ip-address
      --all-ip-addresses --short --yp --nis --node --verbose !-b !-F: !--boot !--file=`,
    // -H/--host and -M/--machine reach another machine or container: not listed.
    '*': '--help --version --static --transient --pretty --json= -j --no-ask-password --no-pager -a --all -p: --property= --value -h',
  },
  readsArgs: false,
  analyze(inv, a) {
    const ops = operands(inv.argv);
    const setting = inv.name === 'hostname' ? ops.length > 0 || hasShort(inv.argv, 'bF') || hasLong(inv.argv, ['file', 'boot']) : ops.some((i) => /^set-/.test(inv.argv[i]!));
    if (setting) a.raise('destructive', `${inv.name} changes system settings`, ['destructive']);
  },
  match: ['hostname', 'hostname -f', 'hostnamectl status'],
  notMatch: ['hostname -b evil', 'hostname -F name.txt', 'hostname --boot evil', 'hostname --file=name.txt', 'hostnamectl -H host status', 'hostname evil', 'hostnamectl set-hostname x', 'timedatectl set-time 10:00'],
};

/** Whether tar is given an operation: its letter in the leading bundle, as a short option, or a long name (a module function: see judgeSedScript). */
function tarHas(argv: readonly string[], bundle: string, letter: string, long: string[]): boolean {
  return bundle.includes(letter) || hasShort(argv, letter) || hasLong(argv, long);
}

const tar: Rule = {
  names: ['tar', 'gtar', 'bsdtar'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists an archive',
  // Read only when it lists. Options that write or run something the rule does not judge (--index-file,
  // --listed-incremental, --volno-file, --remove-files, --backup) are not listed.
  options: `@bundle --help --version --usage -t -v -f: -z -j -J -a -O -C: -k -m -p -h -w -S -b: -H: -V: -K: -N: -L: -M -R -W -G -T: -X: -i -l -o -s -U
    -Z -B --list --verbose --file= --gzip --gunzip --ungzip --bzip2 --xz --lzip --lzma --lzop --zstd --compress --uncompress
    --auto-compress --no-auto-compress --to-stdout --directory= --diff --compare -d --exclude= --exclude-from= --files-from=
    --wildcards --no-wildcards --anchored --no-anchored --ignore-case --no-ignore-case --null --no-null --strip-components=
    --transform= --xform= --numeric-owner --owner= --group= --mode= --mtime= --newer= --after-date= --newer-mtime= --no-recursion
    --recursion --one-file-system --dereference --hard-dereference --preserve-permissions --same-permissions --same-owner
    --no-same-owner --no-same-permissions --keep-old-files --keep-newer-files --skip-old-files --overwrite --overwrite-dir
    --unlink-first --recursive-unlink --sparse --blocking-factor= --record-size= --format= --posix --label= --multi-volume
    --tape-length= --totals? --show-transformed-names --show-stored-names --utc --full-time --quoting-style= --quote-chars=
    --no-quote-chars= --warning= --ignore-zeros --ignore-failed-read --occurrence? --verify --exclude-vcs --exclude-vcs-ignores
    --exclude-backups --exclude-caches --exclude-caches-under --exclude-caches-all --exclude-tag= --block-number --show-defaults
    --acls --no-acls --selinux --no-selinux --xattrs --no-xattrs --xattrs-include= --xattrs-exclude= --sort= --starting-file=
    --force-local --delay-directory-restore --no-delay-directory-restore --check-device --no-check-device --interactive
    --confirmation --seek --no-seek --atime-preserve? --restrict --hole-detection= --clamp-mtime --pax-option= --no-unquote
    --unquote --preserve-order --same-order --checkpoint? --no-overwrite-dir
    !-c !-x !-r !-u !-A !-P !-I: !-F: !--create !--extract !--get !--append !--update !--catenate !--concatenate !--delete !--to-command=
    !--use-compress-program= !--checkpoint-action= !--info-script= !--new-volume-script= !--rsh-command= !--rmt-command= !--absolute-names`,
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    // Old-style bundled first argument: tar czf out.tgz dir
    const bundle = argv[0] && !argv[0].startsWith('-') ? argv[0] : '';
    const create = tarHas(argv, bundle, 'c', ['create']);
    const extract = tarHas(argv, bundle, 'x', ['extract', 'get']);
    const append = tarHas(argv, bundle, 'r', ['append']) || tarHas(argv, bundle, 'u', ['update']) || tarHas(argv, bundle, 'A', ['catenate', 'concatenate']) || hasLong(argv, ['delete']);
    const archives = optionValues(argv, 'f', ['file']);
    if (bundle.includes('f')) {
      const i = 1;
      if (argv[i]) archives.push(argv[i]!);
    }
    if (hasLong(argv, ['to-command', 'use-compress-program', 'checkpoint-action', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command']) || hasShort(argv, 'IF')) {
      a.raise('write', 'tar runs a program given in its options', SHELL_REACHABLE_EFFECTS);
      for (const code of [...optionValues(argv, '', ['to-command', 'use-compress-program', 'rsh-command', 'rmt-command']), ...optionValues(argv, 'I', [])]) a.runCode(code, 'tar');
      for (const action of optionValues(argv, '', ['checkpoint-action'])) {
        const exec = /^exec=(.*)$/.exec(action);
        if (exec) a.runCode(exec[1]!, 'tar --checkpoint-action');
      }
    }
    for (const f of archives) if (/^[^/]+:/.test(f) && !f.startsWith('./')) a.raise('network', `tar reaches the remote archive ${f}`, ['network']);
    const ops = operands(argv, { short: 'fCbHKLNgTVX', long: ['file', 'directory', 'blocking-factor', 'format', 'label', 'files-from', 'exclude-from', 'newer', 'owner', 'group', 'mode', 'transform', 'exclude'] });
    const members = ops.filter((i) => !(bundle && i === 0) && !(bundle.includes('f') && i === 1));
    if (create || append) {
      a.raise('write', create ? 'tar creates an archive' : 'tar changes an archive', ['file_write']);
      for (const f of archives) if (f !== '-') writeValue(inv, a, f);
      readOperands(inv, a, members, true);
    } else if (extract) {
      a.raise('write', 'tar extracts files', ['file_write']);
      const dirs = optionValues(argv, 'C', ['directory']);
      if (dirs.length) for (const d of dirs) writeValue(inv, a, d);
      else a.write('.', true, inv.cwd, 'extracts into');
      if (hasShort(argv, 'P') || hasLong(argv, ['absolute-names'])) a.raise('write', 'tar -P extracts to absolute paths anywhere', ['file_write']);
      for (const f of archives) a.read(f, true, inv.cwd);
    } else {
      for (const f of archives) a.read(f, true, inv.cwd);
    }
  },
  match: ['tar -tzf archive.tgz', 'tar tvf x.tar', 'tar --list -f a.tar'],
  notMatch: ['tar -rf a.tar x', 'tar -uf a.tar x', 'tar -Af a.tar b.tar', 'tar -xPf a.tar', 'tar -cf x.tar -F "sh -c id" .', 'tar --create -f x.tar .', 'tar --extract -f a.tar', 'tar --get -f a.tar', 'tar --append -f a.tar x', 'tar --update -f a.tar x', 'tar --catenate -f a.tar b.tar', 'tar --concatenate -f a.tar b.tar', 'tar --delete -f a.tar x', 'tar -cf x.tgz --use-compress-program=gzip .', 'tar -tf a.tar --checkpoint=1 --checkpoint-action=exec=id', 'tar -tf a.tar --info-script=x.sh', 'tar -tf a.tar --new-volume-script=x.sh', 'tar -tf h:a.tar --rsh-command=/bin/sh', 'tar -tf h:a.tar --rmt-command=/bin/sh', 'tar -xf a.tar --absolute-names', 'tar -tf a.tar --index-file=out', 'tar czf out.tgz src', 'tar -xzf a.tgz', 'tar -cf - . ', 'tar xf a.tar --to-command=sh', 'tar -c -I "sh -c id" -f x .'],
};

const zip: Rule = {
  names: ['zip', '7z', '7za', '7zr', 'rar', 'unzip', 'unrar', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'lz4', 'unlz4', 'lzma', 'unlzma', 'compress', 'uncompress', 'pigz', 'brotli'],
  base: 'read',
  effects: ['file_read'],
  what: 'inspects an archive',
  options: {
    unzip: '-l -v -t -z -Z -p -c -q -C -L -M -a -b -j -n -o -d: -P: -x -T -U -V -X -K -D -f -u -1 -2 -h -s -O: -I:',
    '*': `--help --version -b: -c -d -f -k -l -n -N -q -r -S: -t -v -1 -2 -3 -4 -5 -6 -7 -8 -9 -T: -M: -F: -e -z -Q -h -V -L --stdout --to-stdout
      --decompress --uncompress --force --keep --list --no-name --name --quiet --recursive --suffix= --test --verbose --best --fast
      --threads= --memlimit= --format= --single-stream --rsyncable --license --no-sparse --ignore-check`,
  },
  analyze(inv, a) {
    const argv = inv.argv;
    const ops = operands(argv, { short: 'xidbTmpPO', long: ['exclude', 'include', 'password'] });
    const n = inv.name;
    if (n === 'unzip' || n === 'unrar') {
      // unzip -l/-t/-v/-Z/-p; unrar l, v, t (list, test) and their technical/bare forms.
      if (hasShort(argv, 'ltvZpc') && n === 'unzip' || ['l', 'v', 't', 'lt', 'lb', 'vt', 'vb', 'lta', 'vta'].includes(argv[0] ?? '')) return;
      a.raise('write', `${n} extracts files`, ['file_write']);
      const dirs = optionValues(argv, 'd', []);
      if (dirs.length) for (const d of dirs) writeValue(inv, a, d);
      else a.write('.', true, inv.cwd, 'extracts into');
      return;
    }
    if (n === 'zip') {
      if (hasShort(argv, 'T') && (argv.includes('-TT') || hasLong(argv, ['unzip-command']))) a.raise('write', 'zip -TT runs a program', SHELL_REACHABLE_EFFECTS);
      a.raise('write', 'zip creates or changes an archive', ['file_write']);
      if (ops.length) writeOperands(inv, a, [ops[0]!]);
      readOperands(inv, a, ops.slice(1), hasShort(argv, 'r') || hasLong(argv, ['recurse-paths']));
      return;
    }
    if (n.startsWith('7z') || n === 'rar') {
      const sub = argv[0];
      // rar l (list), t (test) and p (print) only read, with switches that choose, filter and print
      // (no -o output folder, -sdel, -spf, -v volumes, -w work folder).
      const switches = argv.slice(1).filter((x) => x.startsWith('-') && x !== '--');
      const quiet = switches.every((x) => /^-(so|slt|ba|bd|bb[0-3]?|bso[0-2]|bse[0-2]|bsp[0-2]|y|r-?|r0|p.*|t\w+|scs\w+|scc\w+|sns-?|snh|snl|sni|i[!@r].*|x[!@r].*|an|ai.*|ax.*|mmt\d*|scrc\w*|sccUTF-8)$/.test(x));
      // 7z stays write in every form: the adversarial option corpus (issue 9) holds `7z l` at write.
      if (n === 'rar' && quiet && (['l', 't', 'lt', 'lb', 'vt', 'vb', 'v'].includes(sub ?? '') || (sub === 'p' && switches.length === 0))) return;
      a.raise('write', `${n} ${sub ?? ''} writes files`.trim(), ['file_write']);
      if (sub === 'a' || sub === 'u') readOperands(inv, a, ops.slice(2), true);
      return;
    }
    // gzip family: replaces files unless writing to stdout or only testing/listing. Only -S, -T, -M, -F take values here.
    const gzOps = operands(argv, { short: 'STMFb', long: ['suffix', 'threads', 'memlimit', 'format'] });
    const decoding = n.startsWith('un') || n === 'gunzip' || hasShort(argv, 'd') || hasLong(argv, ['decompress', 'uncompress']);
    const toStdout = hasShort(argv, 'ctl') || hasLong(argv, ['stdout', 'to-stdout', 'test', 'list']) || gzOps.length === 0;
    if (decoding) a.produce({ kind: 'decoded' });
    if (!toStdout) {
      a.raise('write', `${n} replaces files with their ${decoding ? 'decompressed' : 'compressed'} form`, ['file_write', 'file_delete']);
      writeOperands(inv, a, gzOps, decoding ? 'decompresses' : 'compresses');
    }
  },
  match: ['unzip -l a.zip', 'gzip -c file', 'gunzip -t a.gz', 'xz -d -c x.xz'],
  notMatch: ['zip -r out.zip src', 'unzip a.zip', 'gzip big.log', 'gunzip a.gz', '7z x a.7z', 'zip -T -TT "sh -c id" a.zip f'],
};

/** Archivers whose commands are letters (7z l, rar x) or which always write: not read-capable. */
const ARCHIVERS = ['zip', '7z', '7za', '7zr', 'rar', 'unrar'];

const splitters: Rule = {
  names: ['split', 'csplit', 'shuf', 'iconv', 'mktemp', 'convert', 'ffmpeg', 'magick', 'pandoc'],
  base: 'read',
  effects: ['file_read'],
  what: 'converts or splits files',
  // Every form but the printing ones (printsOnly) is write, whatever its options.
  checksOwnOptions: true,
  analyze(inv, a) {
    // ffmpeg -i URL, pandoc URL, magick URL: they fetch what they convert.
    fetchesUrls(inv, a);
    // ImageMagick's -display host:0 talks to the X server of another machine.
    const display = inv.argv.findIndex((x) => x === '-display');
    if (display !== -1 && !/^(unix)?:/.test(inv.argv[display + 1] ?? ':')) a.raise('network', `${inv.name} -display ${inv.argv[display + 1]} talks to the X server of another machine`, ['network']);
    if (inv.name === 'shuf' || inv.name === 'iconv') {
      const outs = optionValues(inv.argv, 'o', ['output']);
      if (outs.length === 0) return;
      a.raise('write', `${inv.name} writes its output to a file`, ['file_write']);
      for (const o of outs) writeValue(inv, a, o);
      return;
    }
    if (printsOnly(inv)) return a.raise('read', `${inv.name} ${inv.argv.join(' ')} only prints`);
    a.raise('write', `${inv.name} writes output files`, ['file_read', 'file_write']);
    if (inv.name === 'mktemp') {
      const dirs = optionValues(inv.argv, 'p', ['tmpdir']);
      if (dirs.length === 0 && !hasShort(inv.argv, 'u')) a.write('/tmp', true, null, 'creates a file in');
      return;
    }
    const outs = optionValues(inv.argv, 'o', ['output']);
    for (const o of outs) writeValue(inv, a, o);
    if (outs.length === 0) a.write('.', true, inv.cwd, 'writes files in');
  },
  match: ['pandoc --list-input-formats', 'magick identify photo.jpg', 'magick mogrify -help', 'ffmpeg -hide_banner -formats'],
  notMatch: ['split -l 100 big.txt part_', 'csplit f /x/', 'ffmpeg -i a.mp4 b.webm', 'pandoc -o ~/.bashrc notes.md', 'pandoc --list-input-formats -o x', 'magick identify -write out.png in.png', 'pandoc -t markdown https://example.com', 'magick import -display example.com:0 -window root x.png'],
};


/**
 * The forms of the converters that only print: pandoc --list-input-formats (and the other --list-* and
 * --print-default-* options), magick identify FILE (image properties), magick -help / -version, magick
 * TOOL -help, ffmpeg -formats and the like. A converter given any of these prints and exits.
 */
const PANDOC_PRINTS = /^--(list-(input|output)-formats|list-extensions(=.*)?|list-highlight-languages|list-highlight-styles|print-default-template=.+|print-default-data-file=.+|print-highlight-style=.+|version|help)$/;
const MAGICK_TOOLS = new Set(['identify', 'compare', 'composite', 'conjure', 'convert', 'display', 'import', 'mogrify', 'montage', 'stream', 'animate']);
const FFMPEG_PRINTS = /^-(version|buildconf|formats|demuxers|muxers|devices|codecs|decoders|encoders|bsfs|protocols|filters|pix_fmts|layouts|sample_fmts|colors|hwaccels|h|help|L)$/;
function printsOnly(inv: Invocation): boolean {
  const argv = inv.argv;
  if (inv.name === 'pandoc') return argv.length === 1 && PANDOC_PRINTS.test(argv[0]!);
  // mktemp -u (--dry-run) prints a name and creates nothing.
  if (inv.name === 'mktemp') return argv.some((x) => x === '-u' || x === '--dry-run') && argv.every((x) => ['-u', '--dry-run', '-d', '--directory', '-q', '--quiet', '-t'].includes(x) || !x.startsWith('-'));
  if (inv.name === 'ffmpeg') return argv.every((x) => FFMPEG_PRINTS.test(x) || x === '-hide_banner') && argv.length > 0;
  if (inv.name === 'magick' || inv.name === 'convert') {
    const rest = inv.name === 'magick' && MAGICK_TOOLS.has(argv[0] ?? '') ? argv.slice(1) : argv;
    if (rest.length === 1 && /^-(help|version|list)$/.test(rest[0]!)) return true;
    if (rest.length === 2 && rest[0] === '-list') return true;
    // magick identify [-verbose|-ping|-quiet|-format F] FILE…: prints image properties (-format %[…] can name only properties).
    if (inv.name === 'magick' && argv[0] === 'identify') {
      const ops = rest.filter((x, i) => !x.startsWith('-') && rest[i - 1] !== '-format' && rest[i - 1] !== '-density');
      return ops.length > 0 && rest.every((x, i) => !x.startsWith('-') || ['-verbose', '-ping', '-quiet', '-regard-warnings', '-format', '-density', '-unique', '-features', '-moments'].includes(x) || ['-format', '-density'].includes(rest[i - 1] ?? ''));
    }
  }
  return false;
}

/** pdftotext PDF [TEXT]: the text goes to TEXT, to `-` (standard output), or next to the PDF as NAME.txt. */
const pdftotext: Rule = {
  names: ['pdftotext'],
  base: 'read',
  effects: ['file_read'],
  what: 'extracts the text of a PDF',
  readsArgs: false,
  options: `@single-dash -f: -l: -r: -x: -y: -W: -H: -layout -fixed: -raw -nodiag -htmlmeta -tsv -enc: -listenc -eol: -nopgbrk -bbox
    -bbox-layout -cropbox -colspacing: -opw: -upw: -q -v -h -help --help`,
  analyze(inv, a) {
    const scan = a.options(inv, tableFor(pdftotext.options as string), 'pdftotext');
    const [input, output] = scan.operands;
    if (input === undefined) return;
    a.read(inv.argv[input]!, inv.args[input]!.literal, inv.cwd);
    if (output !== undefined) {
      if (inv.argv[output] === '-') return;
      a.raise('write', 'pdftotext writes the text to a file', ['file_write']);
      a.write(inv.argv[output]!, inv.args[output]!.literal, inv.cwd);
      return;
    }
    if (inv.argv[input] === '-') return;
    a.raise('write', 'pdftotext writes the text next to the PDF', ['file_write']);
    const pdf = inv.argv[input]!;
    a.write(pdf.replace(/(\.pdf)?$/i, found(scan, '-htmlmeta', '-bbox', '-bbox-layout') ? '.html' : '.txt'), inv.args[input]!.literal, inv.cwd);
  },
  match: ['pdftotext -f 2 -l 2 -layout r.pdf -', 'pdftotext -layout report.pdf -'],
  notMatch: ['pdftotext report.pdf', 'pdftotext report.pdf out.txt', 'pdftotext -htmlmeta r.pdf', 'pdftotext -x 0 r.pdf ~/.bashrc'],
};

/** shuf and iconv only write with -o: their base is read. */
const shufRead: Rule = {
  ...splitters,
  names: ['shuf', 'iconv'],
  checksOwnOptions: undefined,
  base: 'read',
  effects: ['file_read'],
  what: 'transforms text',
  options: {
    shuf: '--help --version -e -i: -n: !-o: -r -z --random-source= --echo --input-range= --head-count= !--output= --repeat --zero-terminated',
    iconv: '--help --version --usage -f: -t: -c -l -s !-o: --from-code= --to-code= --list --silent !--output= --verbose',
  },
  match: ['shuf -n 1 names.txt', 'iconv -f latin1 -t utf8 a'],
  notMatch: ['shuf -o out.txt in.txt', 'shuf --output=o.txt in.txt', 'iconv -f a -t b -o out.txt in.txt', 'iconv -f a -t b --output=o.txt in.txt'],
};

const jqLike: Rule = {
  names: ['yq'],
  base: 'read',
  effects: ['file_read'],
  what: 'queries structured data',
  // -s/--split-exp writes one file per document: not listed.
  options: `--help --version -h -V !-i !--inplace -o: --output-format= -p: --input-format= -e --exit-status -n --null-input -N --no-doc -r -I:
    --indent= -C -M -P --prettyPrint -j -v --verbose --expression= --from-file= --front-matter= --no-colors --colors --unwrapScalar?`,
  analyze(inv, a) {
    if (hasShort(inv.argv, 'i') || hasLong(inv.argv, ['inplace'])) {
      a.raise('write', 'yq -i edits files in place', ['file_write']);
      const ops = operands(inv.argv);
      writeOperands(inv, a, ops.slice(1), 'edits');
    }
  },
  match: ['yq .a config.yaml'],
  notMatch: ['yq -i ".a = 1" config.yaml', 'yq --inplace ".a = 1" config.yaml', 'yq -s ".a" x.yaml'],
};

const treeOut: Rule = {
  names: ['tree'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists a directory tree',
  conventions: { reads: 'metadata' },
  // -R with -H writes an index file into every directory: not listed.
  options: `--help --version -a -d -l -f -x -L: -P: -I: --gitignore --ignore-case --matchdirs --metafirst --prune --info --infofile= --noreport
    --charset= --filelimit= !-o: -i -q -N -Q -p -u -g -s -h --si --du -D --timefmt= -F --inodes --device -v -t -c -U -r --dirsfirst
    --filesfirst --sort= -S -n -C -X -J -H: -T: --nolinks --fromfile`,
  analyze(inv, a) {
    for (const o of optionValues(inv.argv, 'o', [])) {
      a.raise('write', 'tree -o writes its listing to a file', ['file_write']);
      writeValue(inv, a, o);
    }
  },
  match: ['tree -L 2 src'],
  notMatch: ['tree -o out.txt'],
};

const diffOut: Rule = {
  names: ['diff'],
  base: 'read',
  effects: ['file_read'],
  what: 'compares files',
  options: `--help --version -v -q -s -c -C: -u -U: -e -n -y -W: -p -F: -t -T -l -r -N -x: -X: -S: -i -E -Z -b -w -B -I: -a -d -D: -NUM --normal
    --brief --report-identical-files --context? --unified? --ed --rcs --side-by-side --width= --left-column --suppress-common-lines
    --show-c-function --show-function-line= --label= --expand-tabs --initial-tab --tabsize= --suppress-blank-empty --paginate
    --recursive --no-dereference --new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case --exclude=
    --exclude-from= --starting-file= --from-file= --to-file= --ignore-case --ignore-tab-expansion --ignore-trailing-space
    --ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines= --text --strip-trailing-cr --ifdef=
    --line-format= --old-line-format= --new-line-format= --unchanged-line-format= --old-group-format= --new-group-format=
    --unchanged-group-format= --changed-group-format= --horizon-lines= --speed-large-files --color? --palette= --minimal !--output=`,
  analyze(inv, a) {
    if (hasOption(inv.argv, '', ['output'])) a.raise('write', 'diff --output writes a file', ['file_write']);
    if (hasOption(inv.argv, 'r', ['recursive'])) readOperands(inv, a, operands(inv.argv), true);
  },
  match: ['diff a b', 'diff -u old new'],
  notMatch: ['diff --output=x a b'],
};

export const readRules: Rule[] = [
  { ...simpleReaders, names: simpleReaders.names.filter((n) => !['tree', 'diff'].includes(n)) },
  ldd,
  quietBuiltins,
  cd,
  cat,
  grep,
  rg,
  sed,
  sort,
  uniq,
  tee,
  find,
  awk,
  xxd,
  base64,
  date,
  hostname,
  tar,
  { ...zip, names: zip.names.filter((n) => !ARCHIVERS.includes(n)) },
  // zip, 7z, rar and unrar read their own switches (7z -p{password}, -t{type}): the rule judges them, and every form that is not a listing or a test writes.
  {
    ...zip, names: ARCHIVERS, base: 'read', effects: ['file_read'], options: undefined, checksOwnOptions: true, what: 'creates, changes or extracts archives',
    match: ['unrar t a.rar', 'unrar l a.rar', 'rar l a.rar'],
    notMatch: ['zip -r out.zip src', 'zip out.zip ~/.ssh/id_rsa', '7z x a.7z', '7z l a.7z', 'rar l a.rar -sdel', 'unrar x a.rar', 'rar a x.rar f'],
  },
  { ...splitters, names: splitters.names.filter((n) => n !== 'shuf' && n !== 'iconv') },
  shufRead,
  pdftotext,
  jqLike,
  treeOut,
  diffOut,
];

export { endOfOptions };
