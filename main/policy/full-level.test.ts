// The level `full` (seed 003): reads and writes run; network, install and destructive calls ask, except
// network commands that only download and whose hosts are all allowed. Hosts come from the command and
// from the machine's configuration (test/support/network-files.ts: a repository whose origin is
// github.com, a `gh:` insteadOf, ssh aliases, a sub-project .npmrc naming another registry).
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyCommand, initClassifier } from './classifier';
import { evaluate, type HostPredicate, type ToolCallInput } from './evaluate';
import { defaultHostAllowed, testReadText } from '../../test/support/network-files';
import { policyContext, TEST_PATHS } from '../../test/support/policy';

beforeAll(async () => {
  await initClassifier();
});

const cmd = (command: string, cwd?: string): ToolCallInput => ({ tool: 'run_command', args: { command }, cwd, readText: testReadText });
const fetch = (url: string): ToolCallInput => ({ tool: 'web_fetch', args: { url } });

function judge(call: ToolCallInput, hostAllowed: HostPredicate = defaultHostAllowed) {
  const e = evaluate(call, { ...policyContext({ level: 'full' }), hostAllowed });
  return { decision: e.decision, decidedBy: e.decidedBy, explanation: e.explanation };
}

const ALLOWED = (what: string, hosts: string) => ({
  decision: 'allow',
  decidedBy: 'level:full',
  explanation: `Allowed at full: \`${what}\` only downloads, from allowed hosts (${hosts}); it runs through the egress proxy.`,
});
const ASKS = (reason: string) => ({ decision: 'ask', decidedBy: 'level:full', explanation: `Asks: at the full level only downloads from allowed hosts run unasked, and ${reason}.` });

describe('the level full runs downloads from allowed hosts', () => {
  it.each([
    { name: 'curl of an allowed registry', call: cmd('curl -fsSL https://registry.npmjs.org/react'), want: ALLOWED('curl -fsSL https://registry.npmjs.org/react', 'registry.npmjs.org') },
    { name: 'curl saving a file from github.com', call: cmd('curl -L -o lib.tgz https://codeload.github.com/a/b/tar.gz/main'), want: ALLOWED('curl -L -o lib.tgz https://codeload.github.com/a/b/tar.gz/m…', 'codeload.github.com') },
    { name: 'wget of a raw file', call: cmd('wget -q https://raw.githubusercontent.com/a/b/main/x.txt'), want: ALLOWED('wget -q https://raw.githubusercontent.com/a/b/main/x.txt', 'raw.githubusercontent.com') },
    { name: 'npm install with the default registry', call: cmd('npm install'), want: ALLOWED('npm install', 'registry.npmjs.org') },
    { name: 'pnpm add of a named package', call: cmd('pnpm add zod'), want: ALLOWED('pnpm add zod', 'registry.npmjs.org') },
    { name: 'npm install of a github shorthand', call: cmd('npm install acme/tool'), want: ALLOWED('npm install acme/tool', 'registry.npmjs.org, github.com, codeload.github.com') },
    { name: 'yarn with no command', call: cmd('yarn'), want: ALLOWED('yarn', 'registry.npmjs.org, registry.yarnpkg.com') },
    { name: 'npm view queries the registry', call: cmd('npm view react version'), want: ALLOWED('npm view react version', 'registry.npmjs.org') },
    { name: 'git fetch of origin (resolved from .git/config)', call: cmd('git fetch'), want: ALLOWED('git fetch', 'github.com') },
    { name: 'git pull of origin', call: cmd('git pull --rebase origin main'), want: ALLOWED('git pull --rebase origin main', 'github.com') },
    { name: 'git fetch of a remote rewritten by insteadOf (gh: → https://github.com/)', call: cmd('git fetch fork'), want: ALLOWED('git fetch fork', 'github.com') },
    { name: 'git clone of an allowed URL', call: cmd('git clone https://github.com/acme/lib.git'), want: ALLOWED('git clone https://github.com/acme/lib.git', 'github.com') },
    { name: 'git ls-remote of origin from a sub-folder', call: cmd('git ls-remote', '/home/user/project/sub'), want: ALLOWED('git ls-remote', 'github.com') },
    { name: 'pip download from the default index', call: cmd('pip download requests -d wheels'), want: ALLOWED('pip download requests -d wheels', 'pypi.org, files.pythonhosted.org') },
    { name: 'cargo fetch', call: cmd('cargo fetch'), want: ALLOWED('cargo fetch', 'crates.io, index.crates.io, static.crates.io') },
    { name: 'go mod download', call: cmd('go mod download'), want: ALLOWED('go mod download', 'proxy.golang.org, sum.golang.org') },
    { name: 'a download piped into a local filter', call: cmd('curl -s https://registry.npmjs.org/react | jq .name'), want: ALLOWED('curl -s https://registry.npmjs.org/react | jq .name', 'registry.npmjs.org') },
  ])('$name', ({ call, want }) => {
    expect(judge(call)).toEqual(want);
  });

  it('web_fetch of an allowed host runs', () => {
    expect(judge(fetch('https://pypi.org/simple/requests/'))).toEqual({ decision: 'allow', decidedBy: 'level:full', explanation: 'Allowed at full: this web_fetch call only downloads, from allowed hosts (pypi.org); it runs through the egress proxy.' });
  });
});

