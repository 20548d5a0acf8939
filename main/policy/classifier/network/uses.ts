// What each network program sends and where, read from its arguments and (for git, npm, pip and ssh)
// from the configuration files that name its remotes and registries. A use the classifier cannot
// pin down names an unknown host or is not a download: at the level `full` only a download from
// allowed hosts runs without a question.
import { hasLong, hasShort, operands, optionValues } from '../args';
import type { Invocation } from '../types';
import { rewriteGitUrl, type GitConfig, type NetworkFiles } from './config-files';
import { bareHostTarget, isUrl, remoteSpec, sshDestination, urlScheme, urlTarget, type RemoteSpec } from './hosts';
import type { HostTarget, NetworkUse } from './types';

const HTTPS = (host: string): HostTarget => ({ host, port: 443 });
const unknown = (why: string): HostTarget => ({ host: null, why });

/** Schemes a download may use: anything else (gopher, dict, smtp, telnet …) can carry arbitrary bytes. */
const DOWNLOAD_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps']);

/** Hosts of every URL among the words, and an unknown host for a URL only known at run time. */
function urlWords(inv: Invocation, from = 0): HostTarget[] {
  const out: HostTarget[] = [];
  for (let i = from; i < inv.argv.length; i++) {
    const v = inv.argv[i]!;
    const eq = v.startsWith('-') ? v.indexOf('=') : -1;
    const text = eq === -1 ? v : v.slice(eq + 1);
    if (!isUrl(text)) continue;
    if (!inv.args[i]?.literal) out.push(unknown(`the URL ${inv.args[i]?.source ?? text} is only known at run time`));
    else {
      const t = urlTarget(text);
      if (t) out.push(t);
    }
  }
  return out;
}

function schemesOf(inv: Invocation): string[] {
  return inv.argv.map((v) => urlScheme(v.startsWith('-') && v.includes('=') ? v.slice(v.indexOf('=') + 1) : v)).filter((s): s is string => s !== null);
}

function targetOfOperand(inv: Invocation, i: number): HostTarget | null {
  const w = inv.args[i];
  const v = inv.argv[i]!;
  if (w && !w.literal) return unknown(`the address ${w.source} is only known at run time`);
  if (urlScheme(v) === 'file') return null;
  return urlTarget(v) ?? bareHostTarget(v);
}

// ── curl, wget and other fetchers ───────────────────────────────────────────────────────────────

const CURL_SHORT_VALUE = 'AbcCdDeEFHKmoPQrtTuUwxXyYz';
const CURL_LONG_VALUE = [
  'data', 'data-ascii', 'data-binary', 'data-raw', 'data-urlencode', 'json', 'form', 'form-string', 'header', 'output', 'user-agent',
  'cookie', 'cookie-jar', 'continue-at', 'dump-header', 'cert', 'cert-type', 'key', 'key-type', 'pass', 'referer', 'config', 'max-time',
  'ftp-port', 'quote', 'range', 'telnet-option', 'upload-file', 'user', 'proxy-user', 'write-out', 'proxy', 'request', 'speed-limit',
  'speed-time', 'time-cond', 'url', 'connect-timeout', 'retry', 'retry-delay', 'retry-max-time', 'max-filesize', 'limit-rate', 'cacert',
  'capath', 'resolve', 'connect-to', 'interface', 'dns-servers', 'doh-url', 'unix-socket', 'abstract-unix-socket', 'preproxy', 'variable',
  'netrc-file', 'output-dir', 'expect100-timeout', 'local-port', 'max-redirs', 'noproxy', 'oauth2-bearer', 'proto', 'proto-redir',
  'proxy-header', 'socks4', 'socks4a', 'socks5', 'socks5-hostname', 'trace', 'trace-ascii', 'stderr', 'mail-from', 'mail-rcpt', 'mail-auth',
  'request-target', 'aws-sigv4', 'hostpubmd5', 'hostpubsha256', 'crlfile', 'pinnedpubkey', 'ciphers', 'engine', 'krb', 'login-options',
  'sasl-authzid', 'service-name', 'tls-max', 'tlsuser', 'tlspassword', 'etag-save', 'etag-compare', 'parallel-max', 'rate', 'url-query',
];
const CURL_UPLOAD_LONG = ['data', 'data-ascii', 'data-binary', 'data-raw', 'data-urlencode', 'json', 'form', 'form-string', 'upload-file', 'mail-rcpt', 'mail-from', 'mail-auth', 'url-query'];
/** Options that send the connection somewhere other than the URL says. */
const CURL_REDIRECT_LONG = ['proxy', 'preproxy', 'connect-to', 'resolve', 'doh-url', 'unix-socket', 'abstract-unix-socket', 'socks4', 'socks4a', 'socks5', 'socks5-hostname', 'dns-servers', 'config', 'request-target'];

