// Carriers: programs whose arguments are another command (nice, timeout, env, xargs, ...). The carried
// command is judged as if it ran directly, into the same segment.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { found, hasLong, hasShort, operands, optionValues, scanOptions, tableFor, valuesOf } from '../args';
import type { Analysis, Invocation } from '../types';
import type { Word } from '../words';
import { filledAtRunTime, literalWord, writeValue, type Rule } from './helpers';

interface CarrierSpec {
  names: string[];
  /** Short option letters and long option names that take a value. */
  short?: string;
  long?: string[];
  /** Positional arguments before the command (timeout's duration, chrt's priority, flock's lock file). */
  skip?: number;
  /** Options that mean there is no carried command (ionice -p, taskset -p). */
  noCommand?: { short?: string; long?: string[] };
  what: string;
  /** Extra judgement; returning true means it handled the carried command itself. */
  extra?: (inv: Invocation, a: Analysis) => boolean | void;
  network?: boolean;
  /** Its known options (format in ../args.ts); options end at the carried command. */
  options?: string;
}

function carried(inv: Invocation, spec: CarrierSpec): Word[] | null {
  if (spec.noCommand && ((spec.noCommand.short && hasShort(inv.argv, spec.noCommand.short)) || (spec.noCommand.long && hasLong(inv.argv, spec.noCommand.long)))) return null;
  // Options end at the first operand: after that, everything belongs to the carried command.
  const argv = inv.argv;
  const shortV = spec.short ?? '';
  const longV = spec.long ?? [];
  let i = 0;
  while (i < argv.length) {
    const x = argv[i]!;
    if (x === '--') {
      i++;
      break;
    }
    if (x.startsWith('--') && x.length > 2) {
      const key = x.slice(2).split('=')[0]!;
      i += !x.includes('=') && longV.includes(key) ? 2 : 1;
      continue;
    }
    if (x.length > 1 && x[0] === '-' && !/^-\d+$/.test(x)) {
      let consumed = 1;
      for (let j = 1; j < x.length; j++) {
        if (shortV.includes(x[j]!)) {
          if (j === x.length - 1) consumed = 2;
          break;
        }
      }
      i += consumed;
      continue;
    }
    if (/^-\d+$/.test(x) && inv.name === 'nice') {
      i++;
      continue;
    }
    break;
  }
  i += spec.skip ?? 0;
  return i < argv.length ? inv.args.slice(i) : [];
}

/** The judged options of a carrier's table, for its generated notMatch examples. */
function tableJudged(text: string | undefined): string[] {
  return text === undefined ? [] : tableFor(text).judged.slice();
}

function carrierRule(spec: CarrierSpec, base: 'read' | 'write' | 'network' = 'read'): Rule {
  return {
    names: spec.names,
    base: spec.network ? 'network' : base,
    effects: spec.network ? ['network'] : [],
    what: spec.what,
    readsArgs: false,
    options: spec.options === undefined ? undefined : `@in-order ${spec.options}`,
    analyze(inv, a) {
      if (spec.extra?.(inv, a) === true) return;
      const cmd = carried(inv, spec);
      if (cmd && cmd.length) a.runArgv(cmd, inv.name, inv.stdin);
    },
    match: [],
    notMatch: [
      `${spec.names[0]} ${'x '.repeat(spec.skip ?? 0)}rm -rf /`.replace(/ +/g, ' '),
      ...(spec.options === undefined ? [] : [`${spec.names[0]} --threshold-unknown ls`]),
      ...(tableJudged(spec.options).map((o) => `${spec.names[0]} ${o.startsWith('--') ? `${o}=x.txt` : `${o} x.txt`} ls`)),
    ],
  };
}


/** ionice -p, taskset -p, chrt -p: with nothing else they show a process's setting; with a value they change it. */
function setsRunningProcess(inv: Invocation, a: Analysis): void {
  const argv = inv.argv;
  if (!argv.some((x) => x === '-p' || x === '--pid' || x === '-P' || x === '--pgid' || x === '-u' || x === '--uid' || /^-[a-zA-Z]*p[a-zA-Z]*$/.test(x))) return;
  const values = argv.filter((x) => !x.startsWith('-'));
  const setting =
    inv.name === 'ionice'
      ? argv.some((x) => /^-[a-z]*[cnt]/.test(x) || x.startsWith('--class'))
      : inv.name === 'taskset'
        ? values.length > 1
        : values.length > 1 || argv.some((x) => /^-[abdfior]+$/.test(x) || ['--batch', '--deadline', '--fifo', '--idle', '--other', '--rr'].includes(x));
  if (setting) a.raise('write', `${inv.name} changes the scheduling of a running process`, ['command_exec']);
}

