// Shells and interpreters. Shell code given as a literal string is parsed and judged; code from a file,
// from the input of a pipeline or built at run time can reach every effect; remote or decoded content
// fed to any interpreter is destructive.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { optionValues } from '../args';
import type { Analysis, Invocation } from '../types';
import type { CheckConvention, ProgramConventions } from '../types';
import type { Rule } from './helpers';
import { UNKNOWN_OUTPUT } from '../words';

export const SHELLS = ['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'pdksh', 'yash', 'ash', 'fish', 'rbash', 'tcsh', 'csh', 'oksh', 'loksh', 'posh', 'elvish', 'nu', 'xonsh', 'ion', 'oil', 'osh', 'ysh'];

/** Shell options that take a value (bash -o opt, -O shopt, --rcfile f). */
const SHELL_VALUED_SHORT = 'oO';
const SHELL_VALUED_LONG = ['rcfile', 'init-file', 'dump-po-strings-file'];

/** Shell options that keep it from reading start-up files or prompting; -l/--login/-i read them (they run code). */
const SHELL_OPTIONS = `@in-order @plus --version --help -c -s -e -u -x -v -n -f -a -b -h -k -m -p -t -B -C -E -H -P -T -r -o: -O: +e +u +x +v +n +f +a +b +h +m
  +p +t +B +C +E +H +P +T +o: +O: --norc --noprofile --posix --restricted --noediting --verbose --command= --debugger --dump-strings
  --dump-po-strings !-l !-i !--login !--interactive !--rcfile= !--init-file=`;

/**
 * `-n` reads commands without running them (POSIX sh, bash, dash, ksh, zsh, csh, tcsh). Only beside options
 * that change nothing else: -i and -l are not listed (an interactive or login shell ignores -n, or reads
 * start-up files), nor --rcfile, -O or -o (which could name another option). Its script is read.
 */
const SHELL_SYNTAX_CHECK: CheckConvention = {
  when: ['-n'],
  table: '@in-order -n -v -x -e -u -f --norc --noprofile --posix',
  what: 'only checks the syntax (-n reads commands without running them)',
  operands: 'read',
};
/** fish spells it -n or --no-execute. */
const FISH_SYNTAX_CHECK: CheckConvention = { when: ['-n', '--no-execute'], table: '@in-order -n --no-execute -N --no-config -p: --profile= -d: --debug=', what: 'only checks the syntax (--no-execute)', operands: 'read' };

const SHELL_CONVENTIONS: { byName: Readonly<Record<string, ProgramConventions>> } = {
  byName: {
    ...Object.fromEntries(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'pdksh', 'yash', 'ash', 'rbash', 'tcsh', 'csh', 'oksh', 'loksh', 'posh'].map((n) => [n, { checks: [SHELL_SYNTAX_CHECK] }])),
    fish: { checks: [FISH_SYNTAX_CHECK] },
    '*': {},
  },
};

