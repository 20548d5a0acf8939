// Where credentials live, as data every runtime can read: the classifier judges reads of these as
// `secret_read` (main/policy/paths.ts) and the jail hides them (executor/jail/plan.ts). Pure data, no
// `node:` imports: common/ is shared by every runtime.

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
 * What the jail hides from commands: every system credential file, and /etc/ssh as a whole (as it always
 * has: the host keys live there; the classifier only calls the keys themselves credential reads).
 */
export const JAIL_HIDDEN_SYSTEM_PATHS: readonly string[] = [...CREDENTIAL_SYSTEM_PATHS, '/etc/ssh'];
