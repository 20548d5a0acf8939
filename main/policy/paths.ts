// Where a path points, judged lexically (pure: no filesystem access). Used by the shell classifier and
// by the evaluation of file tools, so one list decides what a credential or a system location is.
import { posix } from 'node:path';
import { CREDENTIAL_HOME_PATHS, CREDENTIAL_SYSTEM_LOCATIONS, CREDENTIAL_SYSTEM_PATHS, HOME_VISIBLE, OUTSIDE_JAIL_CODE_PATHS, isInside, within } from '../../common/credential-locations';

// The lists live in common/ so the executor (which imports nothing from main/) builds its jail from the same ones.
export { CREDENTIAL_HOME_PATHS, CREDENTIAL_SYSTEM_LOCATIONS, CREDENTIAL_SYSTEM_PATHS, HOME_VISIBLE, OUTSIDE_JAIL_CODE_PATHS, isInside };

export interface PathContext {
  /** The user's home directory, absolute. */
  home: string;
  /** The workspace the agent works in, absolute. */
  workspace: string;
  /** Threshold's own config and data directories: never readable or writable by the agent. */
  appDirs: readonly string[];
  /** Program names resolve case-insensitively (macOS's default filesystem): `RM` runs rm. */
  caseInsensitiveNames?: boolean;
}