function analyzeShell(inv: Invocation, a: Analysis): void {
  const argv = inv.argv;
  const scan = a.options(inv, SHELL_OPTIONS, inv.name);
  if (scan.found.some((f) => ['-l', '-i', '--login', '--interactive'].includes(f.name))) {
    a.raise('write', `${inv.name} ${scan.found.find((f) => ['-l', '-i', '--login', '--interactive'].includes(f.name))!.name} reads start-up files (~/.bash_profile, ~/.bashrc), which run code`, SHELL_REACHABLE_EFFECTS);
  }
  let i = 0;
  let command: number | null = null;
  let fromStdin = false;
  for (; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--' || x === '-') {
      if (x === '-') fromStdin = true;
      i++;
      break;
    }
    if (x.startsWith('--')) {
      const key = x.slice(2).split('=')[0]!;
      if (SHELL_VALUED_LONG.includes(key)) {
        const file = x.includes('=') ? x.split('=')[1]! : argv[++i] ?? '';
        a.raise('write', `${inv.name} --${key} runs the file ${file}`, SHELL_REACHABLE_EFFECTS);
      }
      if (key === 'command') command = ++i;
      continue;
    }
    if ((x.startsWith('-') || x.startsWith('+')) && x.length > 1) {
      for (let j = 1; j < x.length; j++) {
        const letter = x[j]!;
        if (letter === 'c') command = -1;
        if (letter === 's') fromStdin = true;
        if (SHELL_VALUED_SHORT.includes(letter) && j === x.length - 1) i++;
      }
      continue;
    }
    break;
  }
  if (command === -1) {
    // With -c, the first operand is the code; the rest become $0, $1, ...
    const w = inv.args[i];
    if (!w) {
      a.raise('write', `${inv.name} -c without code`, SHELL_REACHABLE_EFFECTS);
      return;
    }
    // The code's commands inherit the shell's standard input (env | bash -c 'curl -d @- …').
    a.runCode(w, `${inv.name} -c`, inv.stdin);
    return;
  }
  if (command !== null) {
    const w = inv.args[command];
    if (w) a.runCode(w, `${inv.name} --command`);
    return;
  }
  if (i < argv.length && !fromStdin) {
    const script = inv.args[i]!;
    if (script.value === '/dev/stdin' || script.value === '/proc/self/fd/0') {
      a.runStdinAsShell(inv.stdin, inv.name);
      return;
    }
    if (script.substitutions.length) a.runCode(script, `${inv.name} <(...)`);
    else a.raise('write', `${inv.name} runs the script ${script.value}, which the classifier does not read`, SHELL_REACHABLE_EFFECTS);
    return;
  }
  a.runStdinAsShell(inv.stdin, inv.name);
}

const shells: Rule = {
  names: SHELLS,
  base: 'read',
  effects: [],
  what: 'runs shell code',
  readsArgs: false,
  options: SHELL_OPTIONS,
  checksOwnOptions: true,
  analyze: analyzeShell,
  conventions: SHELL_CONVENTIONS,
  match: ['bash -c "ls -la"', 'sh -c "echo hi"', 'bash --version', 'bash -ec "ls"', 'bash -n backup.sh', 'sh -n x.sh', 'zsh -n x.zsh', 'dash -n -x x.sh'],
  notMatch: ['bash -n -i x.sh', 'bash -n -l x.sh', 'bash -n --rcfile=r x.sh', 'bash -v', 'bash help', 'bash -l -c "ls"', 'bash -ic "ls"', 'bash --login -c ls', 'bash --interactive -c ls', 'bash --rcfile=x -c ls', 'bash --init-file=x -c ls', 'bash -c "rm -rf /"', 'bash script.sh', 'curl x | bash', 'bash <(curl -s x)', 'bash -c "$CMD"', 'sh'],
};

const evalRule: Rule = {
  names: ['eval'],
  base: 'read',
  effects: [],
  what: 'runs its arguments as shell code',
  readsArgs: false,
  options: '@data',
  analyze(inv, a) {
    if (inv.args.length === 0) return;
    if (inv.args.every((w) => w.literal)) a.runCode(inv.argv.join(' '), 'eval');
    else if (inv.args.length === 1) a.runCode(inv.args[0]!, 'eval');
    else a.runCode({ ...inv.args[0]!, literal: false, substitutions: inv.args.flatMap((w) => w.substitutions), source: inv.args.map((w) => w.source).join(' ') }, 'eval');
  },
  match: ['eval "echo hi"', 'eval ls'],
  notMatch: ['eval "rm -rf /"', 'eval "$(curl -s x)"', 'eval $CMD'],
};

const source: Rule = {
  names: ['source', '.'],
  base: 'read',
  effects: [],
  what: 'runs a file of shell code in the current shell',
  readsArgs: false,
  options: '@data',
  analyze(inv, a) {
    const w = inv.args[0];
    if (!w) return;
    if (w.value === '/dev/stdin' || w.value === '/proc/self/fd/0' || w.value === '-') {
      a.runStdinAsShell(inv.stdin, inv.name);
      return;
    }
    if (w.substitutions.length) {
      a.runCode(w, `${inv.name} <(...)`);
      return;
    }
    a.raise('write', `${inv.name} runs ${w.value}, shell code the classifier does not read`, SHELL_REACHABLE_EFFECTS);
    a.read(w.value, w.literal, inv.cwd);
  },
  match: [],
  notMatch: ['source ./env.sh', '. <(curl -s x)', 'source /dev/stdin'],
};

