// System tools whose subcommands mostly report (issue 22: fewer needless prompts): systemd's
// analyzers, network device tools, X display queries, zpool, mkinitcpio, update-alternatives, service,
// rc-update. Each has a table of what only reads, from its manual; every other subcommand keeps the
// class the tool had before (changing the system: destructive; talking to the network: network).
import type { Class, Effect } from '../../../../common/domain';
import { hasLong, hasShort, operands, scanOptions, tableFor } from '../args';
import type { Analysis, Invocation } from '../types';
import { subcommandClass, type Rule, type SubcommandClass } from './helpers';

const R = (why: string, more: Partial<SubcommandClass> = {}): SubcommandClass => ({ cls: 'read', why, ...more });

/** One program: its read subcommands (the empty path is no subcommand at all) and what anything else is. */
interface Reporter {
  /** Subcommand paths (up to three words) → what they do; '' is the program with no subcommand. */
  table: Readonly<Record<string, SubcommandClass | readonly SubcommandClass[]>>;
  /** Options allowed on the read forms (args.ts format). */
  options: string;
  /** Options that take a value, to find the subcommand. */
  valued?: { short?: string; long?: readonly string[] };
  /** What any other form does. */
  otherwise: { cls: Class; why: string; effects: readonly Effect[] };
  /** Words the program accepts abbreviated (nmcli c = connection): full word → minimum prefix length. */
  abbreviations?: Readonly<Record<string, number>>;
}

/** nmcli's objects and verbs, which it takes abbreviated to any prefix (c, con, conn …). */
const NMCLI_WORDS: Readonly<Record<string, number>> = {
  general: 1, networking: 1, radio: 1, connection: 1, device: 1, monitor: 1, agent: 1,
  status: 1, hostname: 1, permissions: 1, logging: 1, connectivity: 1, show: 1, list: 1, wifi: 1, wwan: 1, all: 1, lldp: 1,
};

const SYSTEMD_READ_OPTIONS = `--help -h --version --no-pager --no-legend --user --system --global --json= -j --tldr --man? --generators? --order --require
  --from-pattern= --to-pattern= --fuzz= --threshold= --security-policy= --offline= --profile= --scale-svg= --detailed --iterations= --base-time=
  --unit= --table --quiet -q --root= --image= --recursive-errors= --all -a --full -l --plain --since= -S: --until= -U: --reverse -r -F: --field= -1
  -n: --lines= --no-ask-password --lines= -o: --output= --value -p: --property= -D: --directory= --file= --list --stats --cat`;