/** Expands ~ and ~user, makes the path absolute against cwd and removes . and .. lexically. */
export function resolvePath(raw: string, cwd: string | null, ctx: PathContext): string | null {
  let p = raw;
  if (p === '~' || p.startsWith('~/')) p = ctx.home + p.slice(1);
  else if (p.startsWith('~')) {
    const slash = p.indexOf('/');
    const user = slash === -1 ? p.slice(1) : p.slice(1, slash);
    const rest = slash === -1 ? '' : p.slice(slash);
    p = (user === 'root' ? '/root' : `/home/${user}`) + rest;
  }
  if (!p.startsWith('/')) {
    if (cwd === null) return null;
    // join is normalize(cwd + '/' + p); most paths are already normal, and then that is the answer.
    if (p !== '' && isNormalAbsolute(cwd)) {
      const plain = withoutDotPrefixOrSlashSuffix(p);
      if (plain === '') return cwd;
      if (isNormalRelative(plain)) return cwd === '/' ? '/' + plain : cwd + '/' + plain;
    }
    p = posix.join(cwd, p);
  } else if (isNormalAbsolute(p)) return p;
  const normalized = posix.normalize(p);
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

/**
 * `.`, `./src`, `dist/` and `./dist/` name what `src` and `dist` name: the leading `./`s and one trailing
 * slash removed ('' for `.` and `./`), so the common operands of find, rg and rm -r skip posix.join.
 */
function withoutDotPrefixOrSlashSuffix(p: string): string {
  if (p === '.') return '';
  let start = 0;
  while (p.startsWith('./', start)) start += 2;
  const end = p.length > start && p.endsWith('/') ? p.length - 1 : p.length;
  return start === 0 && end === p.length ? p : p.slice(start, end);
}

/** An absolute path that posix.normalize leaves as it is, with no trailing slash: no empty, . or .. segment. */
function isNormalAbsolute(p: string): boolean {
  return p === '/' || (p.startsWith('/') && !p.endsWith('/') && isNormalRelative(p.slice(1)));
}

/** A relative path of plain segments: none empty, none . or .., no slash at either end. */
function isNormalRelative(p: string): boolean {
  let start = 0;
  for (;;) {
    const slash = p.indexOf('/', start);
    const end = slash === -1 ? p.length : slash;
    const len = end - start;
    if (len === 0 || (p.charCodeAt(start) === 46 && (len === 1 || (len === 2 && p.charCodeAt(start + 1) === 46)))) return false;
    if (slash === -1) return true;
    start = slash + 1;
  }
}

function homeRelative(path: string, ctx: PathContext): string | null {
  if (path === ctx.home) return '';
  return within(path, ctx.home) ? path.slice(ctx.home.length + 1) : null;
}

/** The first segment of a relative path (all of it when it has no slash). */
function firstSegment(rel: string): string {
  const slash = rel.indexOf('/');
  return slash === -1 ? rel : rel.slice(0, slash);
}

/** The first segment of an absolute path with its slash (`/etc` of `/etc/shadow`); '' for a relative path. */
function topSegment(path: string): string {
  if (path.charCodeAt(0) !== 47) return '';
  const slash = path.indexOf('/', 1);
  return slash === -1 ? path : path.slice(0, slash);
}

/**
 * A list of absolute locations, each judged with isInside. A path is inside one only if it starts with that
 * location's first segment, so most paths are answered by one look-up instead of a walk of the list.
 */
class Locations {
  private readonly tops: ReadonlySet<string> | null;
  constructor(private readonly paths: readonly string[]) {
    // `/` holds every absolute path: no first segment tells it apart.
    this.tops = paths.includes('/') ? null : new Set(paths.map(topSegment));
  }
  /** True when the path is, or is inside, one of the locations. */
  holds(path: string): boolean {
    if (this.tops !== null && !this.tops.has(topSegment(path))) return false;
    for (const p of this.paths) if (isInside(path, p)) return true;
    return false;
  }
}

const SYSTEM_CREDENTIALS = new Locations(CREDENTIAL_SYSTEM_PATHS);

/** The first segments of CREDENTIAL_HOME_PATHS: a home path starting with none of them is in none of them. */
const CREDENTIAL_HOME_FIRST = new Set(CREDENTIAL_HOME_PATHS.map(firstSegment));

const ENV_FILE = /^\.env(\..+)?$/;
const ENV_FILE_EXAMPLES = /^\.env\.(example|sample|template|dist|defaults)$/;
const KEY_FILE = /^(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.*\.(pem|p12|pfx|keystore|jks|kdbx)|credentials\.json|service-account.*\.json)$/;
/** A text that ENV_FILE or KEY_FILE can match a part of must contain one of these. */
const KEY_OR_ENV_HINT = /\.env|id_(rsa|dsa|ecdsa|ed25519)|\.(pem|p12|pfx|keystore|jks|kdbx)|credentials\.json|service-account/;

/** True when the path is, or is inside, a credential location. */
export function isCredentialPath(path: string, ctx: PathContext): boolean {
  const rel = homeRelative(path, ctx);
  if (rel !== null && rel !== '' && CREDENTIAL_HOME_FIRST.has(firstSegment(rel)) && CREDENTIAL_HOME_PATHS.some((c) => rel === c || within(rel, c))) return true;
  if (SYSTEM_CREDENTIALS.holds(path)) return true;
  if (ctx.appDirs.some((d) => isInside(path, d))) return true;
  // Every part the loop below can match holds one of these; most paths hold none.
  if (!KEY_OR_ENV_HINT.test(path)) return false;
  for (const part of path.split('/')) {
    if (ENV_FILE.test(part) && !ENV_FILE_EXAMPLES.test(part)) return true;
    if (KEY_FILE.test(part) && !part.endsWith('.pub')) return true;
  }
  return false;
}

// ── Hidden home entries (the jail's view of the home folder) ────────────────────────────────────────
// Credential files are too many to list, so the jail turns it around: every dot-entry of the home folder
// and ~/Library (where macOS keeps each application's data, cookies and keychains) is hidden, except the
// short list (HOME_VISIBLE, in common/credential-locations.ts), the workspace, and what the user granted.
// The classifier asks before reading any of them, so the card says why; the jails use the same list.

const HOME_VISIBLE_PATHS = HOME_VISIBLE.map((v) => v.path);

/** The first part of a home-relative path that the jail hides by default: a dot-entry, or Library. */
function hiddenHomeEntry(first: string): boolean {
  return (first.startsWith('.') && first !== '.' && first !== '..') || first === 'Library';
}

/**
 * True when the jail hides this path by default: inside a dot-entry of the home folder (or ~/Library),
 * not on the visible list, and outside the workspace (a workspace under a dot-folder stays visible; a
 * workspace that is the home folder itself does not make its dot-entries visible). A folder that only
 * leads to a visible entry (~/.cargo, for ~/.cargo/bin) is hidden: its other entries are.
 */
export function isHiddenHomePath(path: string, ctx: PathContext): boolean {
  const rel = homeRelative(path, ctx);
  if (rel === null || rel === '') return false;
  if (!hiddenHomeEntry(firstSegment(rel))) return false;
  if (ctx.workspace !== ctx.home && isInside(path, ctx.workspace)) return false;
  return !HOME_VISIBLE_PATHS.some((v) => rel === v || within(rel, v));
}

/** File-name extensions of source code and documents: a tokenizer.ts is code about tokens, not a token. */
const SOURCE_EXTENSION =
  /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|pyi|rb|go|rs|java|kt|kts|scala|swift|c|cc|cpp|cxx|h|hh|hpp|cs|fs|php|pl|pm|lua|ex|exs|erl|hs|ml|clj|dart|vue|svelte|sh|bash|zsh|md|mdx|rst|html|css|scss|snap|map)$/i;