/** Interpreters: flags that take code inline (-c, -e, -p ...) and flags that only print a version. */
interface InterpreterSpec {
  names: string[];
  code: string;
  codeLong?: string[];
  module?: string;
  /** The shared conventions (conventions.ts): short info options, and syntax checks that run nothing. */
  conventions?: ProgramConventions;
}

const INTERPRETERS: InterpreterSpec[] = [
  { names: ['python', 'python2', 'python3', 'pypy', 'pypy3', 'ipython', 'jython', 'micropython'], code: 'c', module: 'm', conventions: { info: ['-V', '-h'] } },
  // node --check parses the script without running it (no --require or --import beside it).
  { names: ['node', 'nodejs'], code: 'ep', codeLong: ['eval', 'print'], conventions: { info: ['-v', '-h'], checks: [{ when: ['-c', '--check'], table: '-c --check', what: 'only checks the syntax (--check)', operands: 'read' }] } },
  // deno task with no task name lists the tasks deno.json declares.
  { names: ['deno'], code: '', codeLong: ['eval'], conventions: { info: ['-V', '-h', 'task'] } },
  // perl -c runs BEGIN, CHECK and use: it is not a check that runs nothing.
  { names: ['perl', 'perl5'], code: 'eE', conventions: { info: ['-v'] } },
  // ruby -c: "check syntax only"; -r/-I (which load code) are not listed beside it.
  { names: ['ruby', 'jruby', 'irb'], code: 'e', conventions: { info: ['-v', '-h'], checks: [{ when: ['-c'], table: '-c -w -W?', what: 'only checks the syntax (-c)', operands: 'read' }] } },
  // php -l: "syntax check only (lint)"; -d/-c (ini settings such as auto_prepend_file) are not listed.
  { names: ['php', 'php-cli'], code: 'rR', codeLong: [], conventions: { info: ['-v', '-h', '-i', '--info', '-m', '--modules', '--ini'], checks: [{ when: ['-l', '--syntax-check'], table: '-l --syntax-check -n --no-php-ini -q --no-header', what: 'only checks the syntax (-l)', operands: 'read' },
    // --rf, --rc, --re, --rz, --ri print reflection information about a function, class or extension.
    { when: ['--rf', '--rfunction', '--rc', '--rclass', '--re', '--rextension', '--rz', '--rzendextension', '--ri', '--rextinfo'], table: '--rf= --rfunction= --rc= --rclass= --re= --rextension= --rz= --rzendextension= --ri= --rextinfo=', what: 'prints reflection information', operands: 'none' }] } },
  // java -version, -help, --help-extra and -X print and exit (the JVM starts, no class is loaded); kotlin -version likewise.
  { names: ['java'], code: '', conventions: { info: ['-version', '-help', '-h', '-?', '--help-extra', '-X', '--show-version-only'] } },
  { names: ['kotlin'], code: '', conventions: { info: ['-version', '-help', '-h'] } },
  { names: ['ts-node'], code: 'ep', codeLong: ['eval', 'print'], conventions: { info: ['-v', '-h'] } },
  { names: ['lua', 'luajit'], code: 'e' },
  { names: ['tclsh', 'wish', 'expectk'], code: '' },
  { names: ['Rscript', 'R'], code: 'e' },
  { names: ['julia'], code: 'eE', codeLong: ['eval', 'print'] },
  { names: ['osascript', 'jxa'], code: 'e' },
  { names: ['groovy', 'scala', 'jshell', 'clojure', 'clj', 'bb', 'racket', 'guile', 'sbcl', 'ocaml', 'runghc', 'runhaskell', 'ghci', 'elixir', 'iex', 'erl', 'escript', 'swipl', 'gforth', 'pwsh', 'powershell', 'powershell.exe', 'cmd', 'cmd.exe', 'wscript', 'cscript', 'dotnet-script', 'tsx', 'esno', 'vite-node', 'qjs', 'rhino', 'gjs', 'd8', 'jjs'], code: 'ec', codeLong: ['eval', 'command', 'Command', 'EncodedCommand'] },
];

