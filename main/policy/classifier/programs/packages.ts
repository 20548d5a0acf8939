// Package managers and build tools. Local installs reach the network; global and OS-level installs
// and removals change the machine (install class); running project scripts can do anything.
import { SHELL_REACHABLE_EFFECTS, type Class, type Effect } from '../../../../common/domain';
import { hasLong, hasShort, operands, valuesOf } from '../args';
import type { Analysis, Invocation } from '../types';
import type { ProgramConventions } from '../types';
import { subcommandClass, type Rule, type SubcommandClass } from './helpers';
import { CRATES_HOSTS, GO_HOSTS, nodeRegistryTargets, pipIndexTargets, PYPI_HOSTS } from '../network/uses';
import type { HostTarget } from '../network/types';

function download(a: Analysis, hosts: readonly HostTarget[], reason: string): void {
  a.network({ kind: 'download', hosts: [...hosts], reason });
}

function upload(a: Analysis, hosts: readonly HostTarget[], reason: string): void {
  a.network({ kind: 'upload', hosts: [...hosts], reason });
}

const CONDA_HOSTS: readonly HostTarget[] = [{ host: 'conda.anaconda.org', port: 443 }, { host: 'repo.anaconda.com', port: 443 }];
const RUBYGEMS_HOSTS: readonly HostTarget[] = [{ host: 'rubygems.org', port: 443 }, { host: 'index.rubygems.org', port: 443 }];
const unknownHost = (why: string): HostTarget[] => [{ host: null, why }];

function sub(inv: Invocation, withValue: { short?: string; long?: readonly string[] } = {}): { name: string | undefined; index: number; rest: string[] } {
  const ops = operands(inv.argv, withValue);
  const index = ops.length ? ops[0]! : -1;
  return { name: index === -1 ? undefined : inv.argv[index], index, rest: index === -1 ? [] : inv.argv.slice(index + 1) };
}

function say(a: Analysis, cls: Class, why: string, effects: readonly Effect[] = []): void {
  a.raise(cls, why, effects);
}


type SubTable = Readonly<Record<string, SubcommandClass | readonly SubcommandClass[]>>;
const R = (why: string, extra: Partial<SubcommandClass> = {}): SubcommandClass => ({ cls: 'read', why, ...extra });
const W = (why: string, extra: Partial<SubcommandClass> = {}): SubcommandClass => ({ cls: 'write', why, effects: ['file_write'], ...extra });
const N = (why: string, extra: Partial<SubcommandClass> = {}): SubcommandClass => ({ cls: 'network', why, effects: ['network'], ...extra });
const I = (why: string, extra: Partial<SubcommandClass> = {}): SubcommandClass => ({ cls: 'install', why, effects: ['install', 'network', 'file_write'], ...extra });
const D = (why: string, extra: Partial<SubcommandClass> = {}): SubcommandClass => ({ cls: 'destructive', why, effects: ['destructive'], ...extra });

/**
 * Subcommands judged from their documentation, as data, before a rule's general judgement: what only
 * reads (its options are still checked), what reaches the network, installs, or changes start-up files.
 */
