// Key tools: gpg and ssh-keygen. Listing and printing keys read; decrypting, printing a private key or
// exporting secret keys read a secret; generating, signing, importing and changing keys write (a key
// written into ~/.ssh or /etc/ssh is a protected location, hence destructive); key servers are network.
import { SHELL_REACHABLE_EFFECTS } from '../../../../common/domain';
import { found, operands, optionValues, tableFor, valuesOf } from '../args';
import type { Analysis, Invocation } from '../types';
import { writeValue, type Rule } from './helpers';

/** gpg's commands that only print what its keyrings hold, or check a signature. */
const GPG_READ = ['--list-keys', '-k', '--list-public-keys', '--list-signatures', '--list-sigs', '--check-signatures', '--check-sigs', '--fingerprint',
  '--list-key', '--list-sig', '--check-sig', '--verify', '--verify-files', '--export', '--show-keys', '--show-key', '--list-packets', '--list-config',
  '--list-gcrypt-config', '--print-md', '--print-mds', '--dearmor', '--dearmour', '--enarmor', '--enarmour', '--gen-random', '--gen-prime',
  '--export-ssh-key', '--list-trustdb', '--export-ownertrust', '--card-status'];
/** Commands that decrypt or print secret keys: read, and a secret. */
const GPG_SECRET = ['--decrypt', '-d', '--decrypt-files', '--list-secret-keys', '-K', '--export-secret-keys', '--export-secret-subkeys'];
/** Commands that reach a key server or a web key directory. */
const GPG_NETWORK = ['--send-keys', '--receive-keys', '--recv-keys', '--search-keys', '--refresh-keys', '--locate-keys', '--locate-external-keys', '--fetch-keys'];
/** Options that make any command reach the network. */
const GPG_NETWORK_OPTIONS = ['--keyserver', '--auto-key-locate', '--auto-key-retrieve', '--auto-key-import'];

/**
 * The options of gpg's read commands (its --dump-options, checked against the manual): output format and
 * which keys to show. Not listed: --photo-viewer, --exec-path, --agent-program, --dirmngr-program (they
 * run programs), --options and --homedir (another configuration can name such programs), --command-file,
 * --status-file, --log-file and --attribute-file (they write files), -o/--output (judged).
 */
const GPG_OPTIONS = `${[...GPG_READ, ...GPG_SECRET].filter((o) => o.startsWith('--')).join(' ')} -k -K -d !-o: !--output= --help -h --version
  --warranty --dump-options -a --armor --armour --no-armor -v --verbose --no-verbose -q --quiet --batch --no-batch --yes --no --no-tty
  --no-greeting --with-colons --with-fingerprint --with-subkey-fingerprint --with-subkey-fingerprints --with-keygrip --with-secret
  --with-sig-list --with-sig-check --with-key-data --with-key-origin --with-wkd-hash --with-tofu-info --with-icao-spelling --keyid-format=
  --fixed-list-mode --fast-list-mode --legacy-list-mode --list-options= --verify-options= --export-options= --import-options= --export-filter=
  --show-keyring --no-default-keyring --keyring= --trustdb-name= --trust-model= --always-trust -u: --local-user= -r: --recipient=
  --status-fd= --logger-fd= --attribute-fd= --passphrase= --passphrase-fd= --passphrase-file= --pinentry-mode= --no-autostart --utf8-strings
  --display-charset= --charset= --compliance= --openpgp --rfc4880 --ignore-time-conflict --ignore-valid-from --skip-verify --list-only
  --try-all-secrets --try-secret-key= --no-use-embedded-filename --use-embedded-filename --mimemode --textmode --no-textmode --show-session-key
  --show-notation --no-show-notation --no-symkey-cache --no-permission-warning --no-secmem-warning --unwrap --request-origin= --dry-run`;

const gpg: Rule = {
  names: ['gpg', 'gpg2'],
  base: 'read',
  effects: ['file_read'],
  what: 'signs, encrypts and manages keys',
  readsArgs: false,
  checksOwnOptions: true,
  conventions: { info: ['-h'] },
  analyze(inv, a) {
    judgeGpg(inv, a);
  },
  match: ['gpg --list-keys', 'gpg -k', 'gpg --verify doc.txt.sig doc.txt', 'gpg --fingerprint alice'],
  notMatch: ['gpg --full-generate-key', 'gpg --symmetric doc.txt', 'gpg --import key.asc', 'gpg -d doc.txt.gpg', 'gpg --list-options show-photos -k', 'gpg --export-secret-keys -a alice', 'gpg -o ~/.bashrc -d x.gpg',
    'gpg --output ~/.bashrc -d x.gpg', 'gpg --recv-keys 0xABCD', 'gpg --keyserver hkps://keys.example.com -k', 'gpg --delete-secret-keys alice'],
};