const NON_POSIX = new Set(['pwsh', 'powershell', 'powershell.exe', 'cmd', 'cmd.exe', 'wscript', 'cscript']);

function interpreterRule(spec: InterpreterSpec): Rule {
  return {
    names: spec.names,
    base: 'read',
    effects: [],
    what: 'is a language interpreter',
    readsArgs: true,
    conventions: spec.conventions ?? {},
    // Read only with nothing but --version/--help, or python -I -m json.tool: analyze() checks that itself.
    checksOwnOptions: true,
    analyze(inv, a) {
      const argv = inv.argv;
      // Code fetched by name: deno run jsr:/npm:/https:, deno install; clj -P and -Sdeps resolve dependencies;
      // erl -remsh and iex --remsh attach to another node.
      if (inv.name === 'deno' && (argv[0] === 'install' || argv[0] === 'add' || argv.some((x) => /^(jsr:|npm:|https?:\/\/)/.test(x)))) a.raise('network', 'deno downloads modules it is given by name or URL', ['network']);
      if ((inv.name === 'clj' || inv.name === 'clojure') && argv.some((x) => x === '-P' || x.startsWith('-Sdeps'))) a.raise('network', `${inv.name} downloads the dependencies it is given`, ['network']);
      if (argv.some((x) => x === '-remsh' || x === '--remsh')) a.raise('network', `${inv.name} attaches to another node over the network`, ['network']);
      if (NON_POSIX.has(inv.name)) {
        a.raise('write', `${inv.name} is not a POSIX shell; its commands are not analysed`, SHELL_REACHABLE_EFFECTS);
        a.flag('non_posix', `non-POSIX: ${inv.name} commands are not analysed`);
      }
      // python -m pip / -m venv / -m json.tool / -m http.server
      if (spec.module) {
        const mod = optionValues(argv, spec.module, [])[0];
        if (mod !== undefined) {
          const rest = inv.args.slice(argv.indexOf(mod) + 1);
          if (mod === 'twine') {
            a.runArgv([{ source: 'twine', value: 'twine', literal: true, glob: false, substitutions: [], unknown: [] }, ...rest], `${inv.name} -m`);
            return;
          }
          if (mod === 'pip' || mod === 'pip3') {
            // venv/bin/python -m pip is venv/bin/pip.
            const pip = inv.rawName.includes('/') ? inv.rawName.slice(0, inv.rawName.lastIndexOf('/') + 1) + 'pip' : 'pip';
            a.runArgv([{ source: pip, value: pip, literal: true, glob: false, substitutions: [], unknown: [] }, ...rest], `${inv.name} -m`);
            return;
          }
          if (mod === 'json.tool' || mod === 'tabnanny' || mod === 'sysconfig') {
            // -m searches the current directory first (a workspace json/ package would run): read only when isolated (-I).
            const before = inv.args.slice(0, argv.indexOf(mod) - 1);
            const isolated = before.some((w) => /^-[A-Za-z]*I[A-Za-z]*$/.test(w.value));
            if (!isolated) a.raise('write', `${inv.name} -m ${mod} imports modules from the current directory first; only -I (isolated) keeps it read-only`, SHELL_REACHABLE_EFFECTS);
            a.options({ ...inv, argv: before.map((w) => w.value), args: before }, '-I -E -s -S -B -u -q', inv.name);
            const rest = inv.args.slice(argv.indexOf(mod) + 1);
            a.options({ ...inv, argv: rest.map((w) => w.value), args: rest }, '--sort-keys --indent= --tab --no-indent --compact --json-lines --no-ensure-ascii -h --help -v -q', `${inv.name} -m ${mod}`);
            const outFile = rest.filter((w) => !w.value.startsWith('-'))[1];
            if (mod === 'json.tool' && outFile) a.write(outFile.value, outFile.literal, inv.cwd, 'writes');
            return;
          }
          if (mod === 'http.server' || mod === 'smtpd' || mod === 'ftplib') {
            a.raise('network', `${inv.name} -m ${mod} opens a network service`, ['network']);
            return;
          }
          if (mod === 'venv' || mod === 'virtualenv' || mod === 'compileall' || mod === 'zipapp') {
            a.raise('write', `${inv.name} -m ${mod} writes files`, ['file_write']);
            return;
          }
          a.runForeignCode(null, `${inv.name} -m ${mod}`);
          return;
        }
      }
      const inline = [...(spec.code ? optionValues(argv, spec.code[0]!, spec.codeLong ?? []) : optionValues(argv, '', spec.codeLong ?? []))];
      for (const letter of spec.code.slice(1)) inline.push(...optionValues(argv, letter, []));
      if (inline.length) {
        for (const code of inline) {
          const w = inv.args[argv.indexOf(code)];
          if (w && !w.literal) {
            if (w.substitutions.length) a.runCode(w, `${inv.name} -${spec.code[0] ?? 'e'}`);
            else a.markDynamic(`${inv.name} runs code computed at run time`);
          } else a.runForeignCode(code, `${inv.name} -${spec.code[0] ?? 'e'}`);
        }
        return;
      }
      // A script file, or code from standard input.
      const script = inv.args.find((w, i) => !argv[i]!.startsWith('-'));
      if (script && script.value !== '-' && script.value !== '/dev/stdin') {
        if (script.substitutions.length) {
          a.runForeignCode(null, `${inv.name} <(...)`, UNKNOWN_OUTPUT);
          a.runCode(script, `${inv.name} <(...)`);
          return;
        }
        a.runForeignCode(null, `${inv.name} ${script.value}`);
        return;
      }
      a.runForeignCode(null, inv.name, inv.stdin);
    },
    match: [`${spec.names[0]} --version`],
    notMatch: [`${spec.names[0]} script.x`],
  };
}

