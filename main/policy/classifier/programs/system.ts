// Programs that change the machine itself: disks, users, services, power, the kernel, privileges.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { hasLong, hasShort, operands, scanOptions, tableFor } from '../args';
import { isHarmlessDevice, resolvePath } from '../../paths';
import type { Analysis, Invocation, ProgramConventions } from '../types';
import type { Rule } from './helpers';

/**
 * The forms of the system-changing programs below that only report, from their manuals: each names the
 * options that make it report (`need`, one of them present) and the options allowed beside them
 * (`table`, args.ts format); operands are devices, users or names it reports on (`operands`: how many).
 * Any other form keeps the program's class (destructive).
 */
interface ReportForm {
  need: readonly string[];
  table: string;
  operands?: number | 'any';
  what: string;
}
const UTIL_LINUX_INFO = ['-h', '-V'];
const SYSTEM_CONVENTIONS: Readonly<Record<string, ProgramConventions>> = {
  // util-linux, lvm2, grub, sudo and shadow tools document -h as help and -V as version. (shutdown -h halts;
  // mkfs -V is verbose: not here.)
  ...Object.fromEntries(['fdisk', 'sfdisk', 'cfdisk', 'wipefs', 'blkdiscard', 'losetup', 'swapon', 'swapoff', 'mount', 'umount', 'switch_root', 'pivot_root', 'chsh', 'chfn',
    'nsenter', 'grub-mkconfig', 'grub-install', 'update-grub', 'visudo', 'vipw', 'vigr', 'lvremove', 'vgremove', 'pvremove', 'lvcreate', 'vgcreate', 'pvcreate', 'lvextend',
    'lvreduce', 'kexec', 'ldconfig'].map((n) => [n, { info: UTIL_LINUX_INFO }])),
  parted: { info: ['-h', '-v'] },
  auditctl: { info: ['-h', '-v'] },
  dracut: { info: ['-h'] },
  modprobe: { info: ['-h', '-V'] },
  depmod: { info: ['-h', '-V'] },
  sgdisk: { info: ['-h', '-V'] },
  chage: { info: ['-h'] },
  passwd: { info: ['-h'] },
  cryptsetup: { info: ['-h', '-V'] },
  efibootmgr: { info: ['-V'] },
  '*': {},
};
const REPORT_FORMS: Readonly<Record<string, ReportForm>> = {
  fdisk: { need: ['-l', '--list', '-x', '--list-details'], table: '-l --list -x --list-details -o: --output= -b: --sector-size= -u? --units? -L? --color? -t: --type=', operands: 'any', what: 'lists partition tables' },
  sfdisk: { need: ['-l', '--list', '-s', '--show-size', '-d', '--dump', '-J', '--json', '-F', '--list-free', '-V', '--verify', '-T', '--list-types', '-g', '--show-geometry'],
    table: '-l --list -s --show-size -d --dump -J --json -F --list-free -V --verify -T --list-types -g --show-geometry -o: --output= -b --bytes -q --quiet -X: --label= --sector-size= --color?', operands: 'any', what: 'prints partition tables' },
  sgdisk: { need: ['-p', '--print', '-L', '--list-types', '-i', '--info', '-v', '--verify', '-O', '--print-mbr'], table: '-p --print -L --list-types -i: --info= -v --verify -O --print-mbr', operands: 1, what: 'prints partition tables' },
  parted: { need: ['-l', '--list'], table: '-l --list -m --machine -s --script -j --json', operands: 0, what: 'lists partition tables' },
  losetup: { need: ['-a', '--all', '-l', '--list', '-j', '--associated'], table: '-a --all -l --list -j: --associated= -J --json -n --noheadings -O: --output= --output-all --raw -o: --offset=', operands: 1, what: 'lists loop devices' },
  kpartx: { need: ['-l'], table: '-l -v -g -p: -s', operands: 1, what: 'lists the partitions of an image' },
  cryptsetup: { need: ['status', 'luksDump', 'isLuks', 'tcryptDump', 'bitlkDump', 'fvault2Dump', 'benchmark'], table: '-v --verbose --debug --debug-json --header= --key-slot= -S: --dump-json-metadata --disable-locks --disable-external-tokens', operands: 'any', what: 'prints encrypted device headers' },
  zfs: { need: ['list', 'get', 'holds', 'diff', 'userspace', 'groupspace', 'projectspace', 'version'], table: '-H -p -r -d: -o: -s: -S: -t: -h -c -a -F -n -i? -l? -v', operands: 'any', what: 'lists datasets and properties' },
  mount: { need: [], table: '-l --show-labels -t: --types=', operands: 0, what: 'lists the mounted filesystems' },
  swapon: { need: [], table: '-s --summary --show? --noheadings --raw --bytes', operands: 0, what: 'lists the swap areas' },
  ldconfig: { need: ['-p', '--print-cache'], table: '-p --print-cache -v --verbose -C: -X -N', operands: 0, what: 'prints the library cache' },
  depmod: { need: ['-n', '--show', '--dry-run'], table: '-n --show --dry-run -a --all -A --quick -b: --basedir= -e --errsyms -F: --filesyms= -E: --symvers= -v --verbose -w -m: --moduledir=', operands: 'any', what: 'prints the module dependencies it would write' },
  modprobe: { need: ['-n', '--dry-run', '--show', '-c', '--showconfig', '--show-config', '--show-depends', '-D', '--show-modversions', '--dump-modversions'], table: '-n --dry-run --show -c --showconfig --show-config --show-depends -D --show-modversions --dump-modversions -v --verbose -q --quiet -a --all -r --remove -S: --set-version= -b --use-blacklist -d: --dirname=', operands: 'any', what: 'only shows what it would load or remove' },
  setcap: { need: ['-v'], table: '-v -q -n:', operands: 'any', what: 'checks file capabilities' },
  chage: { need: ['-l', '--list'], table: '-l --list -i --iso8601 -R: --root= -P: --prefix=', operands: 1, what: "prints a user's password ageing" },
  chsh: { need: ['-l', '--list-shells'], table: '-l --list-shells', operands: 0, what: 'lists the login shells' },
  passwd: { need: ['-S', '--status'], table: '-S --status -a --all', operands: 1, what: 'prints password status' },
  'firewall-cmd': { need: ['--state', '--list-all', '--list-all-zones', '--list-services', '--list-ports', '--list-protocols', '--list-interfaces', '--list-sources', '--list-rich-rules', '--list-forward-ports', '--get-zones', '--get-services', '--get-active-zones', '--get-default-zone', '--get-zone-of-interface=', '--get-icmptypes', '--query-service=', '--query-port=', '--info-zone=', '--info-service='],
    table: `--state --list-all --list-all-zones --list-services --list-ports --list-protocols --list-interfaces --list-sources --list-rich-rules --list-forward-ports --get-zones
      --get-services --get-active-zones --get-default-zone --get-zone-of-interface= --get-icmptypes --query-service= --query-port= --info-zone= --info-service= --zone= --permanent -q --quiet`, operands: 0, what: 'prints the firewall configuration' },
  dracut: { need: ['--list-modules'], table: '--list-modules -v --verbose -q --quiet', operands: 0, what: 'lists its modules' },
  chkconfig: { need: ['--list'], table: '--list --type=', operands: 1, what: 'lists services by runlevel' },
  apparmor_parser: { need: ['-p', '--preprocess', '-S', '--stdout'], table: '-p --preprocess -S --stdout -K --skip-kernel-load -T --skip-read-cache -Q --skip-kernel-load -q --quiet -v --verbose -I: --Include= -b: --base=', operands: 'any', what: 'prints a preprocessed or compiled profile' },
  at: { need: ['-l', '-c'], table: '-l -c -q: -V', operands: 'any', what: 'lists or prints queued jobs' },
  efibootmgr: { need: [], table: '-v --verbose -u --unicode -q --quiet', operands: 0, what: 'lists boot entries' },
};