const SUBCOMMANDS: Readonly<Record<string, SubTable>> = {
  bun: {
    a: N('adds a dependency from the registry'), c: N('creates a project from a template it downloads'), create: N('creates a project from a template it downloads'),
    init: N('creates a project and installs its first dependencies'), feedback: N('sends text and files to the Bun team, an upload'),
    upgrade: I('replaces the Bun installation with a downloaded release'), 'pm whoami': N('asks the registry who is signed in'), 'pm scan': N('sends the dependency list to a security scanner'),
    'pm bin': R('prints the bin folder'), 'pm ls': R('lists dependencies'), 'pm list': R('lists dependencies'), 'pm hash': R('prints the lockfile hash'),
    'pm hash-string': R('prints the lockfile hash input'), 'pm hash-print': R('prints the stored lockfile hash'), 'pm cache': R('prints the cache folder', { alone: true }),
    'pm default-trusted': R('lists trusted packages'), 'pm untrusted': R('lists untrusted packages'), 'pm pkg get': R('reads package.json'),
    'pm version': R('prints the package version', { alone: true }), why: R('explains why a package is installed'),
    remove: [R('only shows what it would remove', { when: ['--dry-run'] })], link: [R('only shows what it would link', { when: ['--dry-run'] })],
    unlink: [R('only shows what it would unlink', { when: ['--dry-run'] })],
  },
  npm: {
    'cache ls': R('lists cache entries'), 'cache npx ls': R('lists cached npx packages'), completion: R('prints a completion script'), 'pkg get': R('reads package.json'),
    prune: [R('only lists what it would remove', { when: ['--dry-run'] })], run: R('lists the scripts', { alone: true }), 'run-script': R('lists the scripts', { alone: true }),
    version: R('prints the versions', { alone: true }),
    'cache add': N('downloads a package into the cache'), diff: N('compares with packages from the registry'), fund: [R('lists funding links', { alone: true }), N('opens a funding page in the browser')] },
  corepack: { enable: I("adds package-manager shims to Node's installation"), disable: I("removes package-manager shims from Node's installation"), install: I('installs a package manager'), prepare: N('downloads a package manager'), hydrate: W('unpacks a package manager into its cache'), npm: N('downloads and runs npm'), pnpm: N('downloads and runs pnpm'), yarn: N('downloads and runs yarn') },
  uv: {
    'python install': I('installs a Python version'), 'python uninstall': I('removes an installed Python version'), 'python list': R('lists Python versions'), 'python find': R('finds a Python'),
    'python dir': R('prints where Python versions are kept'), 'self update': I('replaces uv with a downloaded release'), 'self version': R('prints its version'),
    tree: [N('asks the index for newer versions', { when: ['--outdated'] })], help: R('prints help'), 'cache dir': R('prints the cache folder'),
    version: [R('prints the project version', { alone: true }), R('shows the bump it would make', { when: ['--dry-run'] })],
    'pip list': [R('lists installed packages', { when: ['!--outdated'] })], 'pip show': R('shows installed packages'), 'pip freeze': R('lists installed packages'), 'pip tree': [R('shows the dependency tree', { when: ['!--outdated'] })],
    'pip check': R('checks installed packages'), 'tool list': R('lists installed tools'), 'tool dir': R('prints the tools folder'), 'lock': [R('checks that the lockfile exists', { when: ['--check-exists'] })],
  },
  poetry: {
    'python install': I('installs a Python version'), 'python remove': I('removes a Python version'), 'python list': R('lists Python versions'),
    'self add': I("adds a plugin to Poetry's own environment"), 'self install': I("installs Poetry's own dependencies"), 'self remove': I("removes a plugin from Poetry's environment"),
    'self sync': I("syncs Poetry's own environment"), 'self update': I('replaces Poetry with a newer release'), 'self show': R("lists Poetry's own packages"), 'self lock': W("locks Poetry's own dependencies"),
    show: [N('asks the index for newer versions', { when: ['--outdated'] }), N('asks the index for the latest versions', { when: ['-l'] }), N('asks the index for the latest versions', { when: ['--latest'] })],
    'env info': R('shows the environment'), 'env list': R('lists environments'), 'env activate': R('prints the activation command'), about: R('prints information'), list: R('lists commands'),
    check: R('checks pyproject.toml'), 'debug info': R('prints debug information'), 'debug tags': R('prints packaging tags'), 'debug resolve': N('resolves dependencies from the index'),
    'config --list': R('lists settings'), 'source show': R('shows package sources'), 'cache list': R('lists caches'),
    config: [R('lists settings', { when: ['--list'] })],
    remove: [R('only shows what it would remove', { when: ['--dry-run'] })], version: [R('prints the project version', { when: ['--short'] }), R('prints the project version', { alone: true }), R('shows the bump it would make', { when: ['--dry-run'] })],
  },
  conda: {
    init: D("writes conda's start-up code into shell start-up files (~/.bashrc, ~/.zshrc)", { effects: ['destructive', 'file_write'] }),
    'update conda': I('updates conda itself'), info: R('prints information'), doctor: R('checks an environment'), compare: R('compares environments'),
    'env list': R('lists environments'), 'env export': R('prints an environment', { when: ['!--file', '!-f'] }), export: R('prints an environment', { when: ['!--file', '!-f'] }),
    'env config vars list': R('lists environment variables'), 'package --which': R('finds packages of files'), notices: N('fetches notices from its channels'),
    config: [R('prints settings', { when: ['--show'] }), R('describes settings', { when: ['--describe'] }), R('prints where settings come from', { when: ['--show-sources'] })],
    package: [R('finds packages of files', { when: ['--which'] }), R('lists files no package owns', { when: ['--untracked'] })],
    search: [R('searches installed environments', { when: ['--envs'] }), N('searches its channels')], repoquery: N('queries its channels'),
  },
  mamba: { init: D("writes mamba's start-up code into shell start-up files", { effects: ['destructive', 'file_write'] }), repoquery: N('queries its channels'), search: N('searches its channels') },
  micromamba: { 'shell init': D('writes start-up code into shell start-up files', { effects: ['destructive', 'file_write'] }), repoquery: N('queries its channels'), search: N('searches its channels') },
  pipx: { 'upgrade-all': I('upgrades every installed application'), 'reinstall-all': I('reinstalls every installed application'), 'uninstall-all': I('removes every installed application'), inject: I('adds packages to an installed application'), list: R('lists installed applications') },
  cargo: {
    binstall: I('installs a crate binary for the user'), 'install-update': I('updates installed crate binaries'), 'deb --install': I('builds a Debian package and installs it'),
    deb: [I('installs the package it builds', { when: ['--install'] })], 'msrv show': R('prints the minimum Rust version the manifest declares'), 'msrv list': R('lists the minimum Rust versions of the dependencies'),
    msrv: [I('installs toolchains to try', { when: [] })], report: R('prints a report'), pkgid: R('prints the package id'),
    install: [R('lists installed crates', { when: ['--list'] })], metadata: [R('prints the workspace metadata (without dependencies, nothing to resolve)', { when: ['--no-deps'] })],
    package: [R('lists the files it would package', { when: ['--list'] }), R('lists the files it would package', { when: ['-l'] })],
  },
  sdk: { list: N('asks the SDKMAN! service for versions'), current: R('prints the versions in use'), version: R('prints its version') },
  asdf: { 'list all': N('asks the plugin for every version online'), 'plugin list all': N('fetches the list of plugins'), current: R('prints the versions in use') },
  mise: { 'ls-remote': N('asks for the versions online'), use: I('installs the tool version it sets (if missing)'), 'plugins list-all': N('fetches the list of plugins') },
  dnf: { 'config-manager': [R('prints the repository configuration', { when: ['--dump'] })], versionlock: R('lists version locks', { alone: true }), 'versionlock list': R('lists version locks'),
    search: N('searches the repositories (refreshing their metadata)'), provides: N('searches the repositories'), info: N('queries the repositories'), if: N('queries the repositories'), changelog: N('fetches changelogs'), repoquery: N('queries the repositories') },
  paru: {}, yay: {},
  meson: { install: [I('installs the build into the system', { when: ['!--destdir'] })] },
  cmake: { '--install': [I('installs the build (into /usr/local unless --prefix says otherwise)', { when: ['!--prefix'] })] },
  lerna: { bootstrap: N("installs the packages' dependencies"), publish: D('publishes packages to a public registry, which cannot be undone', { effects: ['network', 'destructive'] }) },
  turbo: { login: N('signs in to Vercel'), link: N('links the repository to Vercel'), unlink: W('removes the Vercel link') },
  mkdocs: { 'gh-deploy': N('pushes the built site to GitHub Pages') },
  dotnet: {
    'tool install': [I('installs a tool for the user', { when: ['--global'] }), I('installs a tool for the user', { when: ['-g'] }), N('installs a tool into the project')],
    'tool update': [I('updates a tool for the user', { when: ['--global'] }), I('updates a tool for the user', { when: ['-g'] }), N('updates a project tool')],
    'tool uninstall': [I('removes a tool for the user', { when: ['--global'] }), I('removes a tool for the user', { when: ['-g'] }), W('removes a project tool')],
    'tool restore': N('installs the tools the manifest names'), 'tool search': N('searches NuGet'), 'tool list': R('lists installed tools'),
  },
  elm: { install: N('downloads a package') },
  composer: { 'self-update': I('replaces Composer with a downloaded release'), selfupdate: I('replaces Composer with a downloaded release') },
  vsce: { list: N("lists a publisher's extensions online"), show: N('shows an extension from the marketplace'), unpublish: D('removes an extension from the marketplace, which cannot be undone', { effects: ['network', 'destructive'] }) },
  'pre-commit': { autoupdate: N('fetches the newest hook versions') },
  typst: { init: N('creates a project from a template it downloads'), fonts: R('lists the fonts it finds') },
  'golangci-lint': { linters: R('lists the linters'), help: R('prints help'), version: R('prints its version'), 'config path': R('prints the configuration path'), 'config verify': R('checks the configuration') },
  opam: { help: R('prints help') },
  hatch: { 'dep show': R('shows the dependencies'), 'dep hash': R('prints the dependency hash'), 'env show': R('shows the environments'), 'project metadata': R('prints the project metadata'), status: R('prints the project status'), version: R('prints the project version', { alone: true }) },
  zig: { 'translate-c': R('translates C to Zig, printing the result'), version: R('prints its version'), env: R('prints its environment'), targets: R('lists targets'), help: R('prints help') },
  zypper: { lr: R('lists repositories'), repos: R('lists repositories'), ll: R('lists package locks'), locks: R('lists package locks'), lu: N('refreshes the repositories to list updates'), se: N('searches the repositories'), search: N('searches the repositories') },
  snap: { changes: R('lists recent changes'), tasks: R('lists the tasks of a change'), connections: R('lists interface connections'), services: R('lists services'), aliases: R('lists aliases'), version: R('prints versions') },
  apt: { moo: R('prints a cow') },
  pip: { lock: N('resolves the dependencies from the package index'), 'cache dir': R('prints the cache folder'), 'cache list': R('lists cached wheels'), 'cache info': R('prints cache information'), hash: R('prints the hashes of package files') },
  // ar's key letters: t lists the members, p prints them.
  ar: { t: R('lists the members of an archive'), tv: R('lists the members of an archive'), vt: R('lists the members of an archive'), p: R('prints the members of an archive') },
  // Version managers: what they list from the definitions they hold, and their help.
  pyenv: {
    commands: R('lists its commands'), virtualenvs: R('lists virtual environments'), versions: R('lists installed versions'), version: R('prints the version in use'),
    'version-name': R('prints the version in use'), 'version-file': R('prints the file that sets the version'), root: R('prints its folder'), prefix: R('prints a version folder'),
    which: R('prints the path of a command'), whence: R('lists the versions that have a command'), help: R('prints help'),
    install: [R('lists the versions it can build (from the definitions it holds)', { when: ['--list'] }), R('lists the versions it can build (from the definitions it holds)', { when: ['-l'] })],
  },
  rbenv: {
    commands: R('lists its commands'), versions: R('lists installed versions'), version: R('prints the version in use'), 'version-name': R('prints the version in use'),
    root: R('prints its folder'), prefix: R('prints a version folder'), which: R('prints the path of a command'), whence: R('lists the versions that have a command'), help: R('prints help'),
    install: [R('lists the versions it can build (from the definitions it holds)', { when: ['--list'] }), R('lists the versions it can build (from the definitions it holds)', { when: ['-l'] }),
      R('lists the versions it can build (from the definitions it holds)', { when: ['--list-all'] }), R('lists the versions it can build (from the definitions it holds)', { when: ['-L'] })],
  },
  // rustup: listing what is installed, help, completions; `rustup run` is judged by the command it runs.
  rustup: {
    help: R('prints help'), completions: R('prints a completion script'), 'component list': R('lists components'), 'target list': R('lists targets'),
    'toolchain list': R('lists installed toolchains'), 'override list': R('lists directory overrides'), man: R('shows the manual page of a toolchain command'),
    which: R('prints the path of a toolchain command'),
  },
  brew: {
    info: [R('prints a summary of what is installed', { alone: true }), R('prints installed packages', { when: ['--installed'] })], tap: R('lists taps', { alone: true }),
    services: R('lists services', { alone: true }), 'services list': R('lists services'), 'services info': R('shows services'), 'bundle list': R('lists the Brewfile entries'),
    'bundle check': R('checks whether the Brewfile is satisfied'),
  },
  volta: { help: R('prints help'), list: R('lists installed tools'), ls: R('lists installed tools'), which: R('prints the path of a tool') },
  flatpak: {
    list: R('lists installed applications'), info: R('shows an installed application'), remotes: R('lists the configured remotes'), history: R('prints the history'),
    ps: R('lists running applications'), documents: R('lists exported documents'), permissions: R('lists permissions'), mask: R('lists masked updates', { alone: true }),
    pin: R('lists pinned runtimes', { alone: true }), search: N('searches the remotes'), 'remote-ls': N('lists what a remote offers'), 'remote-info': N('shows an application of a remote'),
  },
};