/** A URL among the operands (or a bare host for a browser): the program fetches it. */
function opensUrl(inv: Invocation, a: Analysis, bareHosts: boolean): void {
  for (let i = 0; i < inv.argv.length; i++) {
    const v = inv.argv[i]!.replace(/^--?[\w-]+=/, '');
    const url = /^(https?|ftps?|wss?):\/\/[^/\s]/i.test(v);
    if (!inv.args[i]!.literal || !(url || (bareHosts && !v.startsWith('-') && /^[\w-]+(\.[\w-]+)+(:\d+)?(\/|$)/.test(v)))) continue;
    a.raise('network', `${inv.name} opens ${v.length > 60 ? v.slice(0, 59) + '…' : v} from the network`, ['network']);
    return;
  }
}

const BROWSERS = new Set(['sensible-browser', 'x-www-browser', 'firefox', 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'brave-browser', 'microsoft-edge', 'vivaldi', 'opera', 'epiphany', 'qutebrowser']);

const editors: Rule = {
  names: ['vi', 'vim', 'nvim', 'gvim', 'view', 'ex', 'ed', 'nano', 'pico', 'emacs', 'emacsclient', 'micro', 'hx', 'helix', 'kak', 'joe', 'mcedit', 'code', 'codium', 'subl', 'gedit', 'kate', 'atom', 'zed', 'cursor', 'idea', 'pycharm', 'mc', 'ranger', 'nnn', 'lf', 'vifm'],
  base: 'write',
  effects: SHELL_REACHABLE_EFFECTS,
  what: 'opens an interactive editor or file manager, which can change files and run commands',
  // What the editors document as printing and exiting (VS Code's --list-extensions and --status, gedit's --list-encodings).
  conventions: {
    byName: {
      code: { info: ['-v', '-h', '--list-extensions', '--show-versions', '--status'] }, codium: { info: ['-v', '-h', '--list-extensions', '--show-versions', '--status'] },
      kate: { info: ['-v', '-h'] }, gedit: { info: ['-V', '-h', '--list-encodings'] }, nano: { info: ['-V', '-h'] }, pico: { info: ['-V', '-h'] }, micro: { info: ['-version', '-help'] },
      '*': {},
    },
  },
  analyze(inv, a) {
    opensUrl(inv, a, false);
    // VS Code and its forks install extensions for the user.
    if (inv.argv.some((x) => /^--(install|uninstall)-extension(=|$)/.test(x))) a.raise('install', `${inv.name} installs or removes an editor extension`, ['install', 'network']);
  },
  match: ['vim notes.md', 'nano x'],
  notMatch: ['code --install-extension ms-python.python', 'kate https://example.com/x.txt'],
};