const disks: Rule = {
  names: ['mkfs', 'mke2fs', 'mkswap', 'mkdosfs', 'mkntfs', 'newfs', 'wipefs', 'fdisk', 'sfdisk', 'cfdisk', 'parted', 'gdisk', 'sgdisk', 'cgdisk', 'blkdiscard', 'hdparm', 'sdparm', 'nvme', 'badblocks', 'e2fsck', 'fsck', 'tune2fs', 'resize2fs', 'xfs_repair', 'btrfs', 'zfs', 'lvremove', 'vgremove', 'pvremove', 'lvcreate', 'vgcreate', 'pvcreate', 'lvextend', 'lvreduce', 'mdadm', 'cryptsetup', 'losetup', 'kpartx', 'diskutil', 'gpart', 'flashrom', 'dmsetup'],
  base: 'read',
  effects: [],
  what: 'works with disks, partitions or filesystems',
  readsArgs: false,
  checksOwnOptions: true,
  conventions: { byName: SYSTEM_CONVENTIONS },
  analyze(inv, a) {
    if (reportsOnly(inv, a)) return;
    a.raise('destructive', `${inv.name} changes disks, partitions or filesystems`, ['destructive', 'file_write']);
    const mkfs = /^(mkfs|mke2fs|mkdosfs|mkntfs|newfs|mkswap)$/.test(inv.name);
    const wipes = mkfs || inv.name === 'wipefs' || inv.name === 'blkdiscard';
    if (!wipes) return;
    // Any argument naming a device counts: option parsing differs between mkfs flavours (-F is a flag for one, a value for another).
    for (const arg of inv.argv) {
      const abs = arg.startsWith('/') || arg.startsWith('.') ? resolvePath(arg, inv.cwd, a.ctx) : null;
      if (abs !== null && abs.startsWith('/dev/') && !isHarmlessDevice(abs)) a.markHardline(`${inv.name} ${arg} erases the disk or partition`);
    }
  },
  match: ['fdisk -l', 'sfdisk -l /dev/sda', 'losetup -a', 'zfs list', 'cryptsetup luksDump /dev/sdb', 'kpartx -l disk.img'],
  notMatch: ['mkfs.ext4 disk.img', 'mkfs.ext4 /dev/sda1', 'wipefs -a /dev/nvme0n1', 'fdisk /dev/sda', 'zfs destroy tank/x', 'cryptsetup luksDump --dump-master-key /dev/sdb', 'losetup -f disk.img'],
};