const REPORTERS: Readonly<Record<string, Reporter>> = {
  'systemd-analyze': {
    table: Object.fromEntries([
      '', 'time', 'blame', 'critical-chain', 'plot', 'dot', 'dump', 'cat-config', 'unit-files', 'unit-paths', 'exit-status', 'capability', 'condition',
      'syscall-filter', 'filesystems', 'calendar', 'timestamp', 'timespan', 'security', 'inspect-elf', 'fdstore', 'image-policy', 'has-tpm2', 'pcrs',
      'architectures', 'compare-versions', 'smbios11', 'verify',
    ].map((v) => [v, R('reports on the boot and the units')]).concat([
      ['log-level', R('prints the log level', { alone: true })], ['log-target', R('prints the log target', { alone: true })],
      ['service-watchdogs', R('prints whether watchdogs are on', { alone: true })],
    ])),
    options: SYSTEMD_READ_OPTIONS,
    valued: { long: ['fuzz', 'threshold', 'security-policy', 'offline', 'profile', 'scale-svg', 'iterations', 'base-time', 'unit', 'root', 'image', 'json', 'from-pattern', 'to-pattern'] },
    otherwise: { cls: 'destructive', why: 'changes the service manager', effects: ['destructive'] },
  },
  coredumpctl: {
    table: { '': R('lists crash dumps'), list: R('lists crash dumps'), info: R('shows a crash dump') },
    options: SYSTEMD_READ_OPTIONS,
    valued: { short: 'SUFnDo', long: ['since', 'until', 'field', 'lines', 'directory', 'file', 'output', 'json'] },
    otherwise: { cls: 'write', why: 'writes a core file or runs a debugger on it', effects: ['file_write', 'command_exec'] },
  },
  localectl: {
    table: Object.fromEntries(['', 'status', 'list-locales', 'list-keymaps', 'list-x11-keymap-models', 'list-x11-keymap-layouts', 'list-x11-keymap-variants', 'list-x11-keymap-options'].map((v) => [v, R('prints locale settings')])),
    options: SYSTEMD_READ_OPTIONS,
    otherwise: { cls: 'destructive', why: 'changes the system locale or keyboard', effects: ['destructive'] },
  },
  resolvectl: {
    table: {
      '': R('prints the resolver state'), status: R('prints the resolver state'), statistics: R('prints resolver statistics'), 'show-cache': R('prints the cache'),
      'show-server-state': R('prints the DNS servers state'), monitor: R('shows lookups as they happen'),
      dns: R('prints the DNS servers', { alone: true }), domain: R('prints the search domains', { alone: true }), 'default-route': R('prints the default routes', { alone: true }),
      llmnr: R('prints LLMNR settings', { alone: true }), mdns: R('prints mDNS settings', { alone: true }), dnssec: R('prints DNSSEC settings', { alone: true }),
      dnsovertls: R('prints DNS-over-TLS settings', { alone: true }), nta: R('prints negative trust anchors', { alone: true }), 'log-level': R('prints the log level', { alone: true }),
      query: { cls: 'network', why: 'resolves names through DNS', effects: ['network'] }, service: { cls: 'network', why: 'resolves services through DNS', effects: ['network'] },
      openpgp: { cls: 'network', why: 'looks keys up through DNS', effects: ['network'] }, tlsa: { cls: 'network', why: 'looks TLSA records up through DNS', effects: ['network'] },
      'flush-caches': { cls: 'write', why: 'flushes the resolver caches', effects: ['file_write'] }, 'reset-statistics': { cls: 'write', why: 'resets the statistics', effects: ['file_write'] },
      'reset-server-features': { cls: 'write', why: 'resets what it learnt about the servers', effects: ['file_write'] },
    },
    options: `${SYSTEMD_READ_OPTIONS} -4 -6 -i: --interface= -t: --type= -c: --class= --legend= --cname= --search= --raw? --validate= --synthesize= --cache= --zone= --trust-anchor= --network= --stale-data=`,
    valued: { short: 'itcp', long: ['interface', 'type', 'class', 'protocol', 'json'] },
    otherwise: { cls: 'destructive', why: "changes the machine's DNS settings", effects: ['destructive', 'network'] },
  },
  service: {
    table: {},
    options: '--status-all --help -h --version',
    otherwise: { cls: 'destructive', why: 'starts, stops or changes a system service', effects: ['destructive'] },
  },
  'rc-update': {
    table: { '': R('lists services by runlevel'), show: R('lists services by runlevel') },
    options: '-v --verbose -a --all -u --update -h --help -V --version -q --quiet -C --nocolor',
    otherwise: { cls: 'destructive', why: 'adds or removes services from runlevels', effects: ['destructive'] },
  },
  'update-alternatives': {
    table: {},
    options: '--display= --query= --list= --get-selections --help --version --verbose --quiet --altdir= --admindir= --log=',
    otherwise: { cls: 'destructive', why: 'changes which program a system command runs', effects: ['destructive'] },
  },
  mkinitcpio: {
    table: {},
    // Without -g, -p, -P or -U it only checks what it would build (a dry run). -c and -D name files and hook folders it runs as shell code: not listed.
    options: '-L --listhooks -H: --hookhelp= -h --help -V --version -M --automods -k: --kernel= -A: --addhooks= -S: --skiphooks= -n --nocolor -v --verbose -r: --moduleroot=',
    otherwise: { cls: 'destructive', why: 'builds the boot image', effects: ['destructive'] },
  },
  zpool: {
    table: {
      status: R('prints pool status'), list: R('lists pools'), iostat: R('prints pool I/O statistics'), history: R('prints the pool history'),
      get: R('prints pool properties'), events: R('prints pool events', { when: ['!-c'] }), import: R('lists the pools that can be imported', { alone: true }),
    },
    // -c runs scripts (zpool status -c); events -c clears the event log: not listed.
    options: '-v -x -H -p -P -L -g -l -o: -T: -D -e -f -i -s -y -n -q -w -r -t',
    valued: { short: 'oTd' },
    otherwise: { cls: 'destructive', why: 'changes disks, pools or filesystems', effects: ['destructive', 'file_write'] },
  },
  nmcli: {
    table: {
      '': R('prints the network status'), general: R('prints the network status', { alone: true }), 'general status': R('prints the network status'),
      'general hostname': R('prints the hostname', { alone: true }), 'general permissions': R('prints permissions'), 'general logging': R('prints logging settings', { alone: true }),
      networking: R('prints whether networking is on', { alone: true }), 'networking connectivity': R('prints the connectivity state', { alone: true }),
      radio: R('prints radio switches', { alone: true }), 'radio all': R('prints radio switches', { alone: true }), 'radio wifi': R('prints the Wi-Fi switch', { alone: true }),
      'radio wwan': R('prints the WWAN switch', { alone: true }), connection: R('lists connections', { alone: true }), 'connection show': R('shows connections'),
      device: R('lists devices', { alone: true }), 'device status': R('lists devices'), 'device show': R('shows devices'), 'device wifi': R('lists Wi-Fi networks', { alone: true }),
      'device wifi list': R('lists Wi-Fi networks'), 'device lldp': R('lists LLDP neighbours', { alone: true }), 'device lldp list': R('lists LLDP neighbours'),
      monitor: R('shows changes as they happen'),
    },
    options: `-t --terse -p --pretty -m: --mode= -c: --colors= -f: --fields= -g: --get-values= -e: --escape= -w: --wait= -v --version -h --help -o --overview
      --active --order= -a --ask? !-s !--show-secrets`,
    valued: { short: 'mcfgew', long: ['mode', 'colors', 'fields', 'get-values', 'escape', 'wait', 'order'] },
    otherwise: { cls: 'destructive', why: "changes the machine's network configuration", effects: ['destructive', 'network'] },
    abbreviations: NMCLI_WORDS,
  },
  iwctl: {
    table: {
      'station list': R('lists Wi-Fi stations'), 'device list': R('lists Wi-Fi devices'), 'adapter list': R('lists Wi-Fi adapters'),
      'known-networks list': R('lists known networks'), version: R('prints its version'), help: R('prints help'),
    },
    options: '-h --help -v --version',
    otherwise: { cls: 'network', why: 'scans for or connects to Wi-Fi networks', effects: ['network', 'destructive'] },
  },
  ethtool: {
    table: {},
    options: `-i --driver -k --show-features --show-offload -S --statistics -a --show-pause -c --show-coalesce -g --show-ring -l --show-channels -P --show-permaddr
      -T --show-time-stamping --show-eee --show-fec -m --dump-module-eeprom --module-info -d --register-dump -e --eeprom-dump --show-priv-flags --show-rxfh-indir
      -x --show-rxfh -u --show-ntuple --show-nfc --show-tunnels --show-cable-test? --json -I --include-statistics --all-groups --groups= -h --help --version -Q --per-queue
      --debug= --show-mm --show-pse --show-plca`,
    otherwise: { cls: 'destructive', why: "changes a network device's settings", effects: ['destructive'] },
  },
  iw: {
    table: {
      '': R('prints help'), help: R('prints help'), dev: R('lists wireless interfaces', { alone: true }), phy: R('lists wireless devices', { alone: true }), list: R('lists wireless devices'),
      info: R('lists wireless devices'), features: R('prints its features'), commands: R('lists its commands'), event: R('shows wireless events'), 'reg get': R('prints the regulatory domain'),
    },
    options: '--debug --version -t -T -r -f',
    otherwise: { cls: 'destructive', why: 'changes or scans with a wireless device', effects: ['destructive', 'network'] },
  },
  networkctl: {
    table: Object.fromEntries(['', 'list', 'status', 'lldp', 'label', 'cat'].map((v) => [v, R('prints the network links')])),
    options: SYSTEMD_READ_OPTIONS,
    otherwise: { cls: 'destructive', why: "changes the machine's network links", effects: ['destructive', 'network'] },
  },
  iwconfig: {
    table: {},
    options: '--help --version -v',
    otherwise: { cls: 'destructive', why: 'changes a wireless device', effects: ['destructive', 'network'] },
  },
  xset: {
    table: { q: R('prints the X server settings') },
    options: '-q -help -version',
    otherwise: { cls: 'write', why: 'changes the X server settings', effects: ['desktop_open'] },
  },
  pactl: {
    table: Object.fromEntries(['info', 'stat', 'list', 'get-default-sink', 'get-default-source', 'get-sink-volume', 'get-sink-mute', 'get-source-volume', 'get-source-mute', 'subscribe']
      .map((v) => [v, R('prints the sound server state')])),
    // -s/--server names another sound server, possibly on another machine: not listed.
    options: '-n: --client-name= -f: --format= -h --help --version',
    valued: { short: 'nf', long: ['client-name', 'format'] },
    otherwise: { cls: 'write', why: 'changes the sound server (volumes, modules, devices)', effects: ['desktop_open'] },
  },
  xrandr: {
    table: {},
    options: '-q --query --current --verbose --listmonitors --listactivemonitors --listproviders -d: --display= --screen= --help -v --version',
    otherwise: { cls: 'write', why: 'changes the screen configuration', effects: ['desktop_open'] },
  },
};