const GET_METHODS = /^(GET|HEAD|OPTIONS)$/i;

export function curlUse(inv: Invocation): NetworkUse {
  const argv = inv.argv;
  const hosts: HostTarget[] = [];
  const uploads: string[] = [];
  if (hasShort(argv, 'dFT') || hasLong(argv, CURL_UPLOAD_LONG)) uploads.push('sends data (-d, -F, -T, --json …)');
  const method = [...optionValues(argv, 'X', ['request'])].find((m) => !GET_METHODS.test(m));
  if (method !== undefined) uploads.push(`uses the method ${method}`);
  if ([...optionValues(argv, 'H', ['header', 'proxy-header'])].some((h) => h.startsWith('@'))) uploads.push('sends headers read from a file');
  if ([...optionValues(argv, '', ['variable'])].some((v) => v.includes('@'))) uploads.push('reads variables from files');
  if ([...optionValues(argv, 'b', ['cookie'])].some((c) => !c.includes('='))) uploads.push('sends cookies read from a file');
  if (hasShort(argv, 'xKY') || hasLong(argv, CURL_REDIRECT_LONG)) hosts.push(unknown('curl is told to connect through a proxy, a resolver, a socket or a config file'));
  for (const i of operands(argv, { short: CURL_SHORT_VALUE, long: CURL_LONG_VALUE })) {
    const t = targetOfOperand(inv, i);
    if (t) hosts.push(t);
  }
  for (const u of optionValues(argv, '', ['url'])) hosts.push(urlTarget(u) ?? bareHostTarget(u));
  hosts.push(...urlWords(inv));
  const odd = schemesOf(inv).find((s) => !DOWNLOAD_SCHEMES.has(s) && s !== 'file');
  return finish('curl', hosts, uploads, odd);
}

export function wgetUse(inv: Invocation): NetworkUse {
  const argv = inv.argv;
  const hosts: HostTarget[] = [];
  const uploads: string[] = [];
  if (hasLong(argv, ['post-data', 'post-file', 'body-data', 'body-file'])) uploads.push('sends data (--post-data, --body-file …)');
  const method = [...optionValues(argv, '', ['method'])].find((m) => !GET_METHODS.test(m));
  if (method !== undefined) uploads.push(`uses the method ${method}`);
  if (hasShort(argv, 'ie') || hasLong(argv, ['input-file', 'execute', 'config', 'span-hosts', 'input-metalink', 'use-askpass'])) {
    hosts.push(unknown(`${inv.name} reads its URLs or settings from elsewhere, or follows links to other hosts`));
  }
  if (hasShort(argv, 'H') && hasShort(argv, 'rm')) hosts.push(unknown(`${inv.name} follows links to other hosts`));
  const ops = operands(argv, { short: 'OoaPtTwQeiBUlARDXIdb', long: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'tries', 'timeout', 'wait', 'quota', 'execute', 'input-file', 'base', 'user-agent', 'level', 'accept', 'reject', 'domains', 'exclude-directories', 'include-directories', 'header', 'post-data', 'post-file', 'body-data', 'body-file', 'method', 'user', 'password', 'http-user', 'http-password', 'referer', 'load-cookies', 'save-cookies', 'limit-rate', 'config', 'bind-address', 'ca-certificate', 'certificate', 'private-key'] });
  for (const i of ops) {
    const t = targetOfOperand(inv, i);
    if (t) hosts.push(t);
  }
  hosts.push(...urlWords(inv));
  const odd = schemesOf(inv).find((s) => !DOWNLOAD_SCHEMES.has(s) && s !== 'file');
  return finish(inv.name, hosts, uploads, odd);
}