/** File names that say they hold a secret, wherever the file is. */
const SECRET_NAMES: readonly { re: RegExp; what: string; code?: boolean }[] = [
  { re: /^id_[a-z0-9_-]+$/i, what: 'an SSH private key by its name (id_*)', code: true },
  { re: /^ssh_host_[a-z0-9_-]*key$/i, what: 'an SSH host private key by its name (ssh_host_*_key)', code: true },
  { re: /\.(pem|key|p12|pfx|ppk|kdbx|kdb|keychain|keychain-db|jks|keystore|bks)$/i, what: 'a key or key store by its extension' },
  { re: /^(\.htpasswd|\.pgpass|\.netrc|_netrc|wallet\.dat)$/i, what: 'a credential file by its name' },
  { re: /wallet|keystore/i, what: 'a wallet or key store by its name', code: true },
  { re: /token|credential|secret|password/i, what: 'a file whose name says it holds a secret', code: true },
];

/** Every name a pattern of SECRET_NAMES matches also matches this (each alternative loosens one of them). */
const SECRET_NAME_HINT = /^id_|^ssh_host_|\.(?:pem|key|p12|pfx|ppk|kdbx|kdb|keychain|keychain-db|jks|keystore|bks)$|^(?:\.htpasswd|\.pgpass|\.netrc|_netrc|wallet\.dat)$|wallet|keystore|token|credential|secret|password/i;

/** Folder names that say everything in them is a secret. */
const SECRET_FOLDERS = /^\.?(secrets|credentials|keystore|wallets|private-keys)$/i;
/** What a path must contain for a part of it to match SECRET_FOLDERS. */
const SECRET_FOLDER_HINT = /secrets|credentials|keystore|wallets|private-keys/i;

/**
 * What a path's name says it holds (a noun phrase), or null. Public halves (.pub) and source files are
 * not secrets. Folder names count only below the workspace or home folder that holds the path: a
 * workspace that itself lives in a folder named "secrets" does not make every file in it one.
 */
export function secretNameReason(path: string, roots: readonly string[] = []): string | null {
  // The last non-empty part, without splitting the path: most paths are judged by their name alone.
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  const name = path.slice(path.lastIndexOf('/', end - 1) + 1, end);
  if (name === '' || name.endsWith('.pub')) return null;
  const named = SECRET_NAME_HINT.test(name);
  // A folder name can only match in a path that holds one of the words.
  if (SECRET_FOLDER_HINT.test(path)) {
    const root = roots.filter((r) => r !== path && isInside(path, r)).sort((a, b) => b.length - a.length)[0];
    const below = root === undefined ? path.split('/').filter(Boolean) : path.slice(root === '/' ? 1 : root.length + 1).split('/');
    const folder = below.slice(0, -1).find((p) => SECRET_FOLDERS.test(p));
    if (folder && !SOURCE_EXTENSION.test(name)) return `a file in a folder named ${folder}`;
  }
  if (!named) return null;
  for (const n of SECRET_NAMES) {
    if (!n.re.test(name)) continue;
    if (n.code && SOURCE_EXTENSION.test(name)) continue;
    return n.what;
  }
  return null;
}

/**
 * Why reading this path needs a human (secret_read), as a noun phrase, or null: a credential location,
 * a path the jail hides (a dot-entry of the home folder outside the workspace), or a name that says so.
 */
export function secretReadReason(path: string, ctx: PathContext, opts: { byName?: boolean } = {}): string | null {
  if (isCredentialPath(path, ctx)) {
    const system = CREDENTIAL_SYSTEM_LOCATIONS.find((l) => isInside(path, l.path));
    return system ? `a credential location (${system.holds})` : 'a credential location';
  }
  if (isHiddenHomePath(path, ctx)) return "a path hidden from commands (the home folder's dot-entries and ~/Library hold credentials)";
  // A listing shows names, not contents: only a read of the file itself is judged by its name.
  return opts.byName === false ? null : secretNameReason(path, [ctx.workspace, ctx.home]);
}

/** True when a recursive read of this directory would take credential locations with it. */
export function containsCredentialLocation(path: string, ctx: PathContext): boolean {
  if (isInside(ctx.home, path)) return true;
  if (path === '/etc' || path === '/root' || path === '/home' || path === '/var') return true;
  return ctx.appDirs.some((d) => isInside(d, path));
}