const openers: Rule = {
  names: ['open', 'xdg-open', 'gnome-open', 'kde-open', 'kde-open5', 'exo-open', 'start', 'wslview', 'sensible-browser', 'x-www-browser', 'firefox', 'chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'brave-browser', 'microsoft-edge', 'vivaldi', 'opera', 'epiphany', 'qutebrowser', 'notify-send', 'ydotool', 'wmctrl', 'scrot', 'screencapture', 'gnome-screenshot', 'say', 'espeak', 'espeak-ng', 'afplay', 'paplay', 'aplay', 'arecord'],
  base: 'write',
  effects: ['desktop_open'],
  what: 'acts on the desktop session (opens programs, uses the clipboard, screen or speakers)',
  // What they document as listing and exiting: windows and desktops, voices, sound devices.
  conventions: {
    byName: {
      wmctrl: { info: ['-l', '-d', '-m', '-h', '-v'] }, espeak: { info: ['--voices', '-h', '--version'] }, 'espeak-ng': { info: ['--voices', '-h', '--version'] },
      aplay: { info: ['-l', '-L', '--list-devices', '--list-pcms', '-h', '--version'] }, arecord: { info: ['-l', '-L', '--list-devices', '--list-pcms', '-h', '--version'] },
      paplay: { info: ['-h', '--version'] }, 'notify-send': { info: ['-?', '-v'] },
      '*': {},
    },
  },
  analyze(inv, a) {
    // A browser loads pages (its start page at least); the openers fetch what a URL names.
    if (BROWSERS.has(inv.name)) a.raise('network', `${inv.name} is a web browser: it loads pages from the network`, ['network']);
    else opensUrl(inv, a, false);
    if (['xdg-open', 'open', 'gnome-open', 'kde-open', 'kde-open5', 'exo-open', 'start', 'wslview'].includes(inv.name)) {
      a.raise('write', `${inv.name} opens files or links with the desktop's default application (use the open_path tool instead)`, ['desktop_open', 'command_exec']);
    }
  },
  match: ['notify-send done', 'say hello'],
  notMatch: ['firefox', 'xdg-open https://example.com'],
};

/** alias name='code': the code runs wherever the name is used later (when aliases are expanded). */
const alias: Rule = {
  names: ['alias'],
  base: 'read',
  effects: [],
  what: 'defines command aliases',
  readsArgs: false,
  options: '-p',
  analyze(inv, a) {
    inv.args.forEach((w, i) => {
      const eq = inv.argv[i]!.indexOf('=');
      if (eq <= 0) return;
      a.raise('write', `alias ${inv.argv[i]!.slice(0, eq)} redefines a command name`, ['command_exec']);
      if (w.literal) a.runCode(inv.argv[i]!.slice(eq + 1), `alias ${inv.argv[i]!.slice(0, eq)}`);
      else a.markDynamic('alias defines code computed at run time');
    });
  },
  match: ['alias', 'alias ll'],
  notMatch: ['alias ls="rm -rf ~"', "alias g='git'"],
};

/** The short options with which an interpreter runs code given on its command line (python3 → ['-c']; ruby → ['-e']: its -c only checks). */
export function inlineCodeOptions(name: string): string[] {
  const spec = INTERPRETERS.find((i) => i.names.includes(name));
  return spec ? [...spec.code].map((letter) => `-${letter}`) : [];
}

export const interpreterRules: Rule[] = [shells, evalRule, source, alias, ...INTERPRETERS.map(interpreterRule), editors, openers];