/** httpie and xh: `http [METHOD] URL [items]`; an item with = or @ sends data. */
export function httpieUse(inv: Invocation): NetworkUse {
  const ops = operands(inv.argv, { short: 'abAvpPo', long: ['auth', 'auth-type', 'output', 'print', 'session', 'session-read-only', 'proxy', 'verify', 'cert', 'cert-key', 'timeout', 'pretty', 'style', 'format-options', 'max-redirects'] });
  const uploads: string[] = [];
  const hosts: HostTarget[] = [];
  let i = 0;
  if (ops.length && /^[A-Z]+$/.test(inv.argv[ops[0]!]!)) {
    if (!GET_METHODS.test(inv.argv[ops[0]!]!)) uploads.push(`uses the method ${inv.argv[ops[0]!]}`);
    i = 1;
  }
  if (ops[i] !== undefined) {
    const v = inv.argv[ops[i]!]!;
    if (!inv.args[ops[i]!]!.literal) hosts.push(unknown(`the URL ${inv.args[ops[i]!]!.source} is only known at run time`));
    else if (v.startsWith(':')) hosts.push({ host: 'localhost', port: Number(/^:(\d+)/.exec(v)?.[1] ?? 80) });
    else hosts.push(urlTarget(v) ?? bareHostTarget(v));
  }
  for (const k of ops.slice(i + 1)) {
    const item = inv.argv[k]!;
    if (/^[^=:@]*==/.test(item) || /^[\w-]+:[^=]/.test(item)) continue; // query parameters and headers
    uploads.push(`sends the request item ${item}`);
    break;
  }
  if (hasShort(inv.argv, 'f') || hasLong(inv.argv, ['form', 'raw', 'multipart', 'offline'])) uploads.push('sends a body');
  if (hasLong(inv.argv, ['proxy'])) hosts.push(unknown(`${inv.name} connects through a proxy`));
  return finish(inv.name, hosts, uploads);
}

/** aria2c, yt-dlp and friends: they download the URLs they are given. */
export function downloaderUse(inv: Invocation): NetworkUse {
  const hosts = urlWords(inv);
  if (hasShort(inv.argv, 'ia') || hasLong(inv.argv, ['input-file', 'batch-file', 'config-location', 'proxy', 'all-proxy', 'exec'])) hosts.push(unknown(`${inv.name} reads more URLs or settings from elsewhere`));
  return finish(inv.name, hosts, []);
}

function finish(program: string, hosts: HostTarget[], uploads: string[], oddScheme?: string): NetworkUse {
  if (hosts.length === 0) hosts.push(unknown(`${program} names no address the classifier can read`));
  if (uploads.length) return { kind: 'upload', hosts, reason: `${program} ${uploads[0]}, an upload` };
  if (oddScheme) return { kind: 'connect', hosts, reason: `${program} speaks ${oddScheme}://, which can send anything` };
  return { kind: 'download', hosts, reason: `${program} downloads` };
}

// ── git ─────────────────────────────────────────────────────────────────────────────────────────

/** A git, scp or rsync location as a host (ssh aliases resolved through ~/.ssh/config); null when local. */
export function remoteTarget(spec: RemoteSpec, files: NetworkFiles): HostTarget | null {
  switch (spec.kind) {
    case 'local':
      return null;
    case 'url':
      if (spec.target.host !== null && ['ssh', 'git+ssh', 'ssh+git', 'sftp', 'scp'].includes(spec.scheme)) {
        const url = spec.target;
        const alias = files.sshAlias(url.host);
        if (alias.proxy) return unknown(`the ssh connection to ${url.host} goes through ${alias.proxy}`);
        return { host: alias.hostname.toLowerCase(), port: url.port };
      }
      return spec.target;
    case 'rsync-daemon':
      return { host: spec.host.toLowerCase(), port: 873 };
    case 'ssh':
      return sshTarget(spec.host, null, files);
  }
}