/** Applies a subcommand table entry; true when one matched (read entries still check their options). */
function bySubcommand(inv: Invocation, a: Analysis, readOptions: string | null, valued: { short?: string; long?: readonly string[] } = {}): boolean {
  const table = SUBCOMMANDS[inv.name];
  if (!table) return false;
  const hit = subcommandClass(inv, table, valued);
  if (!hit) return false;
  say(a, hit.cls, `${inv.name} ${hit.path} ${hit.why}`, hit.effects ?? []);
  if (hit.cls === 'read') {
    if (readOptions !== null) a.options(inv, readOptions, `${inv.name} ${hit.path}`);
  } else if (hit.cls === 'network' || hit.cls === 'install') {
    download(a, unknownHost(`${inv.name} ${hit.path} reaches hosts its configuration names`), `${inv.name} ${hit.path} ${hit.why}`);
  }
  return true;
}

const NODE_INSTALL = new Set(['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isntall', 'add', 'ci', 'clean-install', 'install-clean', 'update', 'up', 'upgrade', 'udpate', 'uninstall', 'remove', 'rm', 'r', 'un', 'unlink', 'dedupe', 'ddp', 'prune', 'link', 'ln', 'rebuild', 'rb', 'install-test', 'it', 'install-ci-test', 'cit', 'audit', 'outdated', 'import']);
const NODE_READ = new Set(['ls', 'list', 'll', 'la', 'explain', 'why', 'fund', 'root', 'prefix', 'bin', 'help', 'help-search', 'config-get', 'version-dry', 'query', 'sbom', 'licenses']);
const NODE_NETWORK_READ = new Set(['view', 'info', 'show', 'v', 'search', 's', 'se', 'find', 'outdated', 'ping', 'whoami', 'doctor', 'access', 'owner', 'team', 'org', 'dist-tag', 'hook', 'profile', 'token', 'star', 'stars', 'unstar', 'repo', 'docs', 'bugs', 'home']);
/** Registry commands that can change something there (owners, tags, tokens, stars, hooks). */
const NODE_REGISTRY_CHANGES = new Set(['access', 'owner', 'team', 'org', 'dist-tag', 'hook', 'profile', 'token', 'star', 'unstar']);
const NODE_SCRIPTS = new Set(['run', 'run-script', 'rum', 'urn', 'test', 't', 'tst', 'start', 'stop', 'restart', 'exec', 'x', 'dlx', 'create', 'init', 'innit', 'version', 'pack', 'publish-dry', 'why-dry']);

/** Options of the read subcommands (ls, explain, why, config get …); --userconfig, --script-shell, --node-options are not listed. */
const NODE_READ_OPTIONS = `--json --long -l --parseable -p --all -a --depth= --top --dry-run --global -g --omit= --include= --link --package-lock-only --unicode --workspace=
  -w: --workspaces --include-workspace-root --prefix= --silent -s --loglevel= --color? --no-color --dev -D --prod -P --recursive -r
  --filter= --only= --production --location= --help -h --version -v --quiet -q --expand-versions? --no-expand-versions`;

