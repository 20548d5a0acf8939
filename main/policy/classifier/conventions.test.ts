// The shared conventions (conventions.ts) reach every program table: --help/--version, `--` and `-`;
// and the four commands of issue 22 decide as their class.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../evaluate';
import { policyContext } from '../../../test/support/policy';
import { ShellAnalyzer } from './analyze';
import { conventionsOf, infoOptions } from './conventions';
import { initClassifier } from './index';
import { PROGRAM_RULES } from './programs';

beforeAll(async () => {
  await initClassifier();
});

const ctx = { home: '/home/user', workspace: '/home/user/project', appDirs: [] };
const classify = (cmd: string) => ShellAnalyzer.classify(cmd, { ctx });
const reasons = (cmd: string) => classify(cmd).segments.flatMap((s) => s.reasons);

/** Every program name the classifier knows, with its rule. */
const PROGRAMS = PROGRAM_RULES.flatMap((rule) => rule.names.map((name) => ({ name, rule })));

describe('the shared conventions reach every program table', () => {
  // `[` and `[[` are shell syntax (they need their closing bracket), not programs that take --help.
  it.each(PROGRAMS.filter(({ name }) => name !== '[' && name !== '[[').map(({ name, rule }) => [name, rule] as const))('`%s --help` and `--version` only print, unless its rule says why not', (name, rule) => {
    const c = conventionsOf(rule, name);
    for (const option of ['--help', '--version']) {
      const inert = reasons(`${name} ${option}`).includes(`${name} only prints its help or version`);
      // A program whose --help runs code (yarn's release file, rustup's toolchain) says so and is not inert.
      expect({ option, inert }).toEqual({ option, inert: c.noInfo === undefined });
    }
    // The short info options a rule declares are inert too, and nothing else is.
    for (const option of infoOptions(c)) expect(classify(`${name} ${option}`).class).toBe('read');
  });

  // find's grammar is an expression (find -- -name is still a test), as are the other single-dash tables.
  const tableText = (rule: (typeof PROGRAMS)[number]['rule'], name: string): string | undefined =>
    typeof rule.options === 'string' ? rule.options : rule.options === undefined ? undefined : (rule.options[name] ?? rule.options['*']);
  it.each(PROGRAMS.filter(({ rule, name }) => { const t = tableText(rule, name); return rule.base === 'read' && t !== undefined && !/@data|@bundle|@single-dash/.test(t); }).map(({ name }) => [name] as const))(
    '`--` ends the options of %s: what follows is an operand, never an unknown option',
    (name) => {
      expect(reasons(`${name} -- --threshold-probe-operand`).filter((r) => r.includes('unknown option --threshold-probe-operand'))).toEqual([]);
    },
  );

  it.each(PROGRAMS.filter(({ rule, name }) => rule.base === 'read' && rule.readsArgs !== false && conventionsOf(rule, name).stdio !== false).map(({ name }) => [name] as const))(
    '`-` is standard input or output for %s, not a file named -',
    (name) => {
      expect(reasons(`${name} -`).filter((r) => r.includes(`${ctx.workspace}/-`) || r.includes('~/project/-'))).toEqual([]);
    },
  );

  it('a program that reads `-` as a file says so (stdio: false) and the file is judged', () => {
    const declared = PROGRAMS.filter(({ rule, name }) => conventionsOf(rule, name).stdio === false).map(({ name }) => name);
    for (const name of declared) expect(classify(`cd ~/.ssh && ${name} -`).effects).toContain('secret_read');
  });
});

describe('issue 22: the four commands decide as their class', () => {
  const supervised = (command: string) => evaluate({ tool: 'run_command', args: { command } }, policyContext({ level: 'supervised' }));
  it.each([
    ['du -sh ~/Downloads/* | sort -rh | head -20', 'read'],
    ['bash -n backup.sh', 'read'],
    ['sh -n backup.sh', 'read'],
    ['zsh -n backup.sh', 'read'],
    ['pdftotext -f 2 -l 2 -layout ~/Desktop/r.pdf -', 'read'],
  ] as const)('`%s` is %s and runs unasked at supervised', (command, cls) => {
    const d = supervised(command);
    expect({ class: d.class, decision: d.decision }).toEqual({ class: cls, decision: 'allow' });
  });

  it.each([
    // Metadata (du, ls, stat) and digests (md5sum) of ordinary files are reads; a glob over them too.
    ['du -sh ~/Downloads/*', false],
    ['md5sum ~/Downloads/*', false],
    ['stat ~/Downloads/a.iso', false],
    ['md5sum ~/Downloads/a.iso', false],
    // Naming a credential location is a floor for both: du lists what ~/.ssh holds; md5sum digests a key.
    ['du -sh ~/.ssh', true],
    ['md5sum ~/.ssh/id_rsa', true],
    ['ls -la ~/.aws', true],
    ['sha256sum ~/.ssh/*', true],
    // A glob that can only match secret names is a floor for a digest, not for a listing of names.
    ['md5sum ~/project/*.pem', true],
    ['ls ~/project/*.pem', false],
    // The content of a credential location stays a floor whatever reads it.
    ['cat ~/Downloads/../.ssh/id_rsa', true],
  ] as const)('`%s`: secret read %s (md5sum and du agree)', (command, secret) => {
    const c = classify(command);
    expect({ class: c.class, secret: c.effects.includes('secret_read') }).toEqual({ class: 'read', secret });
  });
});

describe('issue 22: when a read asks, the reason names the path or option that made it ask', () => {
  const supervised = (command: string) => evaluate({ tool: 'run_command', args: { command } }, policyContext({ level: 'supervised' }));
  it.each([
    ['ls --frob src', '--frob'],
    ['git status --frobnicate', '--frobnicate'],
    ['cat ~/.ssh/id_rsa', '~/.ssh/id_rsa'],
    ['du -sh ~/.aws', '~/.aws'],
    ['md5sum ~/.ssh/*', '~/.ssh/*'],
    ['grep -r TODO ~/.config', '~/.config'],
    ['jq . a.json > out.json', 'out.json'],
    ['git log --output=log.txt', 'log.txt'],
    ['cat notes.txt | grep --frob x', '--frob'],
    ['ls -la ~/.aws --frob', '~/.aws'],
    ['touch notes.md', 'notes.md'],
  ] as const)('`%s` asks and says %s', (command, named) => {
    const d = supervised(command);
    expect(d.decision).toBe('ask');
    expect(d.explanation).toContain(named);
  });
});