/** `iw dev IFACE info` / `iw phy PHY channels`: a device name stands between the object and the read verb. */
const IW_DEVICE_READS = new Set(['info', 'link', 'station dump', 'station get', 'survey dump', 'scan dump', 'get power_save', 'channels', 'get mesh_param', 'mpath dump', 'mpp dump']);

function normalise(inv: Invocation, words: Readonly<Record<string, number>>): Invocation {
  const argv = inv.argv.map((x) => {
    if (x.startsWith('-')) return x;
    const full = Object.keys(words).find((w) => w.startsWith(x) && x.length >= words[w]!);
    return full ?? x;
  });
  return { ...inv, argv };
}

function judge(inv: Invocation, a: Analysis): void {
  const spec = REPORTERS[inv.name]!;
  const read = (why: string) => {
    a.raise('read', `${inv.name} ${why}`, ['file_read']);
    a.options(inv, spec.options, inv.name);
  };
  const n = spec.abbreviations ? normalise(inv, spec.abbreviations) : inv;
  const ops = operands(n.argv, spec.valued ?? {});
  const argv = n.argv;
  // Every option is one the read forms allow.
  const scan = scanOptions(argv, tableFor(spec.options));
  const known = () => scan.unknown.length === 0;
  const own = scan.operands.length;
  const words = ops.map((i) => argv[i]!);
  switch (inv.name) {
    case 'service':
      // service --status-all; service NAME status.
      if ((argv.length === 1 && argv[0] === '--status-all') || (words.length === 2 && words[1] === 'status' && argv.length === 2)) return read('prints service status');
      if (argv.length === 1 && ['--help', '-h', '--version'].includes(argv[0]!)) return read('prints help');
      break;
    case 'update-alternatives':
      if (argv.length && own === 0 && known()) return read('prints its settings');
      break;
    case 'mkinitcpio':
    case 'ethtool':
      if (own <= (inv.name === 'ethtool' ? 1 : 0) && known()) return read(inv.name === 'ethtool' ? 'prints device settings' : 'only checks what it would build (no -g, -p, -P or -U)');
      break;
    case 'iwconfig':
      if (argv.length <= 1 && words.length <= 1) return read('prints wireless settings');
      break;
    case 'xset': {
      // -display host:0 talks to the X server of another machine.
      const at = argv.indexOf('-display');
      if (at !== -1 && !/^(unix)?:/.test(argv[at + 1] ?? ':')) a.raise('network', `xset -display ${argv[at + 1]} talks to the X server of another machine`, ['network']);
      const rest = at === -1 ? argv : [...argv.slice(0, at), ...argv.slice(at + 2)];
      if (rest.length === 1 && (rest[0] === 'q' || rest[0] === '-q')) return void a.raise('read', 'xset q prints the X server settings', ['file_read']);
      break;
    }
    case 'xrandr': {
      // -d host:0 talks to the X server of another machine.
      const display = argv.findIndex((x) => x === '-d' || x === '--display');
      if (display !== -1 && !/^(unix)?:/.test(argv[display + 1] ?? ':')) a.raise('network', `xrandr -d ${argv[display + 1]} talks to the X server of another machine`, ['network']);
    }
      if (own === 0 && known()) return read('prints the screen configuration');
      break;
    case 'iw':
      // iw dev IFACE link, iw phy PHY channels, iw dev IFACE station dump.
      if ((words[0] === 'dev' || words[0] === 'phy') && (IW_DEVICE_READS.has(words.slice(2, 4).join(' ')) && words.length <= 5 || IW_DEVICE_READS.has(words[2] ?? '') && words.length === 3)) return read(`${words[0]} ${words.slice(2).join(' ')} prints device state`);
      break;
    case 'iwctl':
      // iwctl station wlan0 get-networks, iwctl device wlan0 show.
      if (['station', 'device', 'adapter', 'known-networks'].includes(words[0] ?? '') && ['show', 'get-networks', 'get-hidden-access-points'].includes(words[2] ?? '') && words.length <= 4) return read(`${words[0]} ${words[2]} prints Wi-Fi state`);
      if (argv.length === 1 && ['-h', '--help', '-v', '--version'].includes(argv[0]!)) return read('prints help');
      break;
  }
  const hit = ops.length === 0 && spec.table[''] ? { ...(spec.table[''] as SubcommandClass), path: '' } : subcommandClass(n, spec.table, spec.valued ?? {});
  if (hit?.cls === 'read') {
    if (hasShort(argv, 's') && inv.name === 'nmcli' || hasLong(argv, ['show-secrets'])) a.raise('read', 'nmcli --show-secrets prints Wi-Fi and VPN passwords', ['secret_read']);
    return read(hit.why);
  }
  if (hit) {
    a.raise(hit.cls, `${inv.name} ${hit.path} ${hit.why}`, hit.effects ?? []);
    return;
  }
  a.raise(spec.otherwise.cls, `${inv.name} ${spec.otherwise.why}`, spec.otherwise.effects);
}