/** The command a simple carrier runs, or null when there is none. */
function carriedCommand(inv: Invocation): string | null {
  const i = inv.argv.findIndex((x) => !x.startsWith('-'));
  return i === -1 ? null : inv.argv[i]!;
}

const simpleCarriers: Rule[] = [
  carrierRule({ names: ['nice'], short: 'n', long: ['adjustment'], options: '--help --version -n: -NUM --adjustment=', what: 'runs a command at another priority' }),
  carrierRule({ names: ['nohup'], options: '--help --version', what: 'runs a command immune to hangups' }),
  carrierRule({ names: ['timeout', 'gtimeout'], short: 'sk', long: ['signal', 'kill-after'], skip: 1, options: '--help --version -s: -k: -f -p -v --signal= --kill-after= --foreground --preserve-status --verbose', what: 'runs a command with a time limit' }),
  carrierRule({ names: ['stdbuf'], short: 'ioe', long: ['input', 'output', 'error'], options: '--help --version -i: -o: -e: --input= --output= --error=', what: 'runs a command with other buffering' }),
  carrierRule({ names: ['ionice'], short: 'cnt', long: ['class', 'classdata'], noCommand: { short: 'pPu', long: ['pid', 'pgid', 'uid'] }, extra: setsRunningProcess, options: '--help --version -c: -n: -t -p: -P: -u: --class= --classdata= --ignore --pid= --pgid= --uid=', what: 'runs a command at another I/O priority' }),
  carrierRule({ names: ['setsid'], options: '--help --version -c -f -w --ctty --fork --wait', what: 'runs a command in a new session' }),
  carrierRule({ names: ['builtin'], options: '', what: 'runs a shell builtin' }),
  carrierRule({ names: ['taskset'], short: '', long: [], skip: 1, noCommand: { short: 'p', long: ['pid'] }, extra: setsRunningProcess, options: '--help --version -a -c -p --all-tasks --cpu-list --pid', what: 'runs a command on chosen CPUs' }),
  carrierRule({ names: ['chrt'], short: 'T', long: ['sched-runtime', 'sched-deadline', 'sched-period'], skip: 1, noCommand: { short: 'p', long: ['pid'] }, extra: setsRunningProcess, options: '--help --version -a -b -d -e -f -i -m -o -p -r -R -v -T: -P: -D: --all-tasks --batch --deadline --ext --fifo --idle --max --other --pid --rr --reset-on-fork --verbose --sched-runtime= --sched-period= --sched-deadline=', what: 'runs a command with another scheduling policy' }),
  carrierRule({ names: ['numactl'], short: 'CNmipP', long: ['physcpubind', 'cpunodebind', 'membind', 'interleave', 'preferred'], options: '--help -a -b -l -s -H -C: -N: -m: -i: -p: -P: --all --balancing --localalloc --show --hardware --physcpubind= --cpunodebind= --membind= --interleave= --preferred= --preferred-many=', what: 'runs a command with a NUMA policy' }),
  carrierRule({ names: ['prlimit'], short: 'p', long: ['pid', 'output'], noCommand: { short: 'p', long: ['pid'] }, options: '--help --version -p: -o: --noheadings --raw --verbose --pid= --output= --as? --core? --cpu? --data? --fsize? --locks? --memlock? --msgqueue? --nice? --nofile? --nproc? --rss? --rtprio? --rttime? --sigpending? --stack? -A? -c? -d? -e? -f? -i? -l? -m? -n? -q? -r? -s? -t? -u? -v? -x? -y?', what: 'runs a command with resource limits' }),
  carrierRule({ names: ['caffeinate'], short: 'tw', options: '-d -i -m -s -u -t: -w:', what: 'runs a command while keeping the machine awake' }),
  carrierRule({
    names: ['unbuffer', 'eatmydata', 'catchsegv', 'xvfb-run', 'dbus-run-session', 'dbus-launch', 'nocache', 'rlwrap', 'grc', 'winpty'],
    short: 'nsef', options: '', what: 'runs a command',
    extra(inv, a) {
      // With no command, fakeroot and dbus-run-session start a shell; rlwrap keeps a history file in the home folder.
      if (carriedCommand(inv) === null && ['fakeroot', 'dbus-run-session'].includes(inv.name)) a.raise('write', `${inv.name} with no command starts a shell`, SHELL_REACHABLE_EFFECTS);
      if (inv.name === 'rlwrap') a.raise('write', "rlwrap writes the command's input history to a file in the home folder", ['file_write']);
    },
  }),
  // fakeroot(1): -l/--lib and --faked name a library and a daemon it loads, -s saves state to a file: not listed.
  {
    ...carrierRule({
      names: ['fakeroot'], short: 'ib', options: '-h --help -v --version -i: -b: --unknown-is-real', what: 'runs a command as a pretend root',
      extra(inv, a) {
        if (operands(inv.argv, { short: 'ib' }).length === 0) a.raise('write', 'fakeroot with no command starts a shell', SHELL_REACHABLE_EFFECTS);
        for (const f of optionValues(inv.argv, 'i', [])) a.read(f, true, inv.cwd);
      },
    }),
    conventions: { info: ['-h', '-v'] },
  },
  carrierRule({ names: ['chronic'], options: '-e -v', what: 'runs a command, printing its output only when it fails' }),
  carrierRule({ names: ['faketime'], short: 'f', skip: 1, options: '--help --version -m -f: --exclude-monotonic --date-prog=', what: 'runs a command with a fake clock' }),
  carrierRule({ names: ['proxychains', 'proxychains4', 'torsocks', 'tsocks', 'torify'], short: 'f', network: true, what: 'runs a command through a network proxy' }),
  // firejail --list, --tree, --netstats, --top show the running sandboxes and exit.
  { ...carrierRule({ names: ['firejail', 'bwrap', 'bubblewrap', 'sandbox-exec', 'nsjail', 'minijail0'], short: 'fpD', long: ['bind', 'ro-bind', 'dev-bind', 'symlink', 'setenv', 'chdir', 'tmpfs', 'proc', 'dev', 'uid', 'gid', 'hostname', 'unsetenv', 'file', 'dir', 'remount-ro', 'seccomp', 'args', 'info-fd', 'json-status-fd', 'userns', 'pidns', 'cap-add', 'cap-drop', 'exec-label', 'file-label', 'sync-fd', 'block-fd', 'userns-block-fd', 'lock-file', 'add-seccomp-fd', 'perms', 'size', 'chmod', 'bind-data', 'ro-bind-data', 'argv0'], what: 'runs a command in a sandbox' }, 'write'), conventions: { byName: { firejail: { info: ['--list', '--tree', '--netstats', '--top', '--debug-caps', '--debug-syscalls', '--debug-protocols', '--debug-errnos'] }, '*': {} } } },
  carrierRule({ names: ['unshare'], short: 'SGR', long: ['setuid', 'setgid', 'root', 'wd', 'map-user', 'map-group', 'propagation', 'setgroups', 'mount-proc', 'map-users', 'map-groups'], what: 'runs a command in new namespaces' }, 'write'),
  carrierRule({ names: ['valgrind'], what: 'runs a command under a checker (its options write logs and start a debugger server)' }, 'write'),
  carrierRule({
    names: ['coproc'],
    options: '', what: 'runs a command as a coprocess',
    extra(inv, a) {
      // `coproc NAME { …; }` is a compound command tree-sitter-bash does not parse: fail closed.
      const open = inv.argv.findIndex((x) => x === '{' || x === '(' || x.startsWith('('));
      if (open !== -1) {
        a.flag('unknown_syntax', 'unknown syntax: coproc with a compound command is not fully analysed');
        a.raise('write', 'coproc runs a compound command the classifier cannot parse', SHELL_REACHABLE_EFFECTS);
        // Still judge the first command inside the braces: its output feeds the rest of the pipeline.
        const inner = inv.args.slice(open + 1);
        if (inv.argv[open]!.length > 1) inner.unshift({ ...inv.args[open]!, value: inv.argv[open]!.slice(1) });
        a.runArgv(inner, 'coproc');
        return true;
      }
    },
  }),
  carrierRule({
    names: ['strace', 'ltrace', 'ptrace'],
    short: 'oepsSEbaIPUXu',
    long: ['output', 'expr', 'attach', 'signal', 'user', 'env'],
    noCommand: { short: 'p', long: ['attach'] },
    // -o writes, -p attaches and -E sets the traced command's environment: judged below.
    options: `--help --version -c -C -d -D -f -F -h -i -k -n -q -r -t -T -v -V -w -x -y -z -Z -a: -b: -e: -I: -O: -P: -s: -S: -u: -X: -l: -L -A -L -n
      --trace= --signal= --status= --abbrev= --verbose= --raw= --summary-only --summary --follow-forks --output-separately --string-limit=
      --decode-fds? --quiet? --seccomp-bpf --summary-columns= --syscall-times? --absolute-timestamps? --relative-timestamps? --timestamps?
      !-o: !--output= !-p: !--attach= !-E: !--env=`,
    what: 'traces a command',
    extra(inv, a) {
      for (const o of optionValues(inv.argv, 'o', ['output'])) writeValue(inv, a, o);
      for (const e of optionValues(inv.argv, 'E', ['env'])) {
        const eq = e.indexOf('=');
        a.assign(eq === -1 ? e : e.slice(0, eq), { source: e, value: eq === -1 ? '' : e.slice(eq + 1), literal: true, glob: false, substitutions: [], unknown: [] });
      }
      if (hasShort(inv.argv, 'p') || hasLong(inv.argv, ['attach'])) a.raise('write', `${inv.name} -p attaches to a running process and can read its memory`, ['command_exec', 'secret_read']);
    },
  }),
  carrierRule({
    names: ['time'],
    short: 'fo',
    long: ['format', 'output'],
    options: '--help --version -f: -p -v -a -q -V --format= --portability --verbose --append --quiet !-o: !--output=', what: 'times a command',
    extra(inv, a) {
      for (const o of optionValues(inv.argv, 'o', ['output'])) writeValue(inv, a, o);
    },
  }),
  carrierRule({
    names: ['perf'],
    options: '--help --version -v --debug= --no-pager', what: 'profiles a command',
    extra(inv, a) {
      const subIndex = inv.argv.findIndex((x) => !x.startsWith('-'));
      if (subIndex === -1) return;
      const rest = inv.args.slice(subIndex + 1);
      const restArgv = rest.map((w) => w.value);
      if (inv.argv[subIndex] !== 'stat' && inv.argv[subIndex] !== 'list') a.raise('write', `perf ${inv.argv[subIndex]} writes perf.data or changes tracing state`, ['file_write']);
      if (inv.argv[subIndex] === 'stat') a.options({ ...inv, argv: restArgv, args: rest }, '@in-order -e: -a -A -C: -p: -t: -r: -x: -d -D: -G: -I: -n -v -B --event= --all-cpus --pid= --tid= --repeat= --field-separator= --detailed --delay= --cgroup= --interval-print= --null --verbose --big-num', 'perf stat');
      if (['record', 'stat', 'trace', 'c2c', 'mem', 'sched', 'lock', 'kvm'].includes(inv.argv[subIndex]!)) {
        const ops = operands(restArgv, { short: 'eoFcCpItGjr', long: ['event', 'output', 'freq', 'count', 'cpu', 'pid', 'tid', 'cgroup', 'repeat'] });
        if (ops.length) a.runArgv(rest.slice(ops[0]!), 'perf');
      }
    },
  }),
];