describe('the level full asks for everything else that reaches the network', () => {
  it.each([
    { name: 'a download from a host not on the list', call: cmd('curl https://example.com/x'), want: ASKS('example.com is not an allowed host (`[network] allow_hosts` or a host grant)') },
    { name: 'npm install where the project .npmrc names another registry', call: cmd('npm install', '/home/user/project/sub'), want: ASKS('npm.internal.example is not an allowed host (`[network] allow_hosts` or a host grant)') },
    { name: 'git fetch of a remote on another host (ssh form)', call: cmd('git fetch mirror'), want: ASKS('gitlab.example.com:22 is not an allowed host (`[network] allow_hosts` or a host grant)') },
    { name: 'git clone through an ssh alias that jumps through a bastion', call: cmd('git clone hop:repo.git'), want: ASKS('it reaches an unknown host (the ssh connection to hop goes through ProxyJump bastion.example.com)') },
    { name: 'git push, an upload', call: cmd('git push'), want: ASKS('git push sends commits to github.com, an upload; uploads ask at every level') },
    { name: 'git push of a remote whose pushurl is rewritten by pushInsteadOf', call: cmd('git push fork'), want: ASKS('git push sends commits to evil.example.org, an upload; uploads ask at every level') },
    { name: 'curl with data, an upload', call: cmd('curl -d x=1 https://registry.npmjs.org/'), want: ASKS('curl sends data (-d, -F, -T, --json …), an upload; uploads ask at every level') },
    { name: 'a URL only known at run time', call: cmd('curl "$URL"'), want: ASKS('the arguments of `curl "$URL"` are only known at run time, so they can carry local data') },
    { name: 'ssh to a machine', call: cmd('ssh box'), want: ASKS('ssh opens a shell on another machine, which is not a plain download') },
    { name: 'docker run reaches the network in a way the classifier does not model', call: cmd('docker run --rm alpine true'), want: ASKS('docker run runs containers or talks to registries, which is not a plain download') },
    { name: 'web_fetch of a host not on the list', call: fetch('https://example.com/docs'), want: { decision: 'ask', decidedBy: 'level:full', explanation: 'Asks: at the full level only downloads from allowed hosts run unasked, and example.com is not an allowed host (`[network] allow_hosts` or a host grant).' } },
  ])('$name', ({ call, want }) => {
    expect(judge(call)).toEqual(want);
  });

  it('without a host predicate from the runtime no host is allowed', () => {
    const e = evaluate(cmd('npm install'), policyContext({ level: 'full' }));
    expect({ decision: e.decision, decidedBy: e.decidedBy, explanation: e.explanation }).toEqual(ASKS('registry.npmjs.org is not an allowed host (`[network] allow_hosts` or a host grant)'));
  });

  it('without the configuration files a git remote is an unknown host', () => {
    const e = evaluate({ tool: 'run_command', args: { command: 'git fetch' } }, { ...policyContext({ level: 'full' }), hostAllowed: defaultHostAllowed });
    expect({ decision: e.decision, explanation: e.explanation }).toEqual({ decision: 'ask', explanation: 'Asks: at the full level only downloads from allowed hosts run unasked, and it reaches an unknown host (the repository\'s configuration is not available to check).' });
  });

  it.each([
    { name: 'an install into the system asks', call: cmd('apt install ripgrep'), want: { decision: 'ask', decidedBy: 'level:full', explanation: 'Asks: at the full level installs need your approval (apt install installs, upgrades or removes software for the user or the system).' } },
    { name: 'a global npm install asks', call: cmd('npm i -g typescript'), want: { decision: 'ask', decidedBy: 'level:full', explanation: 'Asks: at the full level installs need your approval (npm i -g changes globally installed packages).' } },
    { name: 'writes still run', call: cmd('touch notes.md'), want: { decision: 'allow', decidedBy: 'level:full', explanation: 'Allowed: the level is full, which runs reads and writes (touches ~/project/notes.md).' } },
  ])('$name', ({ call, want }) => {
    expect(judge(call)).toEqual(want);
  });
});

describe('configuration files are read only for commands that reach the network', () => {
  const readsFor = (command: string) => {
    const reads: string[] = [];
    classifyCommand(command, { ctx: TEST_PATHS, readText: (p) => (reads.push(p), testReadText(p)) });
    return reads;
  };
  it.each(['ls -la', 'git status', 'git commit -m x', 'npm run build', 'cat README.md | wc -l', 'make && ./build.sh'])('%s reads no file', (command) => {
    expect(readsFor(command)).toEqual([]);
  });

  it('git fetch reads the repository config and the global ones, each once', () => {
    expect(readsFor('git fetch && git fetch')).toEqual(['/home/user/project/.git/config', '/home/user/.gitconfig', '/home/user/.config/git/config']);
  });
});
