// Programs that only read, and the flags that make some of them write or run code.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { endOfOptions, hasLong, hasOption, hasShort, operands, optionValues } from '../args';
import type { Analysis, Invocation } from '../types';
import { broadDeleteRoot, findNarrows } from './files';
import { readOperands, writeOperands, writeValue, type Rule } from './helpers';

const simpleReaders: Rule = {
  names: [
    'ls', 'dir', 'vdir', 'tac', 'nl', 'head', 'tail', 'wc', 'cut', 'paste', 'join', 'comm', 'cmp', 'file', 'stat',
    'du', 'df', 'tree', 'od', 'hexdump', 'strings', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum',
    'sha512sum', 'b2sum', 'cksum', 'sum', 'column', 'fold', 'fmt', 'rev', 'tr', 'look', 'numfmt', 'expand',
    'unexpand', 'pr', 'ptx', 'tsort', 'lsblk', 'lscpu', 'lsusb', 'lspci', 'lsmod', 'lsof', 'ps', 'pgrep', 'pidof',
    'free', 'uptime', 'w', 'who', 'last', 'lastlog', 'users', 'vmstat', 'iostat', 'mpstat', 'nproc', 'getconf',
    'locale', 'printenv', 'tty', 'groups', 'logname', 'arch', 'uname', 'id', 'whoami', 'diff', 'sdiff',
    'diff3', 'colordiff', 'jq', 'gron', 'bat', 'batcat', 'highlight', 'pygmentize', 'nm', 'objdump', 'readelf',
    'ldd', 'size', 'zdump', 'namei', 'findmnt', 'dmesg', 'top', 'htop',
    'btop', 'atop', 'glances', 'ss', 'netstat', 'lsattr', 'getfacl', 'tput', 'stty', 'clear', 'reset', 'sensors',
    'fc-list', 'xxhsum', 'cloc', 'tokei', 'scc', 'less', 'more', 'most', 'man', 'info', 'apropos', 'whatis',
    'tldr', 'fzf', 'csvlook', 'xmllint', 'yamllint', 'shellcheck', 'hadolint',
    'identify', 'pdfinfo', 'mediainfo', 'ffprobe', 'locate',
    'mlocate', 'plocate', 'whereis', 'which', 'type', 'hash', 'help', 'cal', 'ncal', 'factor', 'units',
  ],
  base: 'read',
  effects: ['file_read'],
  what: 'reads files or system state',
  match: ['ls -la src', 'head -n 5 README.md', 'wc -l *.ts', 'diff -u a b', 'jq .name package.json', 'ps aux'],
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
  analyze(inv, a) {
    if (inv.name === 'echo' || inv.name === 'printf') {
      a.produce({ kind: 'literal', text: printedText(inv) });
    }
    if (inv.name === 'printf' && hasShort(inv.argv.slice(0, 1), 'v')) a.raise('read', 'printf -v sets a variable');
  },
  match: ['echo hello', 'printf "%s\\n" x', 'test -f x', 'pwd', 'sleep 1', 'true'],
  notMatch: [],
};

/** The text echo/printf print, for judging what a shell in the pipeline would run. */
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
  notMatch: [],
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
  analyze(inv, a) {
    const ops = operands(inv.argv);
    const decoder = inv.name !== 'cat';
    if (ops.length === 0 || (ops.length === 1 && inv.argv[ops[0]!] === '-')) a.produce(decoder ? { kind: 'decoded' } : inv.stdin);
    else a.produce(decoder ? { kind: 'decoded' } : { kind: 'unknown' });
  },
  match: ['cat README.md', 'cat -n a b', 'zcat log.gz'],
  notMatch: [],
};

const grep: Rule = {
  names: ['grep', 'egrep', 'fgrep', 'zgrep', 'ag', 'ack', 'ack-grep'],
  base: 'read',
  effects: ['file_read'],
  what: 'searches files',
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
  notMatch: [],
};