function sshTarget(host: string, port: number | null, files: NetworkFiles): HostTarget {
  const alias = files.sshAlias(host);
  if (!alias.known) return unknown(`${host} may be an ssh alias, and ssh's configuration is not available to check`);
  if (alias.proxy) return unknown(`the ssh connection to ${host} goes through ${alias.proxy}`);
  const t = sshDestination(alias.hostname);
  if (t.host === null) return t;
  return { host: t.host.toLowerCase(), port: port ?? alias.port ?? 22 };
}

export interface GitNetworkContext {
  files: NetworkFiles;
  /** The directory git runs in (after -C), or null when unknown. */
  cwd: string | null;
  /** git -c / --config-env was given: configuration for this call can rewrite any remote. */
  overridden: boolean;
}

/** Where a git remote argument (a name, a URL or host:path) points. */
export function gitRemoteTargets(g: GitNetworkContext, remote: string | null, push: boolean): HostTarget[] {
  if (g.overridden) return [unknown('git -c changes configuration for this call, which can point a remote anywhere')];
  if (!g.files.available) return [unknown('the repository\'s configuration is not available to check')];
  const repo = g.cwd === null ? null : g.files.repoConfig(g.cwd);
  const configs: GitConfig[] = [...(repo ? [repo] : []), ...g.files.globalGitConfigs()];
  const asLocation = (url: string): HostTarget[] => {
    const t = remoteTarget(remoteSpec(rewriteGitUrl(url, configs, push)), g.files);
    return t ? [t] : [];
  };
  if (remote !== null && (isUrl(remote) || remoteSpec(remote).kind !== 'local' || remote.includes('/'))) return asLocation(remote);
  if (repo === null) return [unknown(g.cwd === null ? 'git runs in a directory only known at run time' : 'no repository configuration was found for this directory')];
  const names = remote === null ? defaultRemotes(repo) : [remote];
  if (names.length === 0) return [unknown('the repository has no remote configured')];
  const out: HostTarget[] = [];
  for (const name of names) {
    const urls = (push ? repo.get(`remote.${name}.pushurl`) : undefined) ?? repo.get(`remote.${name}.url`);
    if (!urls?.length) {
      out.push(unknown(`the repository has no remote named ${name}`));
      continue;
    }
    for (const u of urls) out.push(...asLocation(u));
  }
  return out;
}

/** origin when it exists, else the only remote; several without origin are all of them. */
function defaultRemotes(repo: GitConfig): string[] {
  const names = [...new Set([...repo.keys()].filter((k) => k.startsWith('remote.') && k.endsWith('.url')).map((k) => k.slice('remote.'.length, -'.url'.length)))];
  return names.includes('origin') ? ['origin'] : names;
}

export function allGitRemotes(g: GitNetworkContext): HostTarget[] {
  if (g.overridden || !g.files.available || g.cwd === null) return gitRemoteTargets(g, null, false);
  const repo = g.files.repoConfig(g.cwd);
  if (!repo) return gitRemoteTargets(g, null, false);
  const names = [...new Set([...repo.keys()].filter((k) => k.startsWith('remote.') && k.endsWith('.url')).map((k) => k.slice('remote.'.length, -'.url'.length)))];
  return names.flatMap((n) => gitRemoteTargets(g, n, false));
}

// ── package managers ────────────────────────────────────────────────────────────────────────────