function judgeGpg(inv: Invocation, a: Analysis): void {
  const argv = inv.argv;
  // Commands are options too; the first command met decides (gpg refuses two).
  const command = argv.find((x) => x.startsWith('-') && [...GPG_READ, ...GPG_SECRET, ...GPG_NETWORK].includes(x.split('=')[0]!)) ?? null;
  const network = command !== null && GPG_NETWORK.includes(command) || argv.some((x) => GPG_NETWORK_OPTIONS.includes(x.split('=')[0]!));
  if (network) a.raise('network', `gpg ${command !== null && GPG_NETWORK.includes(command) ? command : 'with a key server'} talks to a key server`, ['network']);
  if (argv.some((x) => /^--delete-secret(-and-public)?-keys?$/.test(x))) a.raise('destructive', 'gpg deletes a secret key, which cannot be recovered', ['destructive', 'file_delete']);
  const outputs = optionValues(argv, 'o', ['output']);
  for (const out of outputs) {
    if (out === '-') continue;
    a.raise('write', 'gpg writes its output to a file', ['file_write']);
    writeValue(inv, a, out);
  }
  if (command === null || GPG_NETWORK.includes(command)) {
    if (command === null) a.raise('write', 'gpg signs, encrypts, imports or changes keys', ['file_write']);
    // Signing, encrypting, importing: the files named are read (and the result written next to them).
    for (const i of operands(argv, { short: 'oruk', long: GPG_VALUED })) a.read(argv[i]!, inv.args[i]!.literal, inv.cwd);
    return;
  }
  const scan = a.options(inv, tableFor(GPG_OPTIONS), 'gpg');
  a.raise('read', GPG_SECRET.includes(command) ? `gpg ${command} prints decrypted data or secret keys` : `gpg ${command} prints keys or checks signatures`);
  if (GPG_SECRET.includes(command)) a.addEffects(['secret_read']);
  // --list-options show-photos runs the photo viewer.
  if (valuesOf(scan, '--list-options', '--verify-options').some((v) => /show-photos/.test(v))) a.raise('write', 'gpg show-photos runs a photo viewer', SHELL_REACHABLE_EFFECTS);
  // --decrypt-files and --dearmor FILE write their result next to the input.
  if (['--decrypt-files', '--dearmor', '--dearmour', '--enarmor', '--enarmour'].includes(command) && scan.operands.length && !outputs.length) {
    a.raise('write', `gpg ${command} writes its result next to each file`, ['file_write']);
  }
  for (const i of scan.operands) if (!['--list-keys', '-k', '--list-public-keys', '--list-secret-keys', '-K', '--fingerprint', '--export', '--export-secret-keys', '--export-secret-subkeys', '--list-sigs', '--list-signatures', '--check-sigs', '--check-signatures', '--export-ssh-key', '--locate-keys', '--list-key', '--print-md', '--gen-random', '--gen-prime'].includes(command)) a.read(inv.argv[i]!, inv.args[i]!.literal, inv.cwd);
  for (const f of valuesOf(scan, '--passphrase-file', '--keyring')) a.read(f, true, inv.cwd);
}

/** gpg's long options that take a value (the ones a command line commonly carries). */
const GPG_VALUED = ['output', 'recipient', 'local-user', 'default-key', 'keyserver', 'homedir', 'options', 'keyring', 'trust-model', 'cipher-algo',
  'digest-algo', 'compress-algo', 'passphrase', 'passphrase-fd', 'passphrase-file', 'pinentry-mode', 'status-fd', 'logger-fd', 'keyid-format',
  'list-options', 'export-options', 'import-options', 'keyserver-options', 'comment', 'set-filename', 'hidden-recipient', 'encrypt-to', 'sender',
  'trusted-key', 'default-new-key-algo', 'compliance', 'log-file', 'status-file', 'command-file', 'command-fd', 'photo-viewer', 'exec-path'];