/** Top-level system directories: deleting or rewriting them breaks the machine. */
export const SYSTEM_DIRS: readonly string[] = [
  '/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/opt', '/var', '/sys',
  '/proc', '/dev', '/root', '/home', '/srv', '/snap', '/System', '/Library', '/Applications', '/private',
];

const SYSTEM_LOCATIONS = new Locations(SYSTEM_DIRS);

export function isSystemPath(path: string): boolean {
  if (isHarmlessDevice(path) || isInside(path, '/tmp') || isInside(path, '/var/tmp') || isInside(path, '/dev/shm')) return false;
  if (path.startsWith('/home/') || path.startsWith('/Users/')) return false;
  return SYSTEM_LOCATIONS.holds(path);
}

const HARMLESS_DEVICES = new Set([
  '/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty',
]);
export function isHarmlessDevice(path: string): boolean {
  // Every one is under /dev/: other paths skip the set, whose look-up hashes the whole path.
  if (!path.startsWith('/dev/')) return false;
  return HARMLESS_DEVICES.has(path) || path.startsWith('/dev/fd/') || path.startsWith('/dev/pts/');
}

const RAW_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|disk\/|block\/|md\d|md\/|dm-\d|mapper\/|loop\d|nbd\d|zram\d|mtd|mtdblock|ubi|sg\d|st\d|sr\d|fd\d|root$|mem$|kmem$|port$)/;
export function isRawDevice(path: string): boolean {
  return RAW_DEVICE.test(path);
}

const SHELL_RC = new Set([
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin',
  '.zlogout', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', '.xprofile', '.xinitrc', '.xsessionrc', '.pam_environment',
  '.gitconfig', '.config/git/config', '.ssh/rc', '.config/fish', '.config/environment.d',
]);
/** Home-relative places from which code runs later, outside any jail (logins, autostart, PATH). */
const PERSISTENCE_HOME_DIRS = [
  '.config/autostart', '.config/systemd', '.local/share/systemd', '.local/bin', 'bin', 'Library/LaunchAgents',
  '.config/fish', '.config/environment.d', '.ssh',
];

/** Writing here is treated as destructive: system files, credentials, shell start-up files, autostart, PATH dirs. */
export function isProtectedWriteTarget(path: string, ctx: PathContext): boolean {
  if (isRawDevice(path) || isCredentialPath(path, ctx)) return true;
  // A workspace may live under /opt or /srv: inside it, files are the user's project, not the system.
  if (isSystemPath(path) && !(isInside(path, ctx.workspace) && ctx.workspace !== '/')) return true;
  const rel = homeRelative(path, ctx);
  if (rel === null) return false;
  if (rel === '') return true;
  if (SHELL_RC.has(rel)) return true;
  return PERSISTENCE_HOME_DIRS.some((d) => rel === d || within(rel, d));
}

/** Workspace files whose content later runs outside the jail (common/credential-locations.ts). */
const OUTSIDE_JAIL_CODE = OUTSIDE_JAIL_CODE_PATHS;

export function isOutsideJailCodePath(path: string, ctx: PathContext): boolean {
  if (!isInside(path, ctx.workspace) || path === ctx.workspace) return false;
  const rel = path.slice(ctx.workspace.length + 1);
  // At any depth: a nested repository's hooks run when git is used there; direnv loads .envrc in any folder.
  for (let start = 0; ; ) {
    const tail = start === 0 ? rel : rel.slice(start);
    if (OUTSIDE_JAIL_CODE.some((p) => tail === p || within(tail, p))) return true;
    const slash = rel.indexOf('/', start);
    if (slash === -1) return false;
    start = slash + 1;
  }
}

/** The credential locations of a context, each split into its parts, as of the home and app dirs they were made for. */
interface CredentialParts {
  home: string;
  appDirs: string[];
  parts: string[][];
}

/** By context object: a session classifies every command with the same one, so the list is split once. */
const credentialPartsByContext = new WeakMap<PathContext, CredentialParts>();

/** The parts of every credential location of ctx, rebuilt when its home or app dirs changed since. */
function credentialParts(ctx: PathContext): string[][] {
  const held = credentialPartsByContext.get(ctx);
  if (held && held.home === ctx.home && held.appDirs.length === ctx.appDirs.length && held.appDirs.every((d, i) => d === ctx.appDirs[i])) return held.parts;
  const candidates = [...CREDENTIAL_HOME_PATHS.map((c) => `${ctx.home}/${c}`), ...CREDENTIAL_SYSTEM_PATHS, ...ctx.appDirs];
  const parts = candidates.map((c) => c.split('/').filter(Boolean));
  credentialPartsByContext.set(ctx, { home: ctx.home, appDirs: [...ctx.appDirs], parts });
  return parts;
}