const rg: Rule = {
  names: ['rg', 'ripgrep'],
  base: 'read',
  effects: ['file_read'],
  what: 'searches files',
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

/** Finds sed commands that write (w, W, s///w) or execute (e, s///e), and files read by r/R. */
function judgeSedScript(script: string, inv: Invocation, a: Analysis): void {
  let i = 0;
  const n = script.length;
  const skipSpace = () => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  const readRegex = (delim: string) => {
    i++;
    while (i < n && script[i] !== delim) {
      if (script[i] === '\\') i++;
      i++;
    }
    i++;
  };
  const restOfLine = () => {
    const start = i;
    while (i < n && script[i] !== '\n') i++;
    return script.slice(start, i).trim();
  };
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    // Address: numbers, $, /re/, \cREc, ranges, steps, !.
    for (;;) {
      const c = script[i];
      if (c === undefined) break;
      if (/[0-9$,~+!]/.test(c) || c === ' ') i++;
      else if (c === '/') readRegex('/');
      else if (c === '\\' && i + 1 < n) {
        i++;
        readRegex(script[i]!);
      } else break;
    }
    const cmd = script[i];
    if (cmd === undefined) break;
    i++;
    if (cmd === '{' || cmd === '}') continue;
    if (cmd === '#') {
      restOfLine();
      continue;
    }
    if (cmd === 's' || cmd === 'y') {
      const delim = script[i];
      if (delim === undefined) break;
      readRegex(delim);
      const replacementStart = i;
      i--;
      readRegex(delim);
      const replacement = script.slice(replacementStart, i - 1);
      if (cmd === 'y') continue;
      let flags = '';
      while (i < n && /[gpiImMe0-9w]/.test(script[i]!)) {
        flags += script[i];
        if (script[i] === 'w') {
          i++;
          const target = restOfLine();
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
      const target = restOfLine();
      a.raise('write', `sed's ${cmd} command writes ${target}`, ['file_write']);
      a.write(target, true, inv.cwd);
      continue;
    }
    if (cmd === 'e') {
      const code = restOfLine();
      a.raise('write', "sed's e command runs a shell command", SHELL_REACHABLE_EFFECTS);
      if (code) a.runCode(code, 'sed e');
      continue;
    }
    if (cmd === 'r' || cmd === 'R') {
      a.read(restOfLine(), true, inv.cwd);
      continue;
    }
    if ('aic'.includes(cmd)) {
      restOfLine();
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
  readsArgs: false,
  analyze(inv, a) {
    writeOperands(inv, a, operands(inv.argv, { long: ['output-error'] }));
    if (inv.stdin.kind === 'remote' || inv.stdin.kind === 'decoded' || inv.stdin.kind === 'literal') a.produce(inv.stdin);
  },
  match: ['tee', 'tee /dev/null'],
  notMatch: ['tee out.log', 'tee -a a.txt b.txt'],
};

const find: Rule = {
  names: ['find', 'gfind', 'bfs'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists files',
  readsArgs: false,
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
    for (let i = firstExpr; i < argv.length; i++) {
      const x = argv[i]!;
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(x)) {
        execs = true;
        let end = i + 1;
        while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
        // {} stands for each path found: a value known only at run time.
        const cmd = inv.args.slice(i + 1, end).map((w) => (w.value.includes('{}') ? { ...w, literal: false } : w));
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
    if (!deletes && !execs) for (const r of rootPaths) if (r.lit && roots[0] !== -1) a.read(r.v, true, inv.cwd);
  },
  match: ['find . -name "*.ts"', 'find src -type f -newer x', 'find . -maxdepth 2 -print'],
  notMatch: ['find . -name "*.o" -delete', 'find . -exec rm {} \\;', 'find . -fprint out.txt', 'find / -delete', 'find . -execdir sh -c "rm {}" \\;', 'find ~/Documents -delete', 'find .. -exec rm -rf {} +'],
};

const awk: Rule = {
  names: ['awk', 'gawk', 'mawk', 'nawk'],
  base: 'read',
  effects: ['file_read'],
  what: 'processes text',
  analyze(inv, a) {
    const progFiles = optionValues(inv.argv, 'f', ['file', 'exec']).concat(optionValues(inv.argv, 'E', []));
    if (progFiles.length) {
      a.raise('write', 'awk -f runs a program file that can write files and run commands', SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (hasShort(inv.argv, 'i') || hasLong(inv.argv, ['include', 'load'])) {
      const values = optionValues(inv.argv, 'i', ['include']);
      if (values.includes('inplace')) a.raise('write', 'gawk -i inplace edits files in place', ['file_write']);
      else a.raise('write', 'awk loads extra code', SHELL_REACHABLE_EFFECTS);
    }
    const ops = operands(inv.argv, { short: 'vFfEil', long: ['assign', 'field-separator', 'file', 'include', 'load', 'exec'] });
    if (ops.length === 0) return;
    const progWord = inv.args[ops[0]!]!;
    const prog = inv.argv[ops[0]!]!;
    if (!progWord.literal) {
      a.markDynamic('awk runs a program computed at run time');
      return;
    }
    judgeAwkCommands(prog, a);
    if (/\b(print|printf)\b[^;{}|]*>/.test(prog)) a.raise('write', 'the awk program writes output to a file', ['file_write']);
    if (/@load|\bextension\s*\(/.test(prog)) a.raise('write', 'the awk program loads a native extension', SHELL_REACHABLE_EFFECTS);
    if (/inplace::|INPLACE_SUFFIX/.test(prog)) a.raise('write', 'the awk program edits files in place', ['file_write']);
    readOperands(inv, a, ops.slice(1));
  },
  match: ["awk '{print $1}' file", "awk -F: '$3 > 100 {print $1}' /etc/passwd", "awk 'NR==1' x"],
  notMatch: ["awk 'BEGIN{system(\"id\")}'", "awk '{print > \"out.txt\"}' f", "awk '{print | \"sh\"}' f", "awk -f prog.awk data", "awk -i inplace '{print}' f"],
};

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
  analyze(inv, a) {
    if (hasShort(inv.argv, 'dD') || hasLong(inv.argv, ['decode']) || inv.name === 'uudecode' || inv.name === 'rot13') a.produce({ kind: 'decoded' });
    if (inv.name === 'uudecode' && optionValues(inv.argv, 'o', ['output-file']).length) a.raise('write', 'uudecode writes a file', ['file_write']);
  },
  match: ['base64 file', 'base64 -d payload.txt', 'base64 --decode'],
  notMatch: [],
};

const date: Rule = {
  names: ['date', 'gdate'],
  base: 'read',
  effects: [],
  what: 'prints the date',
  readsArgs: false,
  analyze(inv, a) {
    const ops = operands(inv.argv, { short: 'dfrI', long: ['date', 'file', 'reference'] });
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
  readsArgs: false,
  analyze(inv, a) {
    const ops = operands(inv.argv);
    const setting = inv.name === 'hostname' ? ops.length > 0 || hasShort(inv.argv, 'bF') || hasLong(inv.argv, ['file', 'boot']) : ops.some((i) => /^set-/.test(inv.argv[i]!));
    if (setting) a.raise('destructive', `${inv.name} changes system settings`, ['destructive']);
  },
  match: ['hostname', 'hostname -f', 'hostnamectl status'],
  notMatch: ['hostname evil', 'hostnamectl set-hostname x', 'timedatectl set-time 10:00'],
};

const tar: Rule = {
  names: ['tar', 'gtar', 'bsdtar'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists an archive',
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    // Old-style bundled first argument: tar czf out.tgz dir
    const bundle = argv[0] && !argv[0].startsWith('-') ? argv[0] : '';
    const has = (letter: string, long: string[]) => bundle.includes(letter) || hasShort(argv, letter) || hasLong(argv, long);
    const create = has('c', ['create']);
    const extract = has('x', ['extract', 'get']);
    const append = has('r', ['append']) || has('u', ['update']) || has('A', ['catenate', 'concatenate']) || hasLong(argv, ['delete']);
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
  notMatch: ['tar czf out.tgz src', 'tar -xzf a.tgz', 'tar -cf - . ', 'tar xf a.tar --to-command=sh', 'tar -c -I "sh -c id" -f x .'],
};

const zip: Rule = {
  names: ['zip', '7z', '7za', '7zr', 'rar', 'unzip', 'unrar', 'gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'lz4', 'unlz4', 'lzma', 'unlzma', 'compress', 'uncompress', 'pigz', 'brotli'],
  base: 'read',
  effects: ['file_read'],
  what: 'inspects an archive',
  analyze(inv, a) {
    const argv = inv.argv;
    const ops = operands(argv, { short: 'xidbTmpPO', long: ['exclude', 'include', 'password'] });
    const n = inv.name;
    if (n === 'unzip' || n === 'unrar') {
      if (hasShort(argv, 'ltvZp') || argv[0] === 'l' || argv[0] === 'v') return;
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
      if (sub === 'l' || sub === 't' || sub === 'h' || sub === 'i') return;
      a.raise('write', `${n} ${sub ?? ''} writes files`.trim(), ['file_write']);
      if (sub === 'a' || sub === 'u') readOperands(inv, a, ops.slice(2), true);
      return;
    }
    // gzip family: replaces files unless writing to stdout or only testing/listing.
    const decoding = n.startsWith('un') || n === 'gunzip' || hasShort(argv, 'd') || hasLong(argv, ['decompress', 'uncompress']);
    const toStdout = hasShort(argv, 'ctl') || hasLong(argv, ['stdout', 'to-stdout', 'test', 'list']) || ops.length === 0;
    if (decoding) a.produce({ kind: 'decoded' });
    if (!toStdout) {
      a.raise('write', `${n} replaces files with their ${decoding ? 'decompressed' : 'compressed'} form`, ['file_write', 'file_delete']);
      writeOperands(inv, a, ops, decoding ? 'decompresses' : 'compresses');
    }
  },
  match: ['unzip -l a.zip', 'gzip -c file', 'gunzip -t a.gz', '7z l a.7z', 'xz -d -c x.xz'],
  notMatch: ['zip -r out.zip src', 'unzip a.zip', 'gzip big.log', 'gunzip a.gz', '7z x a.7z', 'zip -T -TT "sh -c id" a.zip f'],
};

const splitters: Rule = {
  names: ['split', 'csplit', 'shuf', 'iconv', 'mktemp', 'pdftotext', 'convert', 'ffmpeg', 'magick', 'pandoc'],
  base: 'write',
  effects: ['file_read', 'file_write'],
  what: 'writes output files',
  analyze(inv, a) {
    if (inv.name === 'shuf' || inv.name === 'iconv') {
      const outs = optionValues(inv.argv, 'o', ['output']);
      if (outs.length === 0) return;
      for (const o of outs) writeValue(inv, a, o);
      return;
    }
    if (inv.name === 'mktemp') {
      const dirs = optionValues(inv.argv, 'p', ['tmpdir']);
      if (dirs.length === 0 && !hasShort(inv.argv, 'u')) a.write('/tmp', true, null, 'creates a file in');
      return;
    }
    const outs = optionValues(inv.argv, 'o', ['output']);
    for (const o of outs) writeValue(inv, a, o);
    if (outs.length === 0) a.write('.', true, inv.cwd, 'writes files in');
  },
  match: ['split -l 100 big.txt part_', 'csplit f /x/', 'ffmpeg -i a.mp4 b.webm'],
  notMatch: [],
};

/** shuf and iconv only write with -o: their base is read. */
const shufRead: Rule = {
  ...splitters,
  names: ['shuf', 'iconv'],
  base: 'read',
  effects: ['file_read'],
  what: 'transforms text',
  match: ['shuf -n 1 names.txt', 'iconv -f latin1 -t utf8 a'],
  notMatch: ['shuf -o out.txt in.txt', 'iconv -f a -t b -o out.txt in.txt'],
};

const jqLike: Rule = {
  names: ['yq'],
  base: 'read',
  effects: ['file_read'],
  what: 'queries structured data',
  analyze(inv, a) {
    if (hasShort(inv.argv, 'i') || hasLong(inv.argv, ['inplace'])) {
      a.raise('write', 'yq -i edits files in place', ['file_write']);
      const ops = operands(inv.argv);
      writeOperands(inv, a, ops.slice(1), 'edits');
    }
  },
  match: ['yq .a config.yaml'],
  notMatch: ['yq -i ".a = 1" config.yaml'],
};

const treeOut: Rule = {
  names: ['tree'],
  base: 'read',
  effects: ['file_read'],
  what: 'lists a directory tree',
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
  analyze(inv, a) {
    if (hasOption(inv.argv, '', ['output'])) a.raise('write', 'diff --output writes a file', ['file_write']);
    if (hasOption(inv.argv, 'r', ['recursive'])) readOperands(inv, a, operands(inv.argv), true);
  },
  match: ['diff a b', 'diff -u old new'],
  notMatch: ['diff --output=x a b'],
};

export const readRules: Rule[] = [
  { ...simpleReaders, names: simpleReaders.names.filter((n) => !['tree', 'diff'].includes(n)) },
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
  zip,
  { ...splitters, names: splitters.names.filter((n) => n !== 'shuf' && n !== 'iconv') },
  shufRead,
  jqLike,
  treeOut,
  diffOut,
];

export { endOfOptions };
