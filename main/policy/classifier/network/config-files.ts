// The configuration files that say where a command connects: a repository's git remotes (and the
// global insteadOf rewrites), npm's and pip's registries, ssh's host aliases. Parsing is pure; files
// are read through an injected ReadText, lazily and once per classification, and only for commands
// that reach the network.
import { posix } from 'node:path';
import type { ReadText } from './types';

const MAX_WALK = 40;

/** key → values, with keys `section.subsection.name` (section and name lower-case, subsection as written). */
export type GitConfig = Map<string, string[]>;

/** Parses git's config format (enough for remotes and url rewrites; includes are not followed). */
export function parseGitConfig(text: string): GitConfig {
  const out: GitConfig = new Map();
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      const [, name, sub] = header;
      section = sub === undefined ? name!.toLowerCase() : `${name!.toLowerCase()}.${sub.replace(/\\(.)/g, '$1')}`;
      // `[section] key = value` on one line.
      if (header[3]) addGitPair(out, section, header[3]);
      continue;
    }
    if (section) addGitPair(out, section, line);
  }
  return out;
}

function addGitPair(out: GitConfig, section: string, line: string): void {
  const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
  if (!m) return;
  const key = `${section}.${m[1]!.toLowerCase()}`;
  const value = unquoteGit(m[2] ?? 'true');
  const list = out.get(key);
  if (list) list.push(value);
  else out.set(key, [value]);
}

function unquoteGit(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < v.length) out += v[++i] === 'n' ? '\n' : v[i];
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/** Applies `url.<base>.insteadOf` (or pushInsteadOf for pushes): the longest matching prefix wins. */
export function rewriteGitUrl(url: string, configs: readonly GitConfig[], push: boolean): string {
  let best: { prefix: string; base: string } | null = null;
  const consider = (key: string, prefixes: string[]) => {
    const base = key.slice('url.'.length, key.lastIndexOf('.'));
    for (const prefix of prefixes) if (url.startsWith(prefix) && (!best || prefix.length > best.prefix.length)) best = { prefix, base };
  };
  for (const kind of push ? ['pushinsteadof', 'insteadof'] : ['insteadof']) {
    for (const c of configs) for (const [key, values] of c) if (key.startsWith('url.') && key.endsWith('.' + kind)) consider(key, values);
    if (best) break;
  }
  const b = best as { prefix: string; base: string } | null;
  return b ? b.base + url.slice(b.prefix.length) : url;
}

/** Reads `key=value` ini files (.npmrc, pip.conf): section.key → values (continuation lines join pip's lists). */
export function parseIni(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  let last: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s+\S/.test(raw) && last) {
      out.get(last)!.push(raw.trim());
      continue;
    }
    const line = raw.trim();
    last = null;
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1]!.trim().toLowerCase();
      continue;
    }
    const eq = line.indexOf('=');
    if (eq === -1) continue;
    const key = (section ? section + '.' : '') + line.slice(0, eq).trim().toLowerCase();
    const value = line.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, value === '' ? [] : [value]);
    last = key;
  }
  return out;
}

export interface SshHost {
  hostname: string;
  port: number | null;
  /** A ProxyJump or ProxyCommand: the connection goes through something else first. */
  proxy: string | null;
}

/** What ~/.ssh/config makes of an alias: first value wins, as in ssh; Match blocks and includes are not followed. */
export function resolveSshAlias(text: string, alias: string): SshHost {
  let active = true;
  let hostname: string | null = null;
  let port: number | null = null;
  let proxy: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(\S+?)\s*(?:=\s*|\s+)(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'host') {
      active = hostPatternsMatch(value.split(/\s+/), alias);
      continue;
    }
    if (key === 'match') {
      active = /^all$/i.test(value);
      continue;
    }
    if (!active) continue;
    if (key === 'hostname' && hostname === null) hostname = value.replace(/%h/g, alias);
    else if (key === 'port' && port === null && /^\d+$/.test(value)) port = Number(value);
    else if ((key === 'proxyjump' || key === 'proxycommand') && proxy === null && value.toLowerCase() !== 'none') proxy = `${m[1]} ${value}`;
  }
  return { hostname: hostname ?? alias, port, proxy };
}