const nodePackageManagers: Rule = {
  names: ['npm', 'pnpm', 'yarn', 'bun', 'corepack'],
  base: 'read',
  effects: [],
  what: 'manages JavaScript packages',
  // yarn (berry) runs the release file the project's .yarnrc.yml names even for --version.
  conventions: {
    byName: {
      yarn: { noInfo: "yarn runs the release file the project's .yarnrc.yml names (yarnPath), even for --version" },
      // npm reads --help as its own setting before running any command: `npm exec --help` prints the usage of exec.
      npm: { info: ['-v', '-h'], subcommandHelp: { depth: 1 } },
      // bun runs a package script or file of that name when no built-in command has it: only the built-ins.
      corepack: { info: ['-v', '-h'], subcommandHelp: { depth: 1, only: ['enable', 'disable', 'install', 'prepare', 'pack', 'up', 'use', 'cache', 'status', 'hydrate'] } },
      bun: { info: ['-v', '-h'], subcommandHelp: { depth: 1, only: ['add', 'remove', 'rm', 'install', 'i', 'update', 'outdated', 'link', 'unlink', 'pm', 'publish', 'init', 'upgrade', 'build', 'patch', 'audit', 'info', 'why', 'test'] } },
      '*': { info: ['-v', '-h'] },
    },
  },
  readsArgs: false,
  options: NODE_READ_OPTIONS,
  checksOwnOptions: true,
  analyze(inv, a) {
    // bun exec "CODE" runs CODE with Bun's shell (a bash-like language): judged as shell code.
    if (inv.name === 'bun' && inv.argv[0] === 'exec' && inv.argv.length === 2) {
      say(a, 'read', "bun exec runs a command line with Bun's shell");
      a.runCode(inv.args[1]!, 'bun exec');
      return;
    }
    if (bySubcommand(inv, a, NODE_READ_OPTIONS, { long: ['prefix', 'workspace', 'filter', 'cwd', 'dir', 'C'], short: 'wC' })) return;
    const { name, rest } = sub(inv, { long: ['prefix', 'workspace', 'filter', 'cwd', 'dir', 'C'], short: 'wC' });
    const locationGlobal = inv.argv.some((x, i) => x === '--location=global' || (x === '--location' && inv.argv[i + 1] === 'global'));
    const global = hasShort(inv.argv, 'g') || inv.argv.includes('--global') || locationGlobal || (inv.name === 'yarn' && name === 'global');
    if (name === undefined) {
      if (inv.name === 'yarn' || inv.name === 'bun') {
        say(a, 'network', `${inv.name} with no command installs dependencies`, ['network', 'file_write']);
        download(a, nodeRegistryTargets(inv, a.files, inv.cwd), `${inv.name} downloads packages from its registries`);
      }
      a.options(inv, NODE_READ_OPTIONS, inv.name);
      return;
    }
    if (name === 'publish' || name === 'unpublish' || name === 'deprecate' || (inv.name === 'yarn' && name === 'npm' && ['publish', 'tag'].includes(rest[0] ?? ''))) {
      say(a, 'destructive', `${inv.name} ${name} changes a package on the public registry, which cannot be undone`, ['network', 'destructive']);
      return;
    }
    if (name === 'config' || name === 'c' || name === 'set' || name === 'get') {
      const verb = name === 'set' ? 'set' : rest[0];
      if (verb === 'set' || verb === 'delete' || verb === 'edit' || verb === 'fix') {
        say(a, 'destructive', `${inv.name} config ${verb} changes ~/.npmrc, which holds registry credentials`, ['file_write', 'destructive']);
      } else {
        say(a, 'read', `${inv.name} config reads settings`);
        a.options(inv, NODE_READ_OPTIONS, inv.name);
      }
      return;
    }
    if (name === 'login' || name === 'adduser' || name === 'logout') {
      say(a, 'network', `${inv.name} ${name} changes registry credentials`, ['network', 'secret_read', 'file_write']);
      upload(a, nodeRegistryTargets(inv, a.files, inv.cwd), `${inv.name} ${name} sends credentials to the registry`);
      return;
    }
    if (NODE_INSTALL.has(name) || (inv.name === 'yarn' && name === 'global')) {
      if (global) say(a, 'install', `${inv.name} ${name} -g changes globally installed packages`, ['network', 'install', 'file_write']);
      else if (name === 'link' && rest.filter((x) => !x.startsWith('-')).length === 0) say(a, 'install', `${inv.name} link without a package links this package globally`, ['install', 'file_write']);
      else {
        say(a, 'network', `${inv.name} ${name} downloads packages into the project (and runs their install scripts)`, ['network', 'file_write', 'command_exec']);
        download(a, nodeRegistryTargets(inv, a.files, inv.cwd), `${inv.name} ${name} downloads packages from its registries`);
      }
      if (!hasLong(inv.argv, ['ignore-scripts']) && ['install', 'i', 'add', 'ci', 'rebuild', 'rb', 'update', 'up', 'upgrade'].includes(name)) {
        a.addEffects(SHELL_REACHABLE_EFFECTS);
      }
      return;
    }
    if (NODE_READ.has(name)) {
      say(a, 'read', `${inv.name} ${name} reads package information`, ['file_read']);
      a.options(inv, NODE_READ_OPTIONS, `${inv.name} ${name}`);
      return;
    }
    if (NODE_NETWORK_READ.has(name)) {
      const hosts = nodeRegistryTargets(inv, a.files, inv.cwd);
      if (NODE_REGISTRY_CHANGES.has(name)) upload(a, hosts, `${inv.name} ${name} can change settings on the registry`);
      else download(a, hosts, `${inv.name} ${name} queries the registry`);
      return say(a, 'network', `${inv.name} ${name} queries the registry`, ['network']);
    }
    if (name === 'exec' || name === 'x' || name === 'dlx' || name === 'create' || (name === 'init' && rest.some((x) => !x.startsWith('-')))) {
      say(a, 'network', `${inv.name} ${name} may download a package and runs it`, ['network']);
      download(a, nodeRegistryTargets(inv, a.files, inv.cwd), `${inv.name} ${name} downloads a package from its registries`);
      a.addEffects(SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (name === 'cache') return say(a, 'write', `${inv.name} cache changes the package cache`, ['file_write']);
    if (NODE_SCRIPTS.has(name)) {
      say(a, 'write', `${inv.name} ${name} runs project scripts, which can do anything`, SHELL_REACHABLE_EFFECTS);
      return;
    }
    // yarn <script> / bun <file> / pnpm <script>: runs a project script.
    say(a, 'write', `${inv.name} ${name} runs a project script or command, which can do anything`, SHELL_REACHABLE_EFFECTS);
  },
  match: ['npm --version', 'npm ls', 'npm explain react', 'pnpm why zod', 'npm ls --depth=0 --json'],
  notMatch: ['npm ls --userconfig=evil.npmrc', 'npm --script-shell=sh ls', 'npm install', 'npm i -g typescript', 'npm run build', 'npm test', 'yarn', 'npm publish', 'npx cowsay', 'pnpm add zod', 'npm config set registry x', 'yarn global add x'],
};

const npx: Rule = {
  names: ['npx', 'bunx', 'pnpx', 'uvx', 'pipx'],
  conventions: { byName: { npx: { info: ['-v', '-h'] }, '*': {} } },
  base: 'read',
  effects: [],
  what: 'downloads a package and runs it',
  readsArgs: false,
  // Every form downloads and runs a package except pipx's listing (pipx list).
  checksOwnOptions: true,
  analyze(inv, a) {
    if (bySubcommand(inv, a, '--json --short --include-injected --global --verbose -v --quiet -q -h --help')) return;
    say(a, 'network', `${inv.name} downloads a package and runs it`, ['network']);
    if (inv.name === 'pipx') {
      const verb = inv.argv[0];
      if (verb === 'install' || verb === 'uninstall' || verb === 'upgrade' || verb === 'inject' || verb === 'ensurepath') {
        say(a, 'install', `pipx ${verb} changes user-wide installed tools`, ['install', 'network', 'file_write']);
        return;
      }
    }
    if (inv.name === 'uvx' || inv.name === 'pipx') download(a, PYPI_HOSTS, `${inv.name} downloads a package from the Python package index`);
    else download(a, nodeRegistryTargets(inv, a.files, inv.cwd), `${inv.name} downloads a package from its registries`);
    a.addEffects(SHELL_REACHABLE_EFFECTS);
  },
  match: ['pipx list', 'pipx list --short'],
  notMatch: ['npx prettier --check .', 'uvx ruff check', 'pipx install black', 'pipx list --frob'],
};

function inVirtualEnv(inv: Invocation, rawProgram: string): boolean {
  return /(^|\/)(\.?venv|env|\.tox|\.nox|virtualenv)\//.test(rawProgram) || hasLong(inv.argv, ['target', 'prefix', 'root']) || hasShort(inv.argv, 't');
}

const PIP_READ_OPTIONS = `--help -h --version -V -v -q --verbose --quiet --format= !-o !--outdated !-u !--uptodate --not-required --user --path= --local -l
  --editable -e --exclude-editable --include-editable --exclude= -f --files --all --isolated --no-color --disable-pip-version-check
  --no-input --pre --no-python-version-warning --no-cache-dir --json -a: --algorithm= --platform= --implementation= --abi=`;

/** pip config's own options; --editor names a program (judged by the rule). */
const PIP_CONFIG_OPTIONS = `--help -h -v --verbose -q --quiet --global --user --site --isolated --no-input --no-color --disable-pip-version-check
  --no-python-version-warning !--editor=`;

const pip: Rule = {
  names: ['pip', 'pip3'],
  conventions: { info: ['-V', '-h'], subcommandHelp: { depth: 1 } },
  base: 'read',
  effects: [],
  what: 'manages Python packages',
  readsArgs: false,
  options: PIP_READ_OPTIONS,
  checksOwnOptions: true,
  analyze(inv, a) {
    if (bySubcommand(inv, a, PIP_READ_OPTIONS, { long: ['python', 'proxy', 'cert', 'index-url', 'log', 'timeout'] })) return;
    const { name } = sub(inv, { long: ['python', 'proxy', 'cert', 'index-url', 'log', 'timeout'] });
    if (name === undefined || ['list', 'show', 'freeze', 'check', 'help', 'debug', 'inspect', 'cache-dir'].includes(name)) {
      const scan = a.options(inv, PIP_READ_OPTIONS, `pip${name ? ` ${name}` : ''}`);
      if (scan.found.some((f) => ['-o', '--outdated', '-u', '--uptodate'].includes(f.name))) {
        say(a, 'network', 'pip list --outdated asks the package index', ['network']);
        download(a, pipIndexTargets(inv, a.files, null), 'pip list --outdated asks the package index');
      }
      return;
    }
    if (name === 'config') {
      // The verb is the operand after `config`, wherever the options stand (`pip config --editor X edit`).
      const scan = a.options(inv, PIP_CONFIG_OPTIONS, 'pip config');
      const verbAt = scan.operands[scan.operands.indexOf(inv.argv.indexOf('config')) + 1];
      const verb = verbAt === undefined ? undefined : inv.argv[verbAt];
      // --editor names the program pip config edit starts: its command line is judged as code.
      for (const editor of valuesOf(scan, '--editor')) {
        say(a, 'write', `pip config --editor runs ${editor}`, SHELL_REACHABLE_EFFECTS);
        a.runCode(editor, 'pip config --editor');
      }
      if (verb === 'edit') say(a, 'write', 'pip config edit opens an editor on pip.conf', SHELL_REACHABLE_EFFECTS);
      else if (verb !== 'list' && verb !== 'get' && verb !== 'debug') say(a, 'write', 'pip config changes pip settings', ['file_write']);
      return;
    }
    if (name === 'download' || name === 'wheel' || name === 'search' || name === 'index') {
      say(a, 'network', `pip ${name} downloads packages`, ['network', 'file_write']);
      download(a, pipIndexTargets(inv, a.files, null), `pip ${name} downloads from its package indexes`);
      return;
    }
    if (name === 'install' || name === 'uninstall') {
      const user = hasLong(inv.argv, ['user', 'break-system-packages']);
      if (!user && inVirtualEnv(inv, inv.rawName)) {
        say(a, 'network', `pip ${name} into a virtual environment or a local directory`, ['network', 'file_write']);
      } else {
        say(a, 'install', `pip ${name} outside a virtual environment changes the user's or the system's Python packages`, ['install', 'network', 'file_write']);
      }
      if (name === 'install') a.addEffects(SHELL_REACHABLE_EFFECTS);
      download(a, pipIndexTargets(inv, a.files, null), `pip ${name} downloads from its package indexes`);
      return;
    }
    say(a, 'write', `pip ${name} is not a pip command the classifier knows`, SHELL_REACHABLE_EFFECTS);
  },
  match: ['pip list', 'pip show requests', 'pip --version', 'pip freeze', 'pip config list', 'pip config get global.index-url'],
  notMatch: ['pip list -o', 'pip list --outdated', 'pip list -u', 'pip list --uptodate', 'pip --python=/tmp/x list', 'pip install requests', 'pip install --user black', 'pip uninstall -y x', 'pip download x'],
};

/** Options of the Python tools' read subcommands. */
const PY_READ_OPTIONS = `--help -h --version -V -q -v --quiet --verbose --json --no-color --color= --format= --tree --only= --without= --with= --all --no-dev
  --offline --directory= --project= -n: -p: --name= --prefix= --path --executable --full-path --base --envs -e --envs -a --all -s --system --explicit
  --md5 --no-pip --short --show --describe --which --untracked --managed --only-installed --only-downloads --top-level -t --why --latest -l --outdated
  --lock --strict --dry-run --bump= --output-format= -c: --channel= --override-channels --unsafe-channels --check-exists --no-pager --show-sources
  --depth= -d: --invert --no-dedupe --universal --frozen --locked --no-sync --exclude-editable --strict --python= --list`;

const pythonTools: Rule = {
  names: ['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye', 'conda', 'mamba', 'micromamba'],
  // `uv run X --help`, `poetry run X --help`, `conda run X --help` run X: excepted.
  conventions: {
    byName: {
      uv: { info: ['-V', '-h'], subcommandHelp: { depth: 2, except: ['run', 'tool run', 'x'] } },
      poetry: { info: ['-V', '-h'], subcommandHelp: { depth: 2, except: ['run'] } },
      conda: { info: ['-V', '-h'], subcommandHelp: { depth: 2, except: ['run'] } },
      mamba: { info: ['-V', '-h'], subcommandHelp: { depth: 2, except: ['run'] } },
      micromamba: { info: ['-V', '-h'], subcommandHelp: { depth: 2, except: ['run'] } },
      '*': { info: ['-V', '-h'] },
    },
  },
  base: 'read',
  effects: [],
  what: 'manages Python environments',
  readsArgs: false,
  options: '--help -h --version -V -q -v --quiet --verbose --json --no-color --color= --format= --tree --only= --without= --with= --all --no-dev --offline --directory= --project= -n: -p: --name= --prefix=',
  checksOwnOptions: true,
  analyze(inv, a) {
    if (bySubcommand(inv, a, PY_READ_OPTIONS, { short: 'np', long: ['name', 'prefix', 'python', 'directory', 'project', 'output-format'] })) return;
    const { name, rest } = sub(inv, { short: 'np', long: ['name', 'prefix', 'python', 'directory', 'project'] });
    if (name === undefined) return void a.options(inv, '--help -h --version -V -q -v --quiet --verbose', inv.name);
    if (['list', 'show', 'info', 'env-list', 'tree', 'check', 'search', 'config-list', 'help', 'version', '--version'].includes(name) && !(name === 'version' && rest.length)) {
      if (name === 'search') {
        say(a, 'network', `${inv.name} search queries the package index`, ['network']);
        download(a, pyHosts(inv.name), `${inv.name} search queries the package index`);
      }
      a.options(inv, PY_READ_OPTIONS, `${inv.name} ${name}`);
      return;
    }
    if (name === 'tool' && ['install', 'uninstall', 'upgrade'].includes(rest[0] ?? '')) {
      say(a, 'install', `${inv.name} tool ${rest[0]} changes user-wide installed tools`, ['install', 'network', 'file_write']);
      return;
    }
    if (name === 'pip') {
      say(a, 'network', `${inv.name} pip manages packages of the project's environment`, ['network', 'file_write']);
      download(a, pipIndexTargets(inv, a.files, null), `${inv.name} pip downloads from its package indexes`);
      if (rest[0] === 'install') a.addEffects(SHELL_REACHABLE_EFFECTS);
      return;
    }
    if ((inv.name === 'conda' || inv.name.endsWith('mamba')) && ['install', 'remove', 'uninstall', 'update', 'upgrade'].includes(name)) {
      const targetsEnv = hasShort(inv.argv, 'np') || hasLong(inv.argv, ['name', 'prefix']);
      if (!targetsEnv) say(a, 'install', `${inv.name} ${name} changes the active (often base) environment`, ['install', 'network', 'file_write']);
      else {
        say(a, 'network', `${inv.name} ${name} changes a named environment`, ['network', 'file_write']);
        download(a, CONDA_HOSTS, `${inv.name} ${name} downloads from its channels`);
      }
      return;
    }
    if (['run', 'exec', 'shell', 'script'].includes(name)) {
      say(a, 'network', `${inv.name} ${name} runs a command in the project environment (and may install it first)`, ['network']);
      download(a, pyHosts(inv.name), `${inv.name} ${name} may download the project's packages first`);
      a.addEffects(SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (name === 'publish' || name === 'upload') {
      say(a, 'destructive', `${inv.name} ${name} publishes to a package index, which cannot be undone`, ['network', 'destructive']);
      return;
    }
    say(a, 'network', `${inv.name} ${name} resolves and installs project dependencies`, ['network', 'file_write', 'command_exec']);
    download(a, pyHosts(inv.name), `${inv.name} ${name} downloads the project's dependencies`);
  },
  match: ['uv --version', 'poetry show', 'conda list'],
  notMatch: ['poetry show --outdated', 'conda list --frob', 'uv add requests', 'poetry install', 'conda install numpy', 'uv tool install ruff', 'uv run pytest'],
};

/** Where a Python tool downloads from: conda's channels or the Python package index (its own config may add more). */
function pyHosts(tool: string): readonly HostTarget[] {
  return tool === 'conda' || tool.endsWith('mamba') ? CONDA_HOSTS : PYPI_HOSTS;
}

const cargo: Rule = {
  names: ['cargo'],
  // cargo fmt --check prints what rustfmt would change and writes nothing.
  conventions: { info: ['-V', '-h'], subcommandHelp: { depth: 1 }, checks: [{ when: ['--check'], first: ['fmt'], table: '--check --all -p: --package= -q --quiet -v --verbose --manifest-path= --message-format=', what: 'only checks the formatting (fmt --check)', operands: 'none' }] },
  base: 'read',
  effects: [],
  what: 'builds Rust projects',
  readsArgs: false,
  options: '--version -V --help -h -v --verbose -q --quiet --color= --frozen --locked --offline --manifest-path= --message-format= --workspace !--config=',
  checksOwnOptions: true,
  analyze(inv, a) {
    if (bySubcommand(inv, a, '--help -h --version -V -v --verbose -q --quiet --color= --frozen --locked --offline --manifest-path= --message-format= --workspace --format-version= --no-deps --filter-platform= --id= -p: --package= --list -l --root= --allow-dirty', { short: 'Z', long: ['config', 'color', 'manifest-path'] })) return;
    const { name } = sub(inv, { short: 'Z', long: ['config', 'color', 'manifest-path'] });
    if (hasLong(inv.argv, ['config'])) say(a, 'write', 'cargo --config can set programs cargo runs', SHELL_REACHABLE_EFFECTS);
    if (name === undefined || ['version', 'help', 'locate-project', 'pkgid', 'read-manifest', 'verify-project'].includes(name)) {
      a.options(inv, '--version -V --help -h -v --verbose -q --quiet --color= --frozen --locked --offline --manifest-path= --message-format= --workspace --config=', 'cargo');
      return;
    }
    if (name === 'install' || name === 'uninstall') return say(a, 'install', `cargo ${name} changes user-wide installed programs`, ['install', 'network', 'file_write']);
    if (name === 'publish' || name === 'yank' || name === 'owner') return say(a, 'destructive', `cargo ${name} changes a crate on the public registry`, ['network', 'destructive']);
    if (['new', 'init', 'clean', 'fmt'].includes(name)) return say(a, 'write', `cargo ${name} writes files in the project`, ['file_write']);
    if (['search', 'tree', 'metadata', 'fetch', 'add', 'remove', 'update', 'generate-lockfile', 'vendor', 'login', 'logout'].includes(name)) {
      if (name === 'login' || name === 'logout') upload(a, CRATES_HOSTS, `cargo ${name} sends a registry token`);
      else download(a, CRATES_HOSTS, `cargo ${name} downloads from the crate registry`);
      return say(a, 'network', `cargo ${name} contacts the registry`, ['network', 'file_write']);
    }
    // build, check, test, run, bench, doc, clippy, and plugins: build scripts and the program can do anything.
    say(a, 'network', `cargo ${name} may download crates and runs build scripts or the program`, ['network']);
    download(a, CRATES_HOSTS, `cargo ${name} downloads crates from the registry`);
    a.addEffects(SHELL_REACHABLE_EFFECTS);
  },
  match: ['cargo --version', 'cargo version'],
  notMatch: ['cargo --config build.rustc-wrapper=sh version', 'cargo version --frob', 'cargo build', 'cargo install ripgrep', 'cargo add serde', 'cargo publish', 'cargo fmt'],
};

const goTool: Rule = {
  names: ['go'],
  base: 'read',
  effects: [],
  what: 'builds Go projects',
  readsArgs: false,
  options: '-m -v -json -changed !-w !-u -C: -all -c -cmd -short -src --help -h',
  checksOwnOptions: true,
  analyze(inv, a) {
    const name = inv.argv[0];
    if (name === undefined || ['version', 'env', 'help', 'doc', 'list-dry'].includes(name)) {
      if (name === 'env' && hasShort(inv.argv, 'wu')) say(a, 'write', 'go env -w/-u changes Go settings', ['file_write']);
      a.options(inv, '@single-dash -m -v -json -changed -w -u -C: -all -c -cmd -short -src -u --help -h', `go${name ? ` ${name}` : ''}`);
      return;
    }
    // go clean -n, go fmt -n print the commands they would run; go tool alone lists the tools; dist list and vet help print.
    const rest = inv.argv.slice(1);
    if ((name === 'clean' || name === 'fmt') && rest.length === 1 && rest[0] === '-n') return say(a, 'read', `go ${name} -n prints the commands it would run`);
    if (name === 'tool' && (rest.length === 0 || (rest[0] === 'dist' && ['list', 'env', 'version', 'banner'].includes(rest[1] ?? '') && rest.slice(2).every((x) => ['-json', '-p', '-v'].includes(x))) || (rest[0] === 'vet' && rest[1] === 'help' && rest.length <= 3))) {
      return say(a, 'read', `go tool ${rest.join(' ')} prints what the Go toolchain has`.replace('  ', ' '));
    }
    if (name === 'install') return say(a, 'install', 'go install puts programs into GOBIN, which is on PATH', ['install', 'network', 'file_write']);
    if (name === 'fmt' || name === 'fix') return say(a, 'write', `go ${name} rewrites source files`, ['file_write']);
    download(a, GO_HOSTS, `go ${name} downloads modules through the Go module proxy`);
    if (name === 'get' || name === 'mod' || name === 'list' || name === 'work') return say(a, 'network', `go ${name} may download modules`, ['network', 'file_write']);
    say(a, 'network', `go ${name} may download modules and runs code (generators, tests, the program)`, ['network']);
    a.addEffects(SHELL_REACHABLE_EFFECTS);
  },
  match: ['go version', 'go env GOPATH'],
  notMatch: ['go env -u GOFLAGS', 'go env -w GOFLAGS=-x', 'go doc -http=:8080 fmt', 'go build ./...', 'go test ./...', 'go install x@latest', 'go get x', 'go fmt ./...'],
};

/**
 * Options of the package managers' query paths (apt list, dpkg -l, rpm -qa, pacman -Qi, brew list …). Left out: -o/--option
 * (apt configuration), --root/--admindir/--dbpath, rpm --pipe/--eval/--define/--macros/--queryformat, --config files.
 */
const OS_READ_OPTIONS = `--help -h --version -V -q --quiet -v --verbose --installed --upgradable --all-versions --manual-installed --names-only --full -a
  --all --json --formula --formulae --cask --casks -1 -l --versions --pinned --multiple --full-name -s -i -L -S -p -Q -g -e -d -t -n -m -u -c
  -k -f -F -T --info --list --search --owns --changelog --deps --explicit --native --foreign --unrequired --upgrades --groups --file
  --check --color= --get-selections --print-architecture --compare-versions --status --listfiles --print-avail --query --whatprovides
  --whatrequires --provides --requires --last --local --remote --details --tree --installed-on-request --installed-as-dependency --app --runtime --columns=
  --system --user --show-details --show-ref --show-commit --show-origin --show-size --show-metadata --show-permissions --show-location --show-runtime
  --show-sdk --verify --package --scripts --triggers --changes --configfiles --docfiles --dump --state --filesbypkg --nodeps --nofiles --nodigest
  --nosignature --nolinkto --nofiledigest --nosize --nouser --nogroup --nomtime --nomode --nordev --nocaps --noscripts --conflicts --obsoletes
  --recommends --suggests --supplements --enhances --contents -P --sort-by-priority --uri --details -E --show-enabled-only`;

/** rustup's options on its listing and help subcommands. */
const RUSTUP_READ_OPTIONS = '--toolchain= --installed -q --quiet -v --verbose -h --help --default --tldr';

/** pacman's query, check and print operations and their options (pacman(8)): -y refreshes the databases online, so it is not listed. */
const PACMAN_READ_OPTIONS = `-Q -S -F -T -D -R -U -i -l -s -g -e -d -t -n -m -u -k -o -p -q -x -h -c --info --list --search --owns --check --print --print-format=
  --groups --deps --explicit --native --foreign --unrequired --upgrades --quiet --regex --help --color= --file --changelog --machinereadable --version -V`;

/**
 * Package managers' info options and simulations: `apt-get -s install x` prints what it would do and
 * changes nothing (install, remove, upgrade: not update, which downloads the lists); `brew cleanup -n`.
 */
const APT_SIMULATE = {
  when: ['-s', '--simulate', '--just-print', '--dry-run', '--recon', '--no-act'],
  table: `-s --simulate --just-print --dry-run --recon --no-act -y --yes --assume-yes -q --quiet -V --verbose-versions --no-install-recommends
    --install-recommends --no-install-suggests -f --fix-broken --reinstall --only-upgrade --no-upgrade --purge --auto-remove --autoremove
    -m --ignore-missing --fix-missing --no-download --with-new-pkgs --allow-downgrades`,
  what: 'only simulates (-s prints what it would do and changes nothing)',
  operands: 'any' as const,
  first: ['install', 'remove', 'purge', 'upgrade', 'dist-upgrade', 'full-upgrade', 'autoremove', 'autopurge', 'reinstall'],
};
const OS_PACKAGE_CONVENTIONS: { byName: Readonly<Record<string, ProgramConventions>> } = {
  byName: {
    apt: { info: ['-v', '-h'], subcommandHelp: { depth: 1 }, checks: [APT_SIMULATE] },
    'apt-get': { info: ['-v', '-h'], checks: [APT_SIMULATE] },
    aptitude: { info: ['-h'], checks: [{ ...APT_SIMULATE, when: ['-s', '--simulate'] }] },
    dnf: { info: ['-h'], subcommandHelp: { depth: 1, flags: ['--help', '-h', '--help-cmd'] } },
    yum: { info: ['-h'] },
    pacman: { info: ['-V', '-h'] },
    brew: {
      info: ['-v', '-h'],
      subcommandHelp: { depth: 1 },
      checks: [{ when: ['-n', '--dry-run'], first: ['cleanup', 'autoremove'], table: '-n --dry-run -s --prune= -q --quiet -v --verbose -d --debug', what: 'only lists what it would remove (--dry-run)', operands: 'any' }],
    },
    gem: { info: ['-v', '-h'] },
    composer: { info: ['-V', '-h'] },
    rustup: { noInfo: 'rustup --version also asks the active rustc for its version, which can install that toolchain' },
    '*': { info: ['-h'] },
  },
};

/** Extra info options where a build tool documents them; none where even --version loads project code. */
const BUILD_TOOL_CONVENTIONS: { byName: Readonly<Record<string, ProgramConventions>> } = {
  byName: {
    make: { info: ['-v', '-h'] },
    gmake: { info: ['-v', '-h'] },
    gcc: { info: ['-v'] },
    'g++': { info: ['-v'] },
    cc: { info: ['-v'] },
    'c++': { info: ['-v'] },
    clang: { info: ['-v'] },
    'clang++': { info: ['-v'] },
    rustc: {
      info: ['-V', '-h'],
      checks: [
        { when: ['--explain'], table: '--explain= --color=', what: 'prints the explanation of an error code', operands: 'none' },
        { when: ['--print'], table: '--print= --target= --color= --edition=', what: 'prints compiler information (--print builds nothing)', operands: 'none' },
      ],
    },
    tsc: { info: ['-v', '-h'], checks: [{ when: ['--noEmit'], table: '--noEmit -p: --project= --pretty? --skipLibCheck --strict --allowJs --checkJs --noErrorTruncation --listFiles --extendedDiagnostics --diagnostics --explainFiles --traceResolution', what: 'only type-checks (--noEmit writes nothing)', operands: 'read' }] },
    eslint: { info: ['-v', '-h'] },
    prettier: { info: ['-v', '-h'] },
    mvn: { noInfo: "mvn --version starts Java with the project's .mvn/jvm.config and maven.config" },
    mvnw: { noInfo: 'the wrapper downloads and runs the Maven the project names' },
    gradle: { noInfo: "gradle --version starts with the project's gradle.properties (JVM options)" },
    gradlew: { noInfo: 'the wrapper downloads and runs the Gradle the project names' },
    sbt: { noInfo: 'sbt --version reads the project and may download sbt itself' },
    lein: { noInfo: 'lein version loads profiles.clj, which is code' },
    pytest: { noInfo: 'pytest --version loads plugins and the initial conftest.py files' },
    'py.test': { noInfo: 'pytest --version loads plugins and the initial conftest.py files' },
    tox: { noInfo: 'tox --version loads its plugins' },
    nox: { noInfo: 'nox --version imports noxfile plugins' },
    configure: { noInfo: 'configure is a script of the project' },
    meson: { info: ['-h', '-v'] },
    mypy: { info: ['-h', '-V'] },
    // ninja -t targets, list, query, commands, graph, deps, inputs, rules, compdb and missingdeps print the build graph; -t clean and cleandead delete, browse serves.
    ninja: { info: ['-h'], checks: [{ when: ['-t'], whenValues: ['targets', 'list', 'query', 'commands', 'graph', 'deps', 'inputs', 'rules', 'compdb', 'missingdeps', 'multi-inputs'], table: '-t: -C: -f: -v --verbose --quiet', what: 'prints the build graph (-t)', operands: 'any' }] },
    nasm: { info: ['-h', '-v', '-hf'] },
    msbuild: { info: ['/help', '-help', '/?', '-?', '/h', '-h', '/version', '-version', '/ver', '-ver'] },
    crystal: { info: ['help', '-h', 'version', '-v'] },
    hugo: { subcommandHelp: { depth: 2 } },
    dotnet: { subcommandHelp: { depth: 2, only: ['tool', 'new', 'build', 'run', 'test', 'pack', 'publish', 'restore', 'clean', 'add', 'remove', 'list', 'sln', 'nuget', 'workload', 'sdk', 'format', 'watch', 'help', 'store', 'msbuild', 'dev-certs', 'user-secrets', 'user-jwts'] } },
    // just --list, --summary, --dump print the justfile's recipes without running or evaluating any of them.
    just: { info: ['-h', '-V'], checks: [{ when: ['-l', '--list', '--summary', '--dump', '--variables', '--groups'], table: '-l --list --summary --dump --dump-format= --variables --groups --unsorted -u --list-heading= --list-prefix= --list-submodules -f: --justfile= -d: --working-directory= --color= --unstable -q --quiet', what: 'only lists or prints the recipes (nothing runs)', operands: 'none' }] },
    black: {
      checks: [{ when: ['-c', '--code'], table: '-c: --code= -l: --line-length= -t: --target-version= -S --skip-string-normalization -C --skip-magic-trailing-comma --fast --safe --preview -q --quiet', what: 'formats the code it is given and prints it', operands: 'none' }, {
        when: ['--check', '--diff'],
        table: `--check --diff --color --no-color -q --quiet -v --verbose -l: --line-length= -t: --target-version= -S --skip-string-normalization
          -C --skip-magic-trailing-comma --fast --safe --preview --include= --exclude= --extend-exclude= --force-exclude=`,
        what: 'only checks the formatting (--check or --diff writes nothing)',
        operands: 'read',
      }],
    },
    rustfmt: { info: ['-V', '-h'], checks: [{ when: ['--check'], table: '--check --edition= --style-edition= -v --verbose -q --quiet --color= -l --files-with-diff', what: 'only checks the formatting (--check)', operands: 'read' }] },
    '*': {},
  },
};


const osPackages: Rule = {
  conventions: OS_PACKAGE_CONVENTIONS,
  names: ['apt', 'apt-get', 'aptitude', 'dnf', 'yum', 'zypper', 'pacman', 'yay', 'paru', 'apk', 'brew', 'port', 'snap', 'flatpak', 'nix-env', 'emerge', 'xbps-install', 'xbps-remove', 'pkg', 'pkg_add', 'choco', 'winget', 'scoop', 'mas', 'softwareupdate', 'dpkg', 'rpm', 'gem', 'composer', 'cpan', 'cpanm', 'luarocks', 'opam', 'stack', 'cabal', 'nimble', 'rustup', 'nvm', 'fnm', 'volta', 'asdf', 'mise', 'sdk', 'pyenv', 'rbenv', 'tlmgr'],
  base: 'read',
  effects: [],
  what: 'manages installed software',
  readsArgs: false,
  options: OS_READ_OPTIONS,
  checksOwnOptions: true,
  analyze(inv, a) {
    // rustup run TOOLCHAIN COMMAND…: runs the command with that toolchain (--install first installs it).
    if (inv.name === 'rustup' && inv.argv[0] === 'run') {
      const at = inv.argv.findIndex((x, i) => i > 0 && !x.startsWith('-'));
      if (inv.argv.includes('--install')) say(a, 'install', 'rustup run --install installs the toolchain first', ['install', 'network', 'file_write']);
      else say(a, 'read', 'rustup run runs a command with a toolchain');
      if (at !== -1 && inv.argv.length > at + 1) a.runArgv(inv.args.slice(at + 1), 'rustup run');
      return;
    }
    if (bySubcommand(inv, a, inv.name === 'rustup' ? RUSTUP_READ_OPTIONS : OS_READ_OPTIONS)) return;
    // yay and paru search and show packages of the AUR online.
    if ((inv.name === 'yay' || inv.name === 'paru') && inv.argv.some((x) => /^-S[a-zA-Z]*[si]/.test(x))) {
      say(a, 'network', `${inv.name} asks the repositories and the AUR`, ['network']);
      download(a, unknownHost(`${inv.name} asks the AUR`), `${inv.name} asks the AUR`);
      return;
    }
    const argv = inv.argv;
    const n = inv.name;
    const first = argv.find((x) => !x.startsWith('-')) ?? '';
    if (n === 'pacman' || n === 'yay' || n === 'paru') {
      const op = argv.find((x) => /^-[A-Z]/.test(x)) ?? (n === 'pacman' ? '' : '-S');
      const letters = op.slice(2);
      // -Q queries, -Ss/-Si search and show, -F searches the file lists, -T tests dependencies, -Dk checks the database;
      // -h with any operation prints its help; -p (--print) with -S, -R or -U only prints what it would do.
      const query = op.startsWith('-Q') || /^-S[^y]*[si]/.test(op) && !/[uy]/.test(letters) || (op.startsWith('-F') && !/y/.test(letters)) || op.startsWith('-T') ||
        (op.startsWith('-D') && /^[kqh]+$/.test(letters)) || (/^-[A-Z]/.test(op) && /h/.test(letters)) ||
        (/^-[SRU]/.test(op) && (/p/.test(letters) || argv.includes('--print')) && !/y/.test(letters));
      if (query) return void a.options(inv, PACMAN_READ_OPTIONS, n);
      return say(a, 'install', `${n} ${op} installs, upgrades or removes system packages`, ['install', 'network', 'file_write']);
    }
    // emerge --search/--searchdesc look in the local tree; --pretend only shows what it would merge.
    if (n === 'emerge' && argv.length && argv.every((x) => /^-[sSpvq]+$/.test(x) || ['--search', '--searchdesc', '--pretend', '--verbose', '--quiet', '--tree', '-t'].includes(x) || !x.startsWith('-')) && argv.some((x) => /^-[a-zA-Z]*[sSp]/.test(x) || ['--search', '--searchdesc', '--pretend'].includes(x))) {
      return say(a, 'read', 'emerge only searches the local tree or shows what it would merge');
    }
    // nix-env -q (--query), --list-generations: they read the profile and the expressions it holds.
    if (n === 'nix-env' && (argv.some((x) => /^-q[aPcs]*$/.test(x) || x === '--query') || (argv.length === 1 && argv[0] === '--list-generations'))) {
      return void a.options(inv, `-q -a -P -c -s -b --query --available --attr-path --compare-versions --status --json --xml --out-path --drv-path --meta --description
        --no-name --installed --system -A: --attr= --list-generations --help --version`, n);
    }
    if (n === 'dpkg' || n === 'rpm') {
      const reading = hasShort(argv, n === 'dpkg' ? 'lLsSpc' : 'qV') || hasLong(argv, ['list', 'listfiles', 'status', 'search', 'print-avail', 'query', 'verify', 'get-selections', 'print-architecture', 'compare-versions', 'contents']);
      if (reading && !hasShort(argv, n === 'dpkg' ? 'irP' : 'ieU')) return void a.options(inv, OS_READ_OPTIONS, n);
      return say(a, 'install', `${n} installs or removes system packages`, ['install', 'file_write']);
    }
    const readVerbs = ['list', 'search', 'show', 'info', 'policy', 'madison', 'depends', 'rdepends', 'showpkg', 'changelog', 'outdated', 'deps', 'uses', 'leaves', 'doctor', 'config', 'home', 'desc', 'cat', 'log', 'repoquery', 'provides', 'whatprovides', 'history', 'check-update', 'list-installed', 'versions', 'current', 'which', 'ls', 'ls-remote', 'query', 'contents', 'environment', 'env', 'where', 'ping', 'version', '--prefix', '--cellar', '--repository', '--cache', '-q', 'query-installed'];
    if (readVerbs.includes(first)) {
      a.options(inv, OS_READ_OPTIONS, `${n} ${first}`);
      if (['search', 'info', 'outdated', 'ls-remote', 'changelog', 'check-update'].includes(first) && ['brew', 'gem', 'snap', 'npm', 'nvm'].includes(n)) {
        say(a, 'network', `${n} ${first} queries a package index`, ['network']);
        download(a, n === 'gem' ? RUBYGEMS_HOSTS : unknownHost(`${n} queries indexes its own configuration names`), `${n} ${first} queries a package index`);
      }
      return;
    }
    if (n === 'gem' && ['push', 'yank', 'owner', 'signin', 'signout'].includes(first)) {
      return say(a, 'destructive', `gem ${first} changes a gem or its owners on rubygems.org, which cannot be undone`, ['network', 'destructive']);
    }
    if (n === 'gem' && first === 'install' && hasLong(argv, ['install-dir'])) {
      download(a, hasLong(argv, ['source', 'clear-sources']) ? unknownHost('gem is given another source') : RUBYGEMS_HOSTS, 'gem install downloads gems');
      return say(a, 'network', 'gem install into a local directory', ['network', 'file_write']);
    }
    if (n === 'composer' && first !== 'global') {
      say(a, 'network', `composer ${first} resolves project dependencies (and runs their scripts)`, ['network', 'file_write']);
      download(a, [{ host: 'repo.packagist.org', port: 443 }, { host: null, why: 'composer downloads packages from wherever their metadata points' }], `composer ${first} downloads packages`);
      a.addEffects(SHELL_REACHABLE_EFFECTS);
      return;
    }
    if (['nvm', 'fnm', 'volta', 'asdf', 'mise', 'sdk', 'pyenv', 'rbenv', 'rustup'].includes(n) && ['use', 'local', 'shell'].includes(first)) {
      return say(a, 'write', `${n} ${first} switches the tool version for this shell or project`, ['file_write']);
    }
    say(a, 'install', `${n} ${first} installs, upgrades or removes software for the user or the system`, ['install', 'network', 'file_write']);
    if (['install', 'upgrade', 'update', 'add', 'reinstall'].includes(first)) a.addEffects(SHELL_REACHABLE_EFFECTS);
  },
  match: ['apt list --installed', 'apt-cache policy x', 'brew list', 'dpkg -l', 'rpm -qa', 'pacman -Qi bash', 'gem list'],
  notMatch: ['rpm -qa --pipe sh', "rpm -q --eval '%(id)' x", 'dpkg -l --admindir=/tmp/x', 'apt list -o APT::x=y', 'apt install vim', 'apt-get remove -y x', 'brew install jq', 'pacman -S x', 'dpkg -i x.deb', 'gem install rails', 'apt update'],
};

const aptCache: Rule = {
  names: ['apt-cache', 'apt-file', 'apt-mark-showmanual', 'dnf-repoquery'],
  base: 'read',
  effects: [],
  what: 'queries the package database',
  readsArgs: false,
  // -o sets APT configuration and -c reads another configuration file: not listed.
  options: '--help -h --version -v -q -i -f -a -g -n -s -x --regexp -F --fixed-string --package-only -l --ignore-case --names-only --full --all-versions --no-all-versions --generate --no-generate --recurse --installed --important --no-pre-depends --no-depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances',
  analyze(inv, a) {
    if (inv.name === 'apt-file' && inv.argv.includes('update')) a.raise('network', 'apt-file update downloads package indexes', ['network', 'file_write']);
  },
  match: ['apt-cache show bash'],
  notMatch: ['apt-cache -o Dir::Cache=/tmp show bash', 'apt-file update'],
};


const buildTools: Rule = {
  conventions: BUILD_TOOL_CONVENTIONS,
  names: ['make', 'gmake', 'cmake', 'ninja', 'meson', 'scons', 'bazel', 'bazelisk', 'buck', 'just', 'task', 'rake', 'ant', 'mvn', 'mvnw', 'gradle', 'gradlew', 'sbt', 'lein', 'mix', 'rebar3', 'dotnet', 'msbuild', 'xcodebuild', 'swift', 'turbo', 'nx', 'lerna', 'tox', 'nox', 'pytest', 'py.test', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'karma', 'cypress', 'playwright', 'rspec', 'phpunit', 'ctest', 'tsc', 'vite', 'webpack', 'rollup', 'parcel', 'babel', 'eslint', 'tslint', 'stylelint', 'black', 'isort', 'flake8', 'pylint', 'mypy', 'pyright', 'rubocop', 'golangci-lint', 'prettier', 'rustfmt', 'terraform-fmt', 'pre-commit', 'husky', 'lefthook', 'autoreconf', 'configure', 'bundle', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'rustc', 'javac', 'kotlinc', 'ghc', 'ld', 'as', 'ar', 'strip', 'objcopy', 'nasm', 'zig', 'nim', 'crystal', 'elm', 'hugo', 'jekyll', 'mkdocs', 'sphinx-build', 'latexmk', 'pdflatex', 'xelatex', 'lualatex', 'typst', 'asciidoctor', 'docker-compose-build'],
  base: 'read',
  effects: [],
  what: 'is a build, test or formatting tool',
  // Read only with nothing but --version/--help (conventions.ts), or a documented check (black --check);
  // everything else runs project code.
  checksOwnOptions: true,
  analyze(inv, a) {
    if (bySubcommand(inv, a, null)) return;
    a.raise('write', `${inv.name} runs project code and plugins, which can do anything`, SHELL_REACHABLE_EFFECTS);
    // cmake --install copies the build into /usr/local unless --prefix names another place.
    if (inv.name === 'cmake' && inv.argv.includes('--install') && !inv.argv.some((x) => x === '--prefix' || x.startsWith('--prefix='))) a.raise('install', 'cmake --install installs the build into the system', ['install']);
    {
    if (['mvn', 'mvnw', 'gradle', 'gradlew', 'sbt', 'lein', 'bazel', 'bazelisk', 'dotnet', 'swift', 'bundle', 'deno', 'mix'].includes(inv.name)) {
      a.raise('network', `${inv.name} downloads dependencies`, ['network']);
      const publishing = inv.argv.find((x) => PUBLISH_GOALS.test(x));
      if (publishing) upload(a, unknownHost(`${inv.name} publishes where its build file says`), `${inv.name} ${publishing} publishes artifacts to a repository, an upload`);
      else download(a, unknownHost(`${inv.name} downloads from repositories its build file names`), `${inv.name} downloads dependencies`);
    }
    }
  },
  match: ['make --version', 'gcc --version', 'make -v', 'black --check src', 'rustfmt --check main.rs', 'tsc --noEmit'],
  notMatch: ['ninja -v', 'pytest -v', 'pytest --version', 'mvn --version', 'make -n', 'black --check --config x src', 'make', 'make test', 'pytest -q', 'tsc -p .', 'gcc -o app main.c', 'prettier --write .', 'mvn package', 'gradle build'],
};

/** Build goals and tasks that publish what was built. */
const PUBLISH_GOALS = /^(deploy|publish\w*|upload\w*|release|push|nuget|bintrayUpload|artifactoryPublish|uploadArchives|publishToMavenCentral|[\w:-]*:(deploy|publish|release)[\w:-]*)$/;

/** Publishing tools with nothing else to judge: their publish verbs change a public registry. */
const publishers: Rule = {
  names: ['twine', 'flit', 'maturin', 'vsce', 'ovsx', 'anaconda', 'pod', 'gh-release-dry', 'jreleaser', 'goreleaser', 'semantic-release', 'np', 'release-it', 'changeset', 'lerna-publish'],
  base: 'write',
  effects: [],
  what: 'builds or publishes packages',
  readsArgs: false,
  analyze(inv, a) {
    if (bySubcommand(inv, a, null)) return;
    a.raise('write', `${inv.name} runs project code and plugins, which can do anything`, SHELL_REACHABLE_EFFECTS);
    // cmake --install copies the build into /usr/local unless --prefix names another place.
    if (inv.name === 'cmake' && inv.argv.includes('--install') && !inv.argv.some((x) => x === '--prefix' || x.startsWith('--prefix='))) a.raise('install', 'cmake --install installs the build into the system', ['install']);
    const verb = inv.argv.find((x) => !x.startsWith('-')) ?? '';
    const publishing = ['semantic-release', 'np', 'release-it'].includes(inv.name) || ['upload', 'publish', 'push', 'release', 'trunk'].includes(verb) || (inv.name === 'changeset' && verb === 'publish');
    if (publishing && !hasLong(inv.argv, ['dry-run', 'snapshot', 'skip-publish'])) {
      a.raise('destructive', `${inv.name} ${verb} publishes to a public registry, which cannot be undone`, ['network', 'destructive']);
      upload(a, unknownHost(`${inv.name} publishes where its configuration says`), `${inv.name} ${verb} publishes, an upload`);
    }
  },
  match: ['twine check dist/x.whl', 'maturin build', 'vsce package'],
  notMatch: ['twine upload dist/x.whl', 'flit publish', 'vsce publish', 'pod trunk push x.podspec', 'goreleaser release'],
};

export const packageRules: Rule[] = [publishers, nodePackageManagers, npx, pip, pythonTools, cargo, goTool, osPackages, aptCache, buildTools];
