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
 * System files and folders the jail hides (beside the home folder's): the password hashes, host keys and
 * key stores of Linux and macOS. A path that does not exist on this system is skipped, so one list serves
 * both; on macOS the jail matches the real path (/etc is /private/etc there).
 */
export const JAIL_HIDDEN_SYSTEM_PATHS: readonly string[] = ['/etc/shadow', '/etc/gshadow', '/etc/ssh', '/root/.ssh', '/private/var/db/dslocal', '/Library/Keychains'];

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