const reporters: Rule = {
  names: Object.keys(REPORTERS),
  base: 'read',
  effects: [],
  what: 'reports on the system',
  readsArgs: false,
  checksOwnOptions: true,
  analyze: judge,
  match: ['systemd-analyze blame', 'coredumpctl list', 'localectl list-locales', 'resolvectl statistics', 'service --status-all', 'service nginx status', 'rc-update show',
    'update-alternatives --display java', 'mkinitcpio -L', 'mkinitcpio', 'iwctl station wlan0 get-networks', 'iw phy phy0 channels', 'networkctl status', 'iwconfig', 'xset q', 'pactl list sinks short', 'zpool status', 'nmcli d', 'nmcli general', 'iwctl station list', 'ethtool -i eth0', 'iw dev wlan0 link', 'xrandr --query'],
  notMatch: ['systemd-analyze set-log-level debug', 'systemd-analyze log-level debug', 'coredumpctl debug', 'localectl set-locale LANG=C', 'resolvectl query example.com',
    'resolvectl dns eth0 1.1.1.1', 'service nginx restart', 'rc-update add sshd', 'update-alternatives --set java /x', 'mkinitcpio -P', 'zpool destroy tank', 'zpool import tank',
    'nmcli radio wifi off', 'nmcli c up home', 'nmcli -s c show home', 'nmcli --show-secrets c show home', 'iwctl station wlan0 connect home', 'ethtool -s eth0 speed 100', 'iw dev wlan0 set power_save on',
    'xrandr --output HDMI-1 --off', 'networkctl down eth0', 'iwconfig wlan0 essid home', 'xset s off', 'pactl set-sink-volume 0 50%', 'pactl -s other.example.com info', 'xrandr -d example.com:0 -q', 'zpool events -c', 'zpool status -c script', 'mkinitcpio -g /boot/x.img', 'mkinitcpio -c evil.conf', 'iw dev wlan0 interface add mon0 type monitor', 'iw dev wlan0 scan', 'iwctl station wlan0 scan'],
};

export const systemReaderRules: Rule[] = [reporters];