/** ssh-keygen's options, each letter with whether it takes a value (its usage). */
const SSH_KEYGEN_OPTIONS = `-A -a: -B -b: -C: -c -D: -E: -e -F: -f: -g -H -h -I: -i -K -k -L -l -M: -m: -N: -n: -O: -P: -p -Q -q -R: -r: -s: -t: -U -u -V: -v -w: -Y: -y -Z: -z:`;

const sshKeygen: Rule = {
  names: ['ssh-keygen'],
  base: 'read',
  effects: ['file_read'],
  what: 'makes and inspects SSH keys',
  readsArgs: false,
  checksOwnOptions: true,
  analyze(inv, a) {
    judgeSshKeygen(inv, a);
  },
  match: ['ssh-keygen -l -f key.pub', 'ssh-keygen -F example.com -f known_hosts'],
  notMatch: ['ssh-keygen -t ed25519 -f ./deploy_key -N ""', 'ssh-keygen', 'ssh-keygen -t rsa -b 4096', 'ssh-keygen -R example.com', 'ssh-keygen -f ~/.ssh/id_ed25519 -p', 'ssh-keygen -y -f ~/.ssh/id_rsa', 'ssh-keygen -A', 'ssh-keygen -D ./evil.so'],
};

function judgeSshKeygen(inv: Invocation, a: Analysis): void {
  const scan = a.options(inv, tableFor(SSH_KEYGEN_OPTIONS), 'ssh-keygen');
  const has = (...o: string[]) => found(scan, ...o);
  const files = valuesOf(scan, '-f');
  const knownHosts = files.length ? files : ['~/.ssh/known_hosts'];
  const sign = valuesOf(scan, '-Y')[0];
  if (has('-D') || valuesOf(scan, '-w').length) a.raise('write', 'ssh-keygen loads a PKCS#11 or FIDO provider library, which runs its code', SHELL_REACHABLE_EFFECTS);
  // Only print: fingerprints, public halves, certificates, known_hosts lookups, key conversions, DNS records.
  if (has('-l', '-y', '-L', '-B', '-e', '-i', '-F', '-r', '-Q') || (sign !== undefined && sign !== 'sign')) {
    a.raise('read', 'ssh-keygen prints keys, fingerprints or known hosts');
    if (has('-H') && !has('-F')) {
      a.raise('write', 'ssh-keygen -H rewrites known_hosts hashed', ['file_write']);
      for (const f of knownHosts) a.write(f, true, inv.cwd);
    }
    for (const f of [...files, ...valuesOf(scan, '-s')]) a.read(f, true, inv.cwd);
    if (has('-y') && !files.length) a.read('~/.ssh/id_rsa', true, inv.cwd);
    for (const i of scan.operands) a.read(inv.argv[i]!, inv.args[i]!.literal, inv.cwd);
    return;
  }
  if (valuesOf(scan, '-R').length || has('-H')) {
    a.raise('write', 'ssh-keygen rewrites a known_hosts file', ['file_write']);
    for (const f of knownHosts) a.write(f, true, inv.cwd);
    return;
  }
  if (has('-A')) {
    a.raise('write', 'ssh-keygen -A writes the host keys', ['file_write']);
    a.write(`${valuesOf(scan, '-f')[0] ?? ''}/etc/ssh/ssh_host_ed25519_key`, true, inv.cwd);
    return;
  }
  if (sign === 'sign' || valuesOf(scan, '-s').length || has('-k') || valuesOf(scan, '-M').length) {
    a.raise('write', 'ssh-keygen writes signatures, certificates, revocation lists or moduli', ['file_write']);
    for (const i of scan.operands) a.write(inv.argv[i]!, inv.args[i]!.literal, inv.cwd);
    for (const f of files) if (has('-k')) a.write(f, true, inv.cwd);
    for (const f of [...valuesOf(scan, '-s'), ...(sign === 'sign' ? files : [])]) a.read(f, true, inv.cwd);
    return;
  }
  // Generating a key (the default), changing a passphrase or comment (-p, -c), downloading FIDO keys (-K):
  // the key file is written; without -f it is ~/.ssh/id_<type>.
  const type = valuesOf(scan, '-t')[0] ?? 'ed25519';
  a.raise('write', has('-p', '-c') ? 'ssh-keygen changes a key file' : 'ssh-keygen writes a new key', ['file_write']);
  for (const f of files.length ? files : [has('-K') ? '.' : `~/.ssh/id_${type.replace(/-cert.*$/, '')}`]) a.write(f, true, inv.cwd);
}

export const keyRules: Rule[] = [gpg, sshKeygen];