/** A package named by location (a URL, git+ssh://, github:user/repo, user/repo) is fetched from there. */
function nodeSpecTargets(spec: string, files: NetworkFiles): HostTarget[] {
  // alias@<location> installs <location> under another name.
  const location = spec.replace(/^(@?[^@\s/]+(?:\/[^@\s]+)?)@(?=[a-z+]+:)/i, '');
  if (isUrl(location)) {
    const t = remoteTarget(remoteSpec(location.replace(/^git\+/, '')), files);
    return t ? [t] : [];
  }
  if (/^(github|gist):/.test(location) || /^[\w.-]+\/[\w.-]+(#.*)?$/.test(location)) return [HTTPS('github.com'), HTTPS('codeload.github.com')];
  if (/^gitlab:/.test(location)) return [HTTPS('gitlab.com')];
  if (/^bitbucket:/.test(location)) return [HTTPS('bitbucket.org')];
  if (/^[\w.-]+@[\w.-]+:/.test(location)) return [remoteTarget(remoteSpec(location), files) ?? unknown(spec)];
  return [];
}

export function nodeRegistryTargets(inv: Invocation, files: NetworkFiles, cwd: string | null): HostTarget[] {
  const explicit = [...optionValues(inv.argv, '', ['registry'])];
  const hosts: HostTarget[] = [];
  if (!files.available) hosts.push(unknown(`${inv.name}'s registry configuration (.npmrc) is not available to check`));
  else if (cwd === null) hosts.push(unknown(`${inv.name} runs in a directory only known at run time, whose .npmrc may name another registry`));
  const registries = explicit.length ? explicit : files.available && cwd !== null ? files.npmRegistries(cwd) : [];
  if (inv.name === 'yarn' && !explicit.length) registries.push('https://registry.yarnpkg.com/');
  for (const r of registries) hosts.push(r.includes('${') ? unknown(`the registry ${r} is taken from the environment`) : (urlTarget(r) ?? unknown(`the registry ${r} is not a URL`)));
  for (let i = 0; i < inv.argv.length; i++) {
    const v = inv.argv[i]!;
    if (v.startsWith('-')) continue;
    if (!inv.args[i]!.literal) {
      hosts.push(unknown(`the package ${inv.args[i]!.source} is only known at run time`));
      continue;
    }
    hosts.push(...nodeSpecTargets(v, files));
  }
  return hosts;
}

export function pipIndexTargets(inv: Invocation, files: NetworkFiles, virtualEnv: string | null): HostTarget[] {
  const argv = inv.argv;
  const explicit = [...optionValues(argv, 'i', ['index-url'])];
  const extra = [...optionValues(argv, '', ['extra-index-url']), ...optionValues(argv, 'f', ['find-links'])];
  const hosts: HostTarget[] = [];
  if (!files.available && !explicit.length) hosts.push(unknown('pip\'s configuration (pip.conf) is not available to check'));
  const indexes = explicit.length ? [...explicit, 'https://files.pythonhosted.org/'] : files.available ? files.pipIndexes(virtualEnv) : [];
  for (const u of [...indexes, ...extra]) {
    if (!isUrl(u)) continue; // find-links may be a local folder
    // file:// indexes are local folders: no host (pip.conf often names one; it crashed here before).
    const target = urlTarget(u);
    if (target) hosts.push(target);
  }
  if (hasLong(argv, ['proxy'])) hosts.push(unknown('pip connects through a proxy'));
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i]!.replace(/^[\w.-]+\s*@\s*/, '');
    if (argv[i]!.startsWith('-')) continue;
    if (!inv.args[i]!.literal) hosts.push(unknown(`the package ${inv.args[i]!.source} is only known at run time`));
    else if (isUrl(v.replace(/^(git|hg|svn|bzr)\+/, ''))) hosts.push(remoteTarget(remoteSpec(v.replace(/^(git|hg|svn|bzr)\+/, '')), files) ?? unknown(v));
  }
  // A requirements file (-r) may name other indexes and URLs: it is not read here; the egress proxy
  // checks those connections when they are made.
  return hosts;
}

export const CRATES_HOSTS: readonly HostTarget[] = [HTTPS('crates.io'), HTTPS('index.crates.io'), HTTPS('static.crates.io')];
export const GO_HOSTS: readonly HostTarget[] = [HTTPS('proxy.golang.org'), HTTPS('sum.golang.org')];
export const PYPI_HOSTS: readonly HostTarget[] = [HTTPS('pypi.org'), HTTPS('files.pythonhosted.org')];

// ── ssh, scp, rsync ─────────────────────────────────────────────────────────────────────────────

