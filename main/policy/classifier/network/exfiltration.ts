// The shape of exfiltration: local data flowing into a program that sends it over the network
// (`env | curl -d @- …`, `tar c ~ | nc …`, `curl -d "$(cat ~/.aws/credentials)" …`, `… | xargs curl`).
// Whatever the host, a person decides each such call (it is destructive).
import type { Producer, RedirectInfo } from '../types';
import type { Word } from '../words';
import type { NetworkUse } from './types';

const LOCAL: ReadonlySet<Producer['kind']> = new Set(['unknown', 'decoded']);

/**
 * What local data feeds a network program, in words for the card, or null when nothing does. Literal
 * text (`echo hi | curl -d @- …`) is not local data: it is on the card for the person to read.
 */
export function exfiltrationSource(stdin: Producer, args: readonly Word[], redirects: readonly RedirectInfo[], outputOf: (nodeId: number) => Producer | undefined): string | null {
  if (LOCAL.has(stdin.kind)) return stdin.kind === 'decoded' ? 'a decoded payload on its input' : 'the output of a local command or file on its input';
  if ('withLocal' in stdin && stdin.withLocal) return 'the output of a local command or file on its input';
  for (const r of redirects) if ((r.op === '<<' || r.op === '<<<') && !r.literal) return `a ${r.op === '<<' ? 'here-document' : 'here-string'} that expands local values`;
  for (const w of args) {
    if (w.origin && LOCAL.has(w.origin.kind)) return `input read by a carrier (${w.source === '(input)' ? 'xargs' : w.source})`;
    for (const s of w.substitutions) {
      if (s.type === 'process_substitution' && s.text.startsWith('>')) continue;
      const p = outputOf(s.id);
      if (p === undefined || LOCAL.has(p.kind) || ('withLocal' in p && p.withLocal)) return `the output of ${clip(s.text)}`;
    }
  }
  return null;
}

/**
 * Variables that change where network programs connect or what they send: proxies, registries and
 * indexes, git's and ssh's configuration, and the folders configuration files are read from.
 */
const NETWORK_ENV = /^(https?_proxy|all_proxy|no_proxy|ftp_proxy|socks_proxy|HTTPS?_PROXY|ALL_PROXY|NO_PROXY|FTP_PROXY|SOCKS_PROXY|npm_config_\w+|NPM_CONFIG_\w+|YARN_\w+|PNPM_\w+|BUN_CONFIG_\w+|PIP_\w+|UV_\w+|POETRY_\w+|PIPENV_\w+|CONDA_\w+|CARGO_\w+|RUSTUP_\w+|GO(PROXY|FLAGS|PRIVATE|NOPROXY|NOSUMDB|SUMDB|INSECURE|VCS)|GIT_\w+|SSH_\w+|CURL_HOME|CURL_CA_BUNDLE|WGETRC|GH_\w+|GITHUB_\w+|GLAB_\w+|BUNDLE_\w+|GEM_\w+|RUBYGEMS_\w+|COMPOSER\w*|DOCKER_\w+|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|RES_OPTIONS|LOCALDOMAIN|HOSTALIASES|LD_PRELOAD|NODE_OPTIONS|NODE_EXTRA_CA_CERTS)$/;

export function networkEnvironment(name: string): boolean {
  return NETWORK_ENV.test(name);
}

/** A redirection to /dev/tcp/HOST/PORT or /dev/udp/HOST/PORT. */
export function socketUse(path: string, kind: 'upload' | 'connect'): NetworkUse {
  const m = /^\/dev\/(tcp|udp)\/([^/]+)\/(\d{1,5})$/.exec(path);
  const hosts = m && !/[$`]/.test(m[2]!) ? [{ host: m[2]!.toLowerCase(), port: Number(m[3]) }] : [{ host: null, why: `the socket ${path} is only known at run time` }];
  return { kind, hosts, reason: kind === 'upload' ? `bash sends output to the network socket ${path}` : `bash connects to the network socket ${path}` };
}

function clip(s: string, n = 50): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? one.slice(0, n - 1) + '…' : one;
}