function hostPatternsMatch(patterns: string[], alias: string): boolean {
  let matched = false;
  for (const p of patterns) {
    const negated = p.startsWith('!');
    const re = new RegExp('^' + (negated ? p.slice(1) : p).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'i');
    if (re.test(alias)) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}

/**
 * The network configuration one classification consults. Every file is read at most once; a command
 * that reaches no network never gets here.
 */
export class NetworkFiles {
  /** Made on the first read: most commands read no file. */
  private cache: Map<string, string | null> | null = null;

  constructor(
    private readonly read: ReadText | null,
    private readonly home: string,
  ) {}

  /** True when files can be read at all (otherwise every host that needs them is unknown). */
  get available(): boolean {
    return this.read !== null;
  }

  text(path: string): string | null {
    if (!this.read) return null;
    const cache = (this.cache ??= new Map());
    if (!cache.has(path)) cache.set(path, this.read(path));
    return cache.get(path)!;
  }

  /** The repository config that applies in `dir` (its .git/config, also through a worktree's .git file), or null. */
  repoConfig(dir: string): GitConfig | null {
    let d = dir;
    for (let i = 0; i < MAX_WALK; i++) {
      const config = this.text(posix.join(d, '.git', 'config'));
      if (config !== null) return parseGitConfig(config);
      const link = this.text(posix.join(d, '.git'));
      if (link !== null && link.startsWith('gitdir:')) {
        const gitdir = posix.resolve(d, link.slice('gitdir:'.length).trim());
        const common = this.text(posix.join(gitdir, 'commondir'));
        const root = common !== null ? posix.resolve(gitdir, common.trim()) : gitdir;
        const text = this.text(posix.join(root, 'config'));
        return text === null ? null : parseGitConfig(text);
      }
      if (d === '/') return null;
      d = posix.dirname(d);
    }
    return null;
  }

  /** The user's global git configuration files (for url rewrites). */
  globalGitConfigs(): GitConfig[] {
    const out: GitConfig[] = [];
    for (const p of [posix.join(this.home, '.gitconfig'), posix.join(this.home, '.config', 'git', 'config')]) {
      const t = this.text(p);
      if (t !== null) out.push(parseGitConfig(t));
    }
    return out;
  }

  /** npm's registries for a project in `dir`: the default one and every @scope one (project .npmrc first, then the user's). */
  npmRegistries(dir: string): string[] {
    const files: string[] = [];
    let d = dir;
    for (let i = 0; i < MAX_WALK; i++) {
      files.push(posix.join(d, '.npmrc'));
      if (d === '/' || d === this.home) break;
      d = posix.dirname(d);
    }
    files.push(posix.join(this.home, '.npmrc'));
    let main: string | null = null;
    const scoped: string[] = [];
    for (const f of [...new Set(files)]) {
      const t = this.text(f);
      if (t === null) continue;
      const ini = parseIni(t);
      if (main === null && ini.get('registry')?.[0]) main = ini.get('registry')![0]!;
      for (const [k, v] of ini) if (/^@[^:]+:registry$/.test(k) && v[0]) scoped.push(v[0]);
    }
    return [main ?? 'https://registry.npmjs.org/', ...scoped];
  }

  /** pip's index and find-links URLs from pip.conf (virtualenv, user, system), or the defaults. */
  pipIndexes(virtualEnv: string | null): string[] {
    const files = [
      ...(virtualEnv ? [posix.join(virtualEnv, 'pip.conf')] : []),
      posix.join(this.home, '.config', 'pip', 'pip.conf'),
      posix.join(this.home, '.pip', 'pip.conf'),
      '/etc/pip.conf',
      '/etc/xdg/pip/pip.conf',
    ];
    let index: string | null = null;
    const extra: string[] = [];
    for (const f of files) {
      const t = this.text(f);
      if (t === null) continue;
      const ini = parseIni(t);
      for (const section of ['install', 'global', 'download']) {
        const v = ini.get(`${section}.index-url`) ?? ini.get(`${section}.index_url`) ?? ini.get(`${section}.i`);
        if (index === null && v?.[0]) index = v[0];
        for (const key of ['extra-index-url', 'extra_index_url', 'find-links', 'find_links', 'f']) for (const x of ini.get(`${section}.${key}`) ?? []) extra.push(...x.split(/\s+/).filter(Boolean));
      }
    }
    return index === null ? ['https://pypi.org/simple', 'https://files.pythonhosted.org/', ...extra] : [index, ...extra];
  }

  /** An ssh alias as ~/.ssh/config resolves it; the alias itself when the file is unreadable. */
  sshAlias(alias: string): SshHost & { known: boolean } {
    const t = this.text(posix.join(this.home, '.ssh', 'config'));
    if (t === null) return { hostname: alias, port: null, proxy: null, known: this.available };
    return { ...resolveSshAlias(t, alias), known: true };
  }
}