const command: Rule = {
  names: ['command', 'exec'],
  base: 'read',
  effects: [],
  what: 'runs a command',
  readsArgs: false,
  options: { command: '@in-order -v -V -p', exec: '@in-order -a: -c !-l' },
  analyze(inv, a) {
    if (inv.name === 'exec' && hasShort(inv.argv.slice(0, 1), 'l')) a.raise('write', 'exec -l starts the command as a login shell, which reads start-up files', SHELL_REACHABLE_EFFECTS);
    if (inv.name === 'command' && hasShort(inv.argv, 'vV')) return;
    const ops = operands(inv.argv, { short: 'a', long: [] });
    if (ops.length) a.runArgv(inv.args.slice(ops[0]!), inv.name, inv.stdin);
  },
  match: ['command -v git', 'exec'],
  notMatch: ['command rm -rf /', 'exec rm -rf /', 'exec -l bash', 'command --frob ls'],
};

/** env's options end at the first NAME=value or the command; -S splits a string into a command line. */
const ENV_OPTIONS = `@in-order --help --version -i -0 -v -u: -C: !-S: -P: --ignore-environment --null --unset= --chdir= !--split-string= --debug
  --block-signal? --default-signal? --ignore-signal? --list-signal-handling`;

const env: Rule = {
  names: ['env', 'genv'],
  base: 'read',
  effects: [],
  what: 'runs a command with a changed environment (or prints it)',
  readsArgs: false,
  options: ENV_OPTIONS,
  analyze(inv, a) {
    const argv = inv.argv;
    const scan = scanOptions(argv, tableFor(ENV_OPTIONS));
    for (const f of scan.found) {
      if (f.name === '-C' || f.name === '--chdir') a.raise('read', 'env -C runs the command in another directory');
      if (f.name === '-S' || f.name === '--split-string') {
        // env -S 'cmd args' (also --s, --split=…): the string is a command line, and what follows is appended.
        const word = inv.args[f.index]!;
        const attached = argv[f.index] !== '-S' && !/^--[a-z-]+$/.test(argv[f.index]!);
        const literal = attached ? word.literal : inv.args[f.index + 1]?.literal ?? false;
        const rest = argv.slice(f.index + (attached ? 1 : 2)).join(' ');
        if (literal) a.runCode(`${f.value ?? ''} ${rest}`.trim(), 'env -S');
        else a.markDynamic('env -S runs a command line computed at run time');
        return;
      }
    }
    let i = scan.operands[0] ?? argv.length;
    for (; i < argv.length; i++) {
      const assignment = /^([^=]+)=(.*)$/s.exec(argv[i]!);
      if (!assignment || argv[i]!.startsWith('-')) break;
      const w = inv.args[i]!;
      a.assign(assignment[1]!, { ...w, value: assignment[2]!, source: w.source });
    }
    if (i < argv.length) a.runArgv(inv.args.slice(i), 'env', inv.stdin);
  },
  match: ['env', 'env | sort', 'env FOO=1 ls', 'env -i PATH_X=1 ls'],
  notMatch: ['env rm -rf /tmp/x', 'env LD_PRELOAD=/tmp/x.so ls', 'env -S "rm -rf /"', 'env --s "rm -rf ~"', 'env --split-string="rm -rf ~"', 'env MANPAGER="sh -c id" man ls', 'env --frob ls'],
};

