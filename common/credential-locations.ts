// Where credentials live and which workspace paths hold code that runs outside the jail: one list for the
// classifier (main/policy/paths.ts) and for both jails (executor/jail: bubblewrap on Linux, Seatbelt on
// macOS). Pure data and string functions: no Node built-ins, so every layer may import it.

/** Home-relative directories and files that hold credentials. */
export const CREDENTIAL_HOME_PATHS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gh',
  '.config/gcloud',
  '.config/hub',
  '.config/git/credentials',
  '.git-credentials',
  '.netrc',
  '.pgpass',
  '.my.cnf',
  '.npmrc',
  '.pypirc',
  '.docker/config.json',
  '.kube',
  '.password-store',
  '.local/share/keyrings',
  '.mozilla',
  '.thunderbird',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
  'Library/Keychains',
  'Library/Cookies',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Safari',
  '.config/threshold',
  '.local/share/threshold',
];

/**
 * System files and folders that hold credentials, each with what it holds. A path is on the list when it
 * is, or is inside, one of these; `/etc/passwd` and `/etc/group` are not (they hold no secrets and every
 * user may read them).
 */
export const CREDENTIAL_SYSTEM_LOCATIONS: readonly { path: string; holds: string }[] = [
  { path: '/etc/shadow', holds: 'password hashes of every account' },
  { path: '/etc/shadow-', holds: 'the backup of /etc/shadow' },
  { path: '/etc/gshadow', holds: 'group password hashes' },
  { path: '/etc/gshadow-', holds: 'the backup of /etc/gshadow' },
  { path: '/etc/security/opasswd', holds: 'old password hashes (pam_pwhistory)' },
  { path: '/etc/master.passwd', holds: 'password hashes (BSD, macOS)' },
  { path: '/etc/spwd.db', holds: 'the password hash database (BSD)' },
  { path: '/private/etc/master.passwd', holds: 'password hashes (macOS)' },
  { path: '/var/db/dslocal', holds: "macOS's local directory with password hashes" },
  { path: '/etc/sudoers', holds: 'who may become root, and how' },
  { path: '/etc/sudoers.d', holds: 'who may become root, and how' },
  // The host's private keys, not /etc/ssh as a whole: ssh_config and the global known_hosts are ordinary files.
  ...['rsa', 'dsa', 'ecdsa', 'ed25519', 'ecdsa_sk', 'ed25519_sk'].map((t) => ({ path: `/etc/ssh/ssh_host_${t}_key`, holds: 'an SSH host private key' })),
  { path: '/root/.ssh', holds: "root's SSH keys" },
  { path: '/var/lib/sss', holds: "SSSD's cached credentials" },
  { path: '/etc/krb5.keytab', holds: 'Kerberos service keys' },
  { path: '/etc/ssl/private', holds: 'TLS private keys' },
  { path: '/etc/pki/tls/private', holds: 'TLS private keys' },
  { path: '/etc/letsencrypt', holds: "certificates' private keys" },
  { path: '/etc/NetworkManager/system-connections', holds: 'Wi-Fi and VPN passwords' },
  { path: '/etc/wpa_supplicant', holds: 'Wi-Fi passwords' },
  { path: '/etc/ipsec.secrets', holds: 'IPsec keys' },
  { path: '/etc/ppp/chap-secrets', holds: 'PPP passwords' },
  { path: '/etc/ppp/pap-secrets', holds: 'PPP passwords' },
  { path: '/var/lib/samba/private', holds: 'Samba password hashes' },
  { path: '/var/lib/bluetooth', holds: 'Bluetooth pairing keys' },
];

export const CREDENTIAL_SYSTEM_PATHS: readonly string[] = CREDENTIAL_SYSTEM_LOCATIONS.map((l) => l.path);

/**
 * What the jails hide from commands: every system credential file, /etc/ssh as a whole (the host keys
 * live there; the classifier calls only the keys themselves credential reads), and macOS's key stores. A
 * path that does not exist on this system is skipped, so one list serves both; on macOS the jail matches
 * the real path (/etc is /private/etc there).
 */
export const JAIL_HIDDEN_SYSTEM_PATHS: readonly string[] = [...new Set([...CREDENTIAL_SYSTEM_PATHS, '/etc/ssh', '/private/var/db/dslocal', '/Library/Keychains'])];

// ── Hidden home entries (the jail's view of the home folder) ────────────────────────────────────────
// Credential files are too many to list, so the jail turns it around: every dot-entry of the home folder
// and ~/Library (where macOS keeps each application's data, cookies and keychains) is hidden, except the
// short list below, the workspace, and what the user granted. The classifier asks before reading any of
// them, so the card says why. executor/jail/plan.ts builds the jail's view from the same list.

/** Home-relative paths the jail leaves visible, each with the reason it is safe and needed. */
export const HOME_VISIBLE: readonly { path: string; why: string }[] = [
  { path: '.gitconfig', why: "git needs the user's name and e-mail to commit; hidden after all when it carries a credential (a token in a URL, an extraheader)" },
  { path: '.config/git/config', why: 'the same file at its XDG location' },
  { path: '.config/git/ignore', why: 'global ignore patterns: no secrets, and without them git status lists editor files' },
  { path: '.config/git/attributes', why: 'global attributes (line endings, diff drivers by name): no secrets' },
  { path: '.cargo/bin', why: "Rust's tools and rustup's proxies; the rest of ~/.cargo stays hidden (credentials.toml holds the crates.io token)" },
  { path: '.rustup', why: 'Rust toolchains and their settings: no credentials' },
  { path: '.nvm', why: 'Node.js versions installed by nvm: no credentials' },
  { path: '.pyenv', why: 'Python versions and shims installed by pyenv: no credentials' },
  { path: '.rbenv', why: 'Ruby versions and shims installed by rbenv: no credentials' },
  { path: '.sdkman/candidates', why: 'JDKs and build tools installed by SDKMAN!: no credentials' },
  { path: '.local/bin', why: 'programs the user installed for themselves (pip --user, pipx): no credentials' },
  { path: '.local/lib', why: "Python's per-user packages (site-packages): no credentials" },
  { path: '.bun/bin', why: "Bun's binary and globally installed tools; ~/.bun's install cache stays hidden" },
  { path: '.deno/bin', why: 'Deno and tools installed with deno install' },
];

/**
 * Workspace files whose content later runs OUTSIDE the jail (git hooks and config, direnv, editor tasks).
 * Writing one is a capability change: it can plant code the user runs unconfined.
 */
export const OUTSIDE_JAIL_CODE_PATHS: readonly string[] = [
  '.git/hooks', '.git/config', '.git/info', '.git/modules', '.envrc', '.vscode', '.idea', '.husky', '.devcontainer',
  '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', '.gitmodules',
];

export function isInside(path: string, dir: string): boolean {
  if (dir === '/') return path.startsWith('/');
  return path === dir || within(path, dir);
}

/** path is below dir (`dir/…`), without building the prefix string. */
export function within(path: string, dir: string): boolean {
  return path.length > dir.length && path.charCodeAt(dir.length) === 47 && path.startsWith(dir);
}