const SSH_VALUE = 'BbcDEeFIiJLlmOoPpQRSWw';

export function sshUse(inv: Invocation, files: NetworkFiles): { use: NetworkUse; remoteCommand: number | null } {
  const argv = inv.argv;
  const ops = operands(argv, { short: SSH_VALUE, long: [] });
  const hosts: HostTarget[] = [];
  const port = optionValues(argv, 'p', []).map(Number).find((n) => Number.isInteger(n) && n > 0) ?? null;
  const dest = ops[0];
  if (dest === undefined) hosts.push(unknown('ssh names no destination'));
  else if (!inv.args[dest]!.literal) hosts.push(unknown(`the destination ${inv.args[dest]!.source} is only known at run time`));
  else {
    const d = sshDestination(argv[dest]!);
    if (d.host === null) hosts.push(d);
    else hosts.push(sshTarget(d.host, 'port' in d && d.port !== null && urlScheme(argv[dest]!) ? d.port : port, files));
  }
  const options = optionValues(argv, 'o', []);
  if (hasShort(argv, 'JFS') || options.some((o) => /^(ProxyJump|ProxyCommand|HostName|Hostname|Port|Include)\b/i.test(o))) hosts.push(unknown('ssh options change where it connects'));
  const forwards = hasShort(argv, 'LRDwW') || options.some((o) => /^(LocalForward|RemoteForward|DynamicForward|Tunnel)\b/i.test(o));
  const remoteCommand = ops.length > 1 ? ops[1]! : null;
  const name = inv.name;
  if (remoteCommand !== null) return { use: { kind: 'upload', hosts, reason: `${name} runs a command on the remote machine, which can send it anything` }, remoteCommand };
  if (forwards) return { use: { kind: 'connect', hosts, reason: `${name} forwards connections through the remote machine` }, remoteCommand };
  return { use: { kind: 'connect', hosts, reason: `${name} opens a shell on another machine` }, remoteCommand };
}

/** scp, sftp and rsync: to a remote is an upload, from one a download. */
export function copyUse(inv: Invocation, files: NetworkFiles, ops: number[]): NetworkUse | null {
  const argv = inv.argv;
  if (inv.name === 'sftp') {
    const dest = ops[0];
    const hosts: HostTarget[] = dest === undefined ? [unknown('sftp names no destination')] : !inv.args[dest]!.literal ? [unknown(`the destination ${inv.args[dest]!.source} is only known at run time`)] : [];
    if (dest !== undefined && hosts.length === 0) {
      const spec = remoteSpec(argv[dest]!);
      const t = spec.kind === 'local' ? sshTarget(argv[dest]!.slice(argv[dest]!.lastIndexOf('@') + 1), null, files) : remoteTarget(spec, files);
      hosts.push(t ?? unknown(`sftp names no host: ${argv[dest]}`));
    }
    return { kind: 'upload', hosts, reason: 'sftp opens a session that can send files to the remote machine, an upload' };
  }
  const locations = ops.map((i) => ({ i, spec: inv.args[i]!.literal ? remoteSpec(argv[i]!) : null }));
  const hosts: HostTarget[] = [];
  for (const l of locations) {
    if (l.spec === null) hosts.push(unknown(`the location ${inv.args[l.i]!.source} is only known at run time`));
    else {
      const t = remoteTarget(l.spec, files);
      if (t) hosts.push(t);
    }
  }
  if (hasShort(argv, inv.name === 'rsync' ? 'e' : 'JFSo') || hasLong(argv, ['rsh'])) hosts.push(unknown(`${inv.name} options change how or where it connects`));
  if (hosts.length === 0) return null;
  const dest = locations[locations.length - 1];
  const toRemote = dest !== undefined && (dest.spec === null || dest.spec.kind !== 'local');
  const sources = locations.slice(0, -1);
  if (toRemote || sources.some((s) => s.spec === null)) return { kind: 'upload', hosts, reason: `${inv.name} copies files to a remote machine, an upload` };
  return { kind: 'download', hosts, reason: `${inv.name} copies files from a remote machine` };
}