/** Glob support for path words: could this glob name something inside a credential location? */
export function globCouldReachCredential(globAbs: string, ctx: PathContext): boolean {
  return globReachesCredentialLocation(globAbs, ctx) || globCouldMatchSecretName(globAbs);
}

/**
 * Could this glob name a credential location or a path hidden from commands (by where it points, not by
 * the names a wildcard could match): `~/.ssh/*`, `~/.*`, `/etc/shad*`. A glob such as `~/Downloads/*` does not.
 */
export function globReachesCredentialLocation(globAbs: string, ctx: PathContext): boolean {
  const parts = globAbs.split('/').filter(Boolean);
  // Which parts hold a wildcard, found once: the others match a credential part only when equal.
  const wild = parts.map(hasGlobChar);
  for (const cparts of credentialParts(ctx)) {
    const n = Math.min(parts.length, cparts.length);
    let ok = true;
    for (let i = 0; i < n && ok; i++) ok = wild[i] ? globPartMatches(parts[i]!, cparts[i]!) : parts[i] === cparts[i];
    if (ok && (parts.length >= cparts.length || parts.slice(n).length === 0)) return true;
    // A shorter glob that matches a prefix of a credential path only lists it; deeper reads need more parts.
    if (ok && parts.length < cparts.length && parts.length > 0 && parts[parts.length - 1] === '**') return true;
  }
  // A dot-entry of the home folder (hidden from commands), outside the workspace.
  const homeParts = ctx.home.split('/').filter(Boolean);
  const inHome = parts.length > homeParts.length && homeParts.every((h, i) => parts[i] === h);
  const inWorkspace = ctx.workspace !== ctx.home && isInside(globAbs, ctx.workspace);
  return inHome && !inWorkspace && (parts[homeParts.length]!.startsWith('.') || parts[homeParts.length] === 'Library');
}

/** Names a wildcard could stand for that say they hold a secret. */
const SECRET_NAME_PROBES = ['.env', '.env.local', 'id_rsa', 'id_ed25519', 'ssh_host_ed25519_key', 'key.pem', 'server.key', 'token', 'credentials', 'secret', 'db.kdbx', 'wallet.dat'];

/** Could the glob's last part match a file whose name says it holds a secret (`*`, `*.pem`, `.env*`)? */
export function globCouldMatchSecretName(globAbs: string): boolean {
  const last = globAbs.slice(globAbs.lastIndexOf('/') + 1);
  return /[*?[]/.test(last) && SECRET_NAME_PROBES.some((n) => globPartMatches(last, n));
}

/**
 * Does every name the glob's last part can match say it holds a secret (`*.pem`, `id_*`, `*token*`)? Judged
 * by the literal text around the wildcards: with each wildcard standing for a neutral letter, the name is a
 * secret by its name. `*`, `*.txt` and `report-*` are not.
 */
export function globMatchesOnlySecretNames(globAbs: string, roots: readonly string[] = []): boolean {
  const slash = globAbs.lastIndexOf('/');
  const last = globAbs.slice(slash + 1);
  if (!/[*?[]/.test(last)) return false;
  const filled = last.replace(/\[[^\]]*\]/g, 'q').replace(/[*?]/g, 'q');
  return secretNameReason(globAbs.slice(0, slash + 1) + filled, roots) !== null;
}

/** Whether a path part holds a wildcard (* ? [). */
function hasGlobChar(part: string): boolean {
  return /[*?[]/.test(part);
}

const globCache = new Map<string, RegExp>();
export function globPartMatches(glob: string, name: string): boolean {
  if (!hasGlobChar(glob)) return glob === name;
  // Leading dots are not matched by wildcards (bash without dotglob).
  if (name.startsWith('.') && !glob.startsWith('.')) return false;
  let re = globCache.get(glob);
  if (!re) {
    let src = '^';
    for (let i = 0; i < glob.length; i++) {
      const ch = glob[i]!;
      if (ch === '*') src += '.*';
      else if (ch === '?') src += '.';
      else if (ch === '[') {
        const end = glob.indexOf(']', i + 1);
        if (end === -1) src += '\\[';
        else {
          src += '[' + glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
          i = end;
        }
      } else src += ch.replace(/[.+^${}()|\\]/g, '\\$&');
    }
    re = new RegExp(src + '$');
    globCache.set(glob, re);
  }
  return re.test(name);
}