const xargs: Rule = {
  names: ['xargs', 'gxargs'],
  base: 'read',
  effects: [],
  what: 'runs a command with arguments read from its input',
  readsArgs: false,
  // --process-slot-var sets a variable in the command's environment: not listed.
  options: `@in-order --help --version -0 -a: -d: -E: -e? -I: -i? -L: -l? -n: -o -p -P: -r -s: -t -x --null --arg-file= --delimiter= --eof?
    --replace? --max-lines? --max-args= --open-tty --interactive --max-procs= --no-run-if-empty --max-chars= --show-limits --verbose --exit`,
  analyze(inv, a) {
    const spec = { short: 'adEeIiLlnPs', long: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'] };
    const ops = operands(inv.argv, spec);
    const replace = hasShort(inv.argv, 'Ii') || hasLong(inv.argv, ['replace']);
    const replaceStr = optionValues(inv.argv, 'I', ['replace'])[0] ?? '{}';
    const input: Word = { source: '(input)', value: '(input)', literal: false, glob: false, substitutions: [], unknown: [], origin: inv.stdin };
    let cmd: Word[] = ops.length === 0 ? [literalWord('echo')] : inv.args.slice(ops[0]!);
    if (inv.stdin.kind === 'literal') {
      // The input is known: echo / | xargs rm -rf is rm -rf /.
      const delim = hasShort(inv.argv, '0') || hasLong(inv.argv, ['null']) ? '\0' : optionValues(inv.argv, 'd', ['delimiter'])[0];
      const items = (delim ? inv.stdin.text.split(delim) : inv.stdin.text.split(/\s+/)).map((x) => x.trim()).filter(Boolean);
      if (replace) cmd = items.flatMap((item) => cmd.map((w) => (w.value.includes(replaceStr) ? literalWord(w.value.split(replaceStr).join(item)) : w)));
      else cmd = [...cmd, ...items.map((item) => literalWord(item))];
    } else if (replace) cmd = cmd.map((w) => (w.value.includes(replaceStr) ? filledAtRunTime(w, inv.stdin) : w));
    else cmd = [...cmd, input];
    a.raise('read', 'the arguments xargs adds come from its input');
    a.runArgv(cmd, 'xargs');
  },
  match: ['xargs', 'xargs echo', 'xargs -0 wc -l'],
  notMatch: ['xargs rm', 'xargs -I{} sh -c "echo {}"', 'xargs -n1 curl', 'xargs --process-slot-var=BASH_ENV bash -c x'],
};

const codeCarriers: Rule = {
  names: ['watch', 'hyperfine', 'flock', 'script', 'entr', 'parallel', 'sem', 'nix-shell', 'direnv', 'trap', 'busybox', 'toybox', 'gdb', 'lldb', 'tmux', 'screen', 'byobu', 'expect', 'run-parts', 'chpst', 'daemonize', 'start-stop-daemon'],
  base: 'read',
  effects: [],
  what: 'runs commands given as arguments',
  readsArgs: false,
  options: {
    watch: `@in-order --help --version -n: -d? -t -b -e -g -c -x -p -w -q: -r -C --interval= --differences? --no-title --beep --errexit --chgexit
      --color --no-color --exec --precise --no-wrap --equexit= --no-rerun`,
    // --export-* and --output=FILE write files, -S/--shell picks the program that runs the commands: not listed.
    hyperfine: `--help --version -h -V -w: -m: -M: -r: -p: -c: -P: -D: -L: -N -i -n: -s: -u: --warmup= --min-runs= --max-runs= --runs= --setup=
      --prepare= --conclude= --cleanup= --parameter-scan= --parameter-step-size= --parameter-list= --style= --sort= --time-unit=
      --command-name= --input= --show-output --ignore-failure`,
    flock: '@in-order --help --version -s -x -e -n -u -w: -E: -o -c: -F --shared --exclusive --nonblock --nb --unlock --timeout= --conflict-exit-code= --close --command= --no-fork --verbose',
    entr: '@in-order -a -c -d -n -p -r -s -z -x',
    trap: '@in-order -l -p',
    busybox: '@in-order --list --list-full --help',
    toybox: '@in-order --help --version',
    direnv: '@in-order --help --version',
    tmux: '@in-order -2 -C -D -l -N -u -v -V -L: -S:',
    screen: '@single-dash @in-order -ls -list -v',
    // GNU parallel (its manual): what only changes scheduling, grouping or printing. --ssh, --shell, --filter,
    // --tee, --onall and --cleanup run other programs; --results and --joblog write files (judged below).
    parallel: `@in-order --help --version -h -V -t --verbose -k --keep-order -j: --jobs= -P: --max-procs= --bar --eta --progress -v --pipe
      --block= --block-size= -n: --max-args= -N: -L: --max-lines= -l? -X --xargs -m -q --quote -0 --null -d: --delimiter= --colsep= -C:
      -I: -i? --replace? --extensor= --tag --tagstring= --tag-string= --line-buffer --lb -u --ungroup --group --halt= --timeout= --delay=
      --retries= --no-notice --will-cite --citation -r --no-run-if-empty -E: --plus --header= --nice= --shuf --keep-order --dry-run
      --dryrun --load= --memfree= --noswap --tmpdir= --tempdir= --compress -a: --arg-file= --round-robin --round --recend= --recstart=
      --regexp --trim= --max-chars= -s: --max-line-length-allowed --number-of-cpus --number-of-cores --number-of-threads --minversion=
      !-S: !--sshlogin= !--sl= !--slf= !--sshloginfile= !--results= !--res= !--joblog= !--jl=`,
    byobu: '@single-dash @in-order -ls -list -v',
    '*': '',
  },
  analyze(inv, a) {
    const argv = inv.argv;
    switch (inv.name) {
      case 'watch': {
        const ops = operands(argv, { short: 'nqg', long: ['interval', 'equexit', 'chgexit'] });
        if (!ops.length) return;
        const words = inv.args.slice(ops[0]!);
        if (hasShort(argv, 'x') || hasLong(argv, ['exec'])) a.runArgv(words, 'watch');
        else if (words.every((w) => w.literal)) a.runCode(words.map((w) => w.value).join(' '), 'watch');
        else a.markDynamic('watch runs a command line computed at run time');
        return;
      }
      case 'hyperfine': {
        for (const v of optionValues(argv, 'psc', ['prepare', 'setup', 'cleanup', 'conclude'])) a.runCode(v, 'hyperfine');
        for (const i of operands(argv, { short: 'wmMrpscSnuL', long: ['warmup', 'min-runs', 'max-runs', 'runs', 'prepare', 'setup', 'cleanup', 'conclude', 'shell', 'command-name', 'export-json', 'export-csv', 'export-markdown', 'parameter-list', 'parameter-scan', 'time-unit', 'style', 'sort', 'output', 'input'] })) {
          a.runCode(inv.args[i]!, 'hyperfine');
        }
        return;
      }
      case 'flock': {
        const code = optionValues(argv, 'c', ['command']);
        for (const c of code) a.runCode(c, 'flock -c');
        const lock = operands(argv, { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'] })[0];
        if (lock !== undefined && !/^\d+$/.test(argv[lock]!)) a.write(argv[lock]!, inv.args[lock]!.literal, inv.cwd, 'creates the lock file');
        const ops = operands(argv, { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'] });
        if (!code.length && ops.length > 1) a.runArgv(inv.args.slice(ops[1]!), 'flock');
        return;
      }
      case 'script': {
        for (const c of optionValues(argv, 'c', ['command'])) a.runCode(c, 'script -c');
        const ops = operands(argv, { short: 'cEIBOT', long: ['command', 'echo', 'log-in', 'log-io', 'log-out', 'log-timing', 'output-limit'] });
        if (ops.length) a.write(argv[ops[0]!]!, inv.args[ops[0]!]!.literal, inv.cwd);
        else a.write('typescript', true, inv.cwd);
        if (!optionValues(argv, 'c', ['command']).length) a.raise('write', 'script starts an interactive shell', SHELL_REACHABLE_EFFECTS);
        return;
      }
      case 'entr': {
        const ops = operands(argv, {});
        if (hasShort(argv, 's') && ops.length) a.runCode(inv.args[ops[0]!]!, 'entr -s');
        else if (ops.length) a.runArgv(inv.args.slice(ops[0]!), 'entr');
        return;
      }
      case 'nix-shell': {
        for (const c of optionValues(argv, '', ['run', 'command'])) a.runCode(c, 'nix-shell --run');
        a.raise('network', 'nix-shell may download packages', ['network']);
        if (!optionValues(argv, '', ['run', 'command']).length) a.raise('write', 'nix-shell starts a shell', SHELL_REACHABLE_EFFECTS);
        return;
      }
      case 'direnv': {
        if (argv[0] === 'exec' && argv.length > 2) a.runArgv(inv.args.slice(2), 'direnv exec');
        else if (argv[0] === 'allow' || argv[0] === 'permit' || argv[0] === 'grant') a.raise('write', 'direnv allow lets .envrc run code outside the jail whenever the folder is entered', ['capability_change']);
        // status, version, help and stdlib print; deny, block, revoke, edit, reload, prune and the rest change what direnv loads or run .envrc.
        else if (argv.length && !['status', 'version', 'help', 'stdlib', '--help', '--version'].includes(argv[0]!)) a.raise('write', `direnv ${argv[0]} changes what direnv loads or runs .envrc`, SHELL_REACHABLE_EFFECTS);
        return;
      }
      case 'trap': {
        if (argv.length === 0 || hasShort(argv, 'lp') || argv[0] === '-' || argv[0] === '') return;
        a.raise('read', 'trap sets code to run on a signal or at exit');
        a.runCode(inv.args[0]!, 'trap');
        return;
      }
      case 'busybox':
      case 'toybox': {
        if (argv.length === 0 || argv[0] === '--list' || argv[0] === '--help') return;
        a.runArgv(inv.args, inv.name, inv.stdin);
        return;
      }
      case 'tmux':
      case 'screen':
      case 'byobu': {
        const reading = ['ls', 'list-sessions', 'list-windows', 'list-panes', 'capture-pane', 'show-options', 'display-message', 'has-session', '-ls', '-list'];
        if (argv.length && reading.includes(argv[0]!)) return;
        a.raise('write', `${inv.name} starts shells or sends them keystrokes`, SHELL_REACHABLE_EFFECTS);
        return;
      }
      case 'parallel':
        return gnuParallel(inv, a);
      case 'gdb':
      case 'lldb': {
        const argsAt = argv.indexOf('--args');
        if (argsAt !== -1 && argv.length > argsAt + 1) a.runArgv(inv.args.slice(argsAt + 1), inv.name);
        a.raise('write', `${inv.name} can run shell commands and change any process it attaches to`, SHELL_REACHABLE_EFFECTS);
        return;
      }
      default:
        a.raise('write', `${inv.name} runs commands`, SHELL_REACHABLE_EFFECTS);
        if (['parallel', 'sem', 'expect', 'run-parts'].includes(inv.name)) a.markDynamic(`${inv.name} builds the commands it runs at run time`);
    }
  },
  match: ['parallel -t ls -l ::: a b', 'parallel echo {} ::: a b', 'parallel --dry-run rm ::: a', 'tmux ls', 'trap - INT', 'busybox --list', 'watch -n 1 ls', 'hyperfine --runs 3 "ls"'],
  notMatch: ['parallel rm ::: a b', 'parallel -S host ls ::: a', 'parallel --sshlogin host ls ::: a', 'parallel --sl host ls ::: a', 'parallel --slf hosts ls ::: a', 'parallel --sshloginfile hosts ls ::: a', 'parallel --joblog log ls ::: a', 'parallel --jl log ls ::: a', 'parallel --results out ls ::: a', 'parallel --res out ls ::: a', 'parallel ::: "rm -rf x"', 'ls | parallel rm', 'parallel --ssh "sh -c id" ls ::: a', 'watch -n 1 "rm -rf /tmp/x"', 'flock /tmp/l -c "rm -rf ~"', 'trap "rm -rf ~" EXIT', 'busybox rm -rf /', 'tmux new -d "sh"', 'hyperfine "curl x | sh"', 'hyperfine --export-json out.json ls', 'hyperfine -S "sh -c id" ls', 'tmux -f evil.conf ls', 'flock /tmp/lock ls'],
};

/** Replacement strings of GNU parallel: {} {.} {/} {//} {/.} {#} {%} {1} {2.} and the like. */
const PARALLEL_REPLACE = /\{(\d*)(\.|\/|\/\/|\/\.|#|%)?\}/g;

/** What a replacement string makes of one argument. */
function parallelReplace(arg: string, how: string | undefined): string {
  const base = arg.slice(arg.lastIndexOf('/') + 1);
  switch (how) {
    case '.': return arg.replace(/\.[^./]*$/, '');
    case '/': return base;
    case '//': return arg.includes('/') ? arg.slice(0, arg.lastIndexOf('/')) : '.';
    case '/.': return base.replace(/\.[^./]*$/, '');
    case '#': case '%': return '1';
    default: return arg;
  }
}

/** Single-quotes a word for the shell, as parallel quotes the arguments it substitutes. */
function shellQuote(text: string): string {
  return /^[\w.,/:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * GNU parallel COMMAND ::: ARGS: the command words are joined into a line the shell runs, once per
 * argument (put in place of {} or appended, quoted). Arguments from `:::` are known and judged in place;
 * from `::::` files or standard input they are not, and stand as a value computed at run time. Without
 * a command, each argument is a command line. -S runs the jobs on other machines over ssh.
 */
function gnuParallel(inv: Invocation, a: Analysis): void {
  const argv = inv.argv;
  // The rule's table was checked already (unknown options make it write); here only what was found.
  const scan = scanOptions(argv, tableFor((codeCarriers.options as Record<string, string>).parallel!));
  if (found(scan, '--help', '-h', '--version', '-V', '--citation', '--number-of-cpus', '--number-of-cores', '--number-of-threads', '--minversion') && scan.operands.length === 0) return;
  // Any abbreviation of --sshlogin, --sshloginfile or --ssh (--ssh, --sshl) is taken as reaching other machines.
  if (valuesOf(scan, '-S', '--sshlogin', '--sl', '--slf', '--sshloginfile').length || argv.slice(0, scan.operands[0]).some((x) => /^--(ss|sl)/.test(x))) {
    a.raise('network', 'parallel -S runs the jobs on other machines over ssh', ['network', ...SHELL_REACHABLE_EFFECTS]);
  }
  for (const out of valuesOf(scan, '--results', '--res', '--joblog', '--jl')) {
    a.raise('write', 'parallel writes its results or job log to files', ['file_write']);
    if (out !== '-') writeValue(inv, a, out);
  }
  for (const f of valuesOf(scan, '-a', '--arg-file')) a.read(f, true, inv.cwd);
  const first = scan.operands[0] ?? argv.length;
  const marker = (x: string) => /^:{3,4}\+?$/.test(x);
  let end = first;
  while (end < argv.length && !marker(argv[end]!)) end++;
  const command = inv.args.slice(first, end);
  // The argument lists: ::: a b (known), :::: file (read at run time).
  const lists: (string[] | null)[] = [];
  for (let i = end; i < argv.length; ) {
    const fromFiles = argv[i]!.startsWith('::::');
    const items: Word[] = [];
    for (i++; i < argv.length && !marker(argv[i]!); i++) items.push(inv.args[i]!);
    if (fromFiles) {
      for (const w of items) if (w.value !== '-') a.read(w.value, w.literal, inv.cwd);
      lists.push(null);
    } else lists.push(items.every((w) => w.literal) ? items.map((w) => w.value) : null);
  }
  const pipe = found(scan, '--pipe', '--round-robin', '--round');
  if (lists.length === 0 && !pipe && valuesOf(scan, '-a', '--arg-file').length === 0) lists.push(null);
  if (valuesOf(scan, '-a', '--arg-file').length) lists.push(null);
  if (found(scan, '--dry-run', '--dryrun')) return;
  a.raise('read', 'parallel runs a command for each argument');
  if (command.some((w) => !w.literal)) return a.markDynamic('parallel runs a command line computed at run time');
  // Every combination of the known arguments, or one with an argument computed at run time.
  const known = lists.every((l) => l !== null) && lists.reduce((n, l) => n * Math.max(l!.length, 1), 1) <= 16;
  const combos: (string | null)[][] = [[]];
  if (known) {
    for (const l of lists) {
      const next: (string | null)[][] = [];
      for (const c of combos) for (const v of l!.length ? l! : ['']) next.push([...c, v]);
      combos.splice(0, combos.length, ...next);
    }
    // -X, -m, -n 2 …: several arguments share one command line (rm ::: -rf / is `rm -rf /` with -X).
    if (lists.some((l) => l!.length > 1)) combos.push(lists.map((l) => l!.join('\u0000')));
  } else combos[0] = lists.map(() => null);
  const template = command.map((w) => w.value).join(' ');
  for (const combo of combos) {
    const quoted = (v: string | null | undefined, how?: string): string =>
      v === null || v === undefined ? '"$PARALLEL_ARG"' : v.split('\u0000').map((x) => shellQuote(parallelReplace(x, how))).join(' ');
    if (command.length === 0) {
      if (pipe) continue;
      // No command: each argument is the command line.
      if (combo.every((v) => v !== null)) for (const code of combo.join(' ').split('\u0000')) a.runCode(code, 'parallel');
      else a.markDynamic('parallel runs command lines it reads at run time');
      continue;
    }
    let used = false;
    let line = template.replace(PARALLEL_REPLACE, (_m, pos: string, how: string | undefined) => {
      used = true;
      return quoted(combo[pos === '' ? 0 : Number(pos) - 1], how);
    });
    if (!used && !pipe) line = [line, ...combo.map((v) => quoted(v))].join(' ');
    a.runCode(line, 'parallel');
  }
}

export const carrierRules: Rule[] = [...simpleCarriers, command, env, xargs, codeCarriers];