const power: Rule = {
  names: ['shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'kexec', 'pm-suspend', 'pm-hibernate', 'systemd-run', 'chroot', 'nsenter', 'pivot_root', 'switch_root', 'modprobe', 'insmod', 'rmmod', 'depmod', 'setcap', 'capsh', 'mount', 'umount', 'swapon', 'swapoff', 'useradd', 'userdel', 'usermod', 'adduser', 'deluser', 'groupadd', 'groupdel', 'groupmod', 'addgroup', 'delgroup', 'passwd', 'chpasswd', 'chsh', 'chfn', 'chage', 'visudo', 'vipw', 'vigr', 'newgrp', 'pwck', 'grpck', 'iptables', 'ip6tables', 'nft', 'ufw', 'firewall-cmd', 'pfctl', 'ipfw', 'update-grub', 'grub-install', 'grub-mkconfig', 'efibootmgr', 'update-initramfs', 'dracut', 'ldconfig', 'update-rc.d', 'chkconfig', 'launchctl', 'csrutil', 'spctl', 'nvram', 'pmset', 'bless', 'kextload', 'kextunload', 'tccutil', 'dscl', 'sysadminctl', 'fdesetup', 'killall5', 'auditctl', 'setenforce', 'aa-disable', 'apparmor_parser', 'at', 'batch', 'atrm', 'anacron', 'wall', 'write'],
  base: 'read',
  effects: [],
  what: 'manages the system (power, users, services, kernel, firewall or scheduled jobs)',
  readsArgs: false,
  checksOwnOptions: true,
  conventions: { byName: SYSTEM_CONVENTIONS },
  analyze(inv, a) {
    if (reportsOnly(inv, a)) return;
    a.raise('destructive', `${inv.name} changes the system itself (power, users, services, kernel, firewall or scheduled jobs)`, ['destructive']);
    // iptables -L, nft list, ufw status, launchctl list read the configuration but need privileges: kept at destructive.
    if (['iptables', 'ip6tables', 'nft', 'ufw', 'launchctl'].includes(inv.name)) {
      const listing = inv.argv.length === 0 || hasShort(inv.argv, 'lLSs') && ['iptables', 'ip6tables'].includes(inv.name) || ['status', 'list', 'show', 'print'].includes(inv.argv[0] ?? '') || (inv.name === 'nft' && inv.argv[0] === 'list');
      if (listing) a.raise('destructive', `${inv.name} needs privileges even to read; the classifier keeps it at destructive`);
    }
    if (inv.name === 'chroot' || inv.name === 'nsenter' || inv.name === 'systemd-run') {
      const ops = operands(inv.argv, { short: inv.name === 'nsenter' ? 'tSGw' : 'pEu', long: ['target', 'unit', 'property', 'description', 'setenv', 'uid', 'gid', 'working-directory', 'userspec', 'groups'] });
      const start = inv.name === 'chroot' ? 1 : 0;
      if (ops.length > start) a.runArgv(inv.args.slice(ops[start]!), inv.name);
    }
  },
  match: ['mount', 'swapon --show', 'ldconfig -p', 'modprobe -n json', 'chage -l alice', 'passwd --status', 'firewall-cmd --list-all-zones', 'at -l', 'vipw -V', 'switch_root -h'],
  notMatch: ['reboot', 'useradd bob', 'mount /dev/sdb1 /mnt', 'shutdown -h now', 'modprobe json', 'setcap cap_net_raw+ep x', 'passwd', 'at now', 'chsh -s /bin/zsh', 'firewall-cmd --add-port=80/tcp'],
};

/** True (after saying so) when the invocation is one of the program's report forms (REPORT_FORMS). */
function reportsOnly(inv: Invocation, a: Analysis): boolean {
  const form = Object.hasOwn(REPORT_FORMS, inv.name) ? REPORT_FORMS[inv.name]! : null;
  if (!form || inv.args.some((w) => !w.literal)) return false;
  const scan = scanOptions(inv.argv, tableFor(form.table));
  if (scan.unknown.length) return false;
  // cryptsetup and zfs take their action as the first operand; the others as an option.
  const verbFirst = inv.name === 'cryptsetup' || inv.name === 'zfs';
  const ops = scan.operands.map((i) => inv.argv[i]!);
  if (verbFirst ? !form.need.includes(ops.shift() ?? '') : form.need.length > 0 && !scan.found.some((f) => form.need.includes(f.name) || form.need.includes(`${f.name}=`))) return false;
  if (form.operands !== 'any' && ops.length > (form.operands ?? 0)) return false;
  a.raise('read', `${inv.name} ${form.what}`);
  return true;
}

/** Options of the read paths; -H/--host and -M/--machine reach another machine or container and are not listed. */
const SYSTEM_READ_OPTIONS: Readonly<Record<string, string>> = {
  systemctl: `--help --version -a -l -q -t: -p: -P: -r -n: -o: --all --full --quiet --type= --state= --property= --value --recursive --reverse --after --wait
    --before --lines= --output= --no-pager --no-legend --plain --user --system --failed --show-types --legend= --with-dependencies --no-ask-password`,
  journalctl: `--help --version -NUM -a -b? -D: -e -f -F: -g: -i: -k -l -m -n: -N -o: -p: -q -r -S: -t: -T: -u: -U: -x -c: --all --boot? --directory= --pager-end
    --follow --field= --grep= --file= --kernel --full --merge --lines= --fields --output= --priority= --quiet --reverse --since= --until=
    --identifier= --unit= --user-unit= --catalog --case-sensitive? --cursor= --after-cursor= --show-cursor --list-boots --dmesg --system
    --user --no-pager --no-full --no-hostname --no-tail --utc --output-fields= --facility= --header --disk-usage --verify
    --exclude-identifier= --namespace= !--vacuum-size= !--vacuum-time= !--vacuum-files= !--rotate !--flush !--relinquish-var !--setup-keys`,
  loginctl: '--help --version -a -l -p: -P: -n: -o: --all --full --property= --value --lines= --output= --no-pager --no-legend --no-ask-password',
  sysctl: '--help --version -a -A -X -b -e -N -n -r: -q -h -V --all --binary --ignore --names --values --pattern= --quiet !-w !-p? !--write !--load? !--system',
  ip: '@in-order @single-dash -4 -6 -0 -s -d -j -p -c -o -r -h -a -t -V -br -json -pretty -brief -stats -details -oneline -resolve -color -family: -f: -human -iec -N -numeric -n: -netns:',
  ifconfig: '-a -s -v -h',
  route: '-n -e -v -A: -F -C -h -V --numeric --extend --verbose',
  arp: '-a -e -n -v -i: -H: -D -A: --all --numeric --verbose --device= --hw-type= --protocol=',
  crontab: '-l -u: -V -h !-r -e -i -n: -c -T -s',
  '*': '@data',
};

const systemctl: Rule = {
  conventions: { byName: { systemctl: { info: ['-h'] }, journalctl: { info: ['-h'] }, loginctl: { info: ['-h'] }, killall: { info: ['-l', '--list', '-V'] }, pkill: { info: ['-V'] }, '*': {} } },
  names: ['systemctl', 'journalctl', 'loginctl', 'sysctl', 'ip', 'ifconfig', 'route', 'arp', 'crontab', 'kill', 'pkill', 'killall', 'renice'],
  base: 'read',
  effects: [],
  what: 'inspects or controls the system',
  readsArgs: false,
  options: SYSTEM_READ_OPTIONS,
  analyze(inv, a) {
    const argv = inv.argv;
    // The verb: the first operand after the options that take a value (a flag listed here would hide the verb).
    const firstOp = inv.name === 'systemctl' || inv.name === 'loginctl'
      ? operands(argv, { short: 'tpPHMnos', long: ['host', 'machine', 'type', 'property', 'lines', 'output', 'state', 'signal', 'kill-whom', 'kill-value', 'root', 'image', 'job-mode', 'when', 'message', 'timestamp', 'legend', 'what', 'preset-mode', 'reboot-argument', 'check-inhibitors', 'drop-in', 'boot-loader-menu', 'boot-loader-entry'] })[0]
      : argv.findIndex((x) => !x.startsWith('-'));
    const first = firstOp === undefined || firstOp === -1 ? '' : argv[firstOp]!;
    // -H user@host runs the same command on another machine, over ssh.
    if (['systemctl', 'loginctl'].includes(inv.name) && (hasShort(argv, 'H') || hasLong(argv, ['host']))) {
      a.raise('network', `${inv.name} -H runs on another machine over ssh`, ['network']);
    }
    switch (inv.name) {
      case 'systemctl': {
        const reading = ['', 'status', 'show', 'cat', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'list-dependencies', 'list-jobs', 'is-active', 'is-enabled', 'is-failed', 'is-system-running', 'get-default', 'help', 'show-environment',
          'list-automounts', 'list-machines', 'list-paths', 'whoami'];
        // These print the setting alone, and change it with an argument (service-log-level NAME LEVEL).
        const printsAlone = ['log-level', 'log-target', 'service-watchdogs'].includes(first) && firstOp !== undefined && firstOp !== -1 && operands(argv.slice(firstOp + 1)).length === 0;
        const printsFor = ['service-log-level', 'service-log-target'].includes(first) && firstOp !== undefined && firstOp !== -1 && operands(argv.slice(firstOp + 1)).length === 1;
        if (!reading.includes(first) && !printsAlone && !printsFor) a.raise('destructive', `systemctl ${first} changes services or the system state`, ['destructive']);
        if (hasLong(argv, ['user']) && ['enable', 'link', 'edit', 'set-environment', 'import-environment'].includes(first)) a.addEffects(['capability_change']);
        return;
      }
      case 'journalctl':
        if (hasLong(argv, ['vacuum-size', 'vacuum-time', 'vacuum-files', 'rotate', 'flush', 'relinquish-var', 'setup-keys'])) a.raise('destructive', 'journalctl deletes or rotates system logs', ['destructive']);
        else a.raise('read', 'journalctl reads system logs', ['file_read']);
        return;
      case 'loginctl':
        if (!['', 'list-sessions', 'list-users', 'list-seats', 'session-status', 'show-session', 'user-status', 'show-user', 'seat-status', 'show-seat'].includes(first)) a.raise('destructive', `loginctl ${first} changes user sessions`, ['destructive']);
        return;
      case 'sysctl':
        if (hasShort(argv, 'wp') || hasLong(argv, ['write', 'load', 'system']) || argv.some((x) => /^[\w.]+=/.test(x))) a.raise('destructive', 'sysctl changes kernel settings', ['destructive']);
        return;
      case 'ip': {
        const changing = argv.some((x) => ['add', 'del', 'delete', 'change', 'replace', 'set', 'flush', 'append', 'prepend', 'exec'].includes(x));
        if (changing) a.raise('destructive', 'ip changes network configuration', ['destructive', 'network']);
        if (argv.includes('exec')) a.runArgv(inv.args.slice(argv.indexOf('exec') + 2), 'ip netns exec');
        return;
      }
      case 'ifconfig':
      case 'route':
      case 'arp':
        if (argv.filter((x) => !x.startsWith('-')).length > (inv.name === 'ifconfig' ? 1 : 0)) a.raise('destructive', `${inv.name} changes network configuration`, ['destructive', 'network']);
        return;
      case 'crontab':
        if (hasShort(argv, 'l')) return a.raise('read', 'crontab -l lists scheduled jobs', ['file_read']);
        if (hasShort(argv, 'r')) return a.raise('destructive', 'crontab -r deletes every scheduled job', ['destructive', 'file_delete']);
        return a.raise('destructive', 'crontab installs scheduled jobs that run outside the jail', ['destructive', 'capability_change']);
      case 'kill': {
        if (hasShort(argv, 'l') && argv.length <= 2) return;
        const targets = argv.filter((x) => /^-?\d+$/.test(x) && !/^-\d+$/.test(x) || x === '-1');
        const everything = argv.includes('-1') && argv.indexOf('-1') > 0 || targets.includes('1') || argv.slice(-1)[0] === '-1' && argv.length >= 2;
        if (everything) return a.raise('destructive', 'kill -1 (or PID 1) signals every process the user owns, or init', ['destructive']);
        return a.raise('write', 'kill signals processes', ['command_exec']);
      }
      case 'pkill':
      case 'killall':
        return a.raise('write', `${inv.name} signals processes by name`, ['command_exec']);
      case 'renice':
        return a.raise('write', 'renice changes process priorities', ['command_exec']);
    }
  },
  match: ['systemctl status nginx', 'journalctl -u x', 'ip addr', 'crontab -l', 'sysctl -a'],
  notMatch: ['systemctl -H host status', 'journalctl --vacuum-size=1M', 'journalctl --vacuum-time=1d', 'journalctl --vacuum-files=1', 'journalctl --rotate', 'journalctl --flush', 'journalctl --relinquish-var', 'journalctl --setup-keys', 'sysctl -p', 'sysctl --write x=1', 'sysctl --load=f.conf', 'sysctl --system', 'ip -b cmds.txt', 'systemctl restart nginx', 'crontab -r', 'kill -9 -1', 'ip link set eth0 down', 'sysctl -w x=1', 'kill 1234', 'crontab job.txt'],
};

/** Privilege escalation: destructive whatever it runs, and what it runs is judged too. */
const privileged: Rule = {
  conventions: {
    byName: {
      su: { info: ['-h', '-V'] }, runuser: { info: ['-h', '-V'] }, sudo: { info: ['-h', '-V'] }, setpriv: { info: ['-h', '-V'] },
      // doas -C FILE [COMMAND]: parses the configuration and says whether COMMAND would be allowed; nothing runs.
      doas: { checks: [{ when: ['-C'], table: '-C: -u: -n -s', what: 'only checks a configuration file (-C)', operands: 'any' }] },
      '*': {},
    },
  },
  names: ['sudo', 'doas', 'su', 'pkexec', 'runuser', 'run0', 'sudoedit', 'gosu', 'su-exec', 'setpriv', 'sg', 'calife', 'ksu'],
  base: 'destructive',
  effects: ['destructive'],
  what: 'runs a command with other privileges',
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    if (inv.name === 'su' || inv.name === 'runuser' || inv.name === 'sg') {
      const code: string[] = [];
      for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '-c' || argv[i] === '--command' || argv[i] === '--session-command') {
          const w = inv.args[i + 1];
          if (w) {
            a.runCode(w, `${inv.name} -c`);
            code.push(w.value);
          }
        } else if (argv[i]!.startsWith('--command=')) a.runCode(argv[i]!.slice(10), `${inv.name} -c`);
      }
      const dd = argv.indexOf('--');
      if (inv.name === 'runuser' && dd !== -1) a.runArgv(inv.args.slice(dd + 1), 'runuser');
      if (inv.name === 'sg' && code.length === 0 && argv.length >= 2) a.runCode(argv.slice(1).join(' '), 'sg');
      if (code.length === 0 && inv.name === 'su') a.raise('destructive', 'su starts a shell as another user', SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (inv.name === 'sudoedit') return;
    const valued = inv.name === 'doas' ? 'uC' : inv.name === 'setpriv' ? '' : 'ughpCDrtUTRc';
    const ops = operands(argv, { short: valued, long: ['user', 'group', 'host', 'prompt', 'close-from', 'chdir', 'role', 'type', 'other-user', 'command-timeout', 'chroot', 'reuid', 'regid', 'groups', 'inh-caps', 'ambient-caps', 'bounding-set', 'securebits', 'selinux-label', 'apparmor-profile'] });
    if (ops.length) a.runArgv(inv.args.slice(ops[0]!), inv.name);
    else if (hasShort(argv, 'isE') || hasLong(argv, ['login', 'shell'])) a.raise('destructive', `${inv.name} starts a root shell`, SHELL_REACHABLE_EFFECTS);
  },
  match: ['sudo ls', 'sudo -l', 'doas true'],
  notMatch: [],
};

export const systemRules: Rule[] = [disks, power, systemctl, privileged];
