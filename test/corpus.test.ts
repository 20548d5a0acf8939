// The specification corpus: shell commands and tool calls written from the issue text (not from the
// implementation), each stating its class and the decision at every level. The fixtures are tables:
// test/fixtures/command-corpus.txt and test/fixtures/tool-corpus.txt (format in their headers).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, type Class, type Decision, type Level } from '../common/domain';
import { classifyCommand, initClassifier } from '../main/policy/classifier';
import { evaluate, type PolicyContext } from '../main/policy/evaluate';

const CLASS_NAMES = ['read', 'write', 'network', 'install', 'destructive'];
const DECISIONS = ['allow', 'ask', 'deny'];
const KNOWN_FLAGS = ['parse_error', 'unknown_syntax', 'substitution', 'redirection', 'background', 'obfuscation', 'hardline', 'dynamic', 'non_posix'];

/** A fixed path context, so no case depends on the machine it runs on. */
const paths = {
  home: '/home/user',
  workspace: '/home/user/project',
  appDirs: ['/home/user/.config/threshold', '/home/user/.local/share/threshold'],
};

interface Expected {
  class: Class;
  decisions: Decision[];
  flags?: string[];
}

interface Case {
  /** The test's name: a sentence. */
  title: string;
  section: string;
  line: number;
  expected: Expected;
}

interface CommandCase extends Case {
  command: string;
}

interface ToolCase extends Case {
  tool: string;
  args: unknown;
}

interface Fixture<C> {
  cases: C[];
  sections: Map<string, number>;
}

const FLAGS_SUFFIX = /\s{2}## flags: ([a-z_,\s]+)$/;

function fixturePath(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** Splits the five leading columns off a case line and checks them; returns the rest of the line. */
function parseHead(file: string, n: number, raw: string): { expected: Expected; rest: string } {
  let text = raw;
  let flags: string[] | undefined;
  const suffix = FLAGS_SUFFIX.exec(text);
  if (suffix) {
    flags = suffix[1]!.split(',').map((f) => f.trim()).filter(Boolean);
    for (const f of flags) if (!KNOWN_FLAGS.includes(f)) throw new Error(`${file}:${n}: unknown flag ${f}`);
    text = text.slice(0, suffix.index);
  }
  const m = /^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(.+)$/.exec(text);
  if (!m) throw new Error(`${file}:${n}: expected <class> <ro> <sup> <ae> <full> ..., got: ${raw}`);
  const [, cls, ...rest] = m;
  const decisions = rest.slice(0, 4);
  if (!CLASS_NAMES.includes(cls!)) throw new Error(`${file}:${n}: unknown class ${cls}`);
  for (const d of decisions) if (!DECISIONS.includes(d!)) throw new Error(`${file}:${n}: unknown decision ${d}`);
  const expected: Expected = { class: cls as Class, decisions: decisions as Decision[] };
  if (flags) expected.flags = flags;
  return { expected, rest: rest[4]! };
}

function parseFixture<C extends Case>(file: string, makeCase: (n: number, expected: Expected, rest: string, section: string) => C): Fixture<C> {
  const cases: C[] = [];
  const sections = new Map<string, number>();
  let section = '(no section)';
  readFileSync(fixturePath(file), 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const n = i + 1;
      const line = raw.trimEnd();
      if (line.trim() === '') return;
      if (line.startsWith('## ')) {
        section = line.slice(3).trim();
        if (sections.has(section)) throw new Error(`${file}:${n}: section "${section}" appears twice`);
        sections.set(section, 0);
        return;
      }
      if (line.startsWith('#')) return;
      const { expected, rest } = parseHead(file, n, line);
      cases.push(makeCase(n, expected, rest, section));
      sections.set(section, (sections.get(section) ?? 0) + 1);
    });
  return { cases, sections };
}

function describeExpected(e: Expected): string {
  const flags = e.flags?.length ? `, flagged ${e.flags.join(', ')}` : '';
  return `is ${e.class} and ${e.decisions.join('/')} (read-only/supervised/auto-edit/full)${flags}`;
}

function loadCommands(): Fixture<CommandCase> {
  const file = 'command-corpus.txt';
  return parseFixture(file, (n, expected, rest, section) => {
    const command = rest.startsWith('"') ? (JSON.parse(rest) as string) : rest;
    if (typeof command !== 'string') throw new Error(`${file}:${n}: the command must be a string`);
    const shown = rest.startsWith('"') ? rest : `\`${command}\``;
    return { command, expected, section, line: n, title: `${shown} ${describeExpected(expected)} [${file}:${n}]` };
  });
}

function loadTools(): Fixture<ToolCase> {
  const file = 'tool-corpus.txt';
  return parseFixture(file, (n, expected, rest, section) => {
    const m = /^(\S+)\s+(.+)$/.exec(rest);
    if (!m) throw new Error(`${file}:${n}: expected <tool> <args as JSON>`);
    const args: unknown = JSON.parse(m[2]!);
    return { tool: m[1]!, args, expected, section, line: n, title: `${m[1]} ${m[2]} ${describeExpected(expected)} [${file}:${n}]` };
  });
}

function policy(level: Level): PolicyContext {
  return { level, rules: { effects: {}, tools: {} }, grants: [], paths, now: 0 };
}

/** Keeps the flags the case requires that the result has, so a whole-value comparison shows what is missing. */
function presentFlags(expected: Expected, flags: readonly string[], hardline: boolean): { flags?: string[] } {
  if (!expected.flags) return {};
  return { flags: expected.flags.filter((f) => flags.includes(f) || (f === 'hardline' && hardline)) };
}

interface OptionCase {
  title: string;
  section: string;
  atLeast: Class;
  command: string;
}

/** test/fixtures/option-corpus.txt: `<at-least-class> <command>` a line; not one may be read. */
function loadOptionCases(): { cases: OptionCase[]; sections: Map<string, number> } {
  const file = 'option-corpus.txt';
  const cases: OptionCase[] = [];
  const sections = new Map<string, number>();
  let section = '(no section)';
  readFileSync(fixturePath(file), 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const n = i + 1;
      const line = raw.trimEnd();
      if (line.trim() === '') return;
      if (line.startsWith('## ')) {
        section = line.slice(3).trim();
        if (sections.has(section)) throw new Error(`${file}:${n}: section "${section}" appears twice`);
        sections.set(section, 0);
        return;
      }
      if (line.startsWith('#')) return;
      const m = /^(\S+) (.+)$/.exec(line);
      if (!m || !CLASS_NAMES.includes(m[1]!) || m[1] === 'read') throw new Error(`${file}:${n}: expected <write|network|install|destructive> <command>, got: ${raw}`);
      const command = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!;
      cases.push({ title: `\`${command}\` is at least ${m[1]} (${section}) [${file}:${n}]`, section, atLeast: m[1] as Class, command });
      sections.set(section, (sections.get(section) ?? 0) + 1);
    });
  return { cases, sections };
}

const commands = loadCommands();
const tools = loadTools();
const optionCases = loadOptionCases();

beforeAll(async () => {
  await initClassifier();
});

describe('command corpus (test/fixtures/command-corpus.txt)', () => {
  it('has at least 430 cases and a case in every section', () => {
    expect(commands.cases.length).toBeGreaterThanOrEqual(430);
    const empty = [...commands.sections].filter(([, count]) => count === 0).map(([name]) => name);
    expect(empty).toEqual([]);
  });

  it.each(commands.cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const classification = classifyCommand(c.command, { ctx: paths });
    const evaluations = LEVELS.map((level) => evaluate({ tool: 'run_command', args: { command: c.command } }, policy(level)));
    const actual = {
      class: classification.class,
      decisions: evaluations.map((e) => e.decision),
      ...presentFlags(c.expected, classification.flags, classification.hardline),
    };
    expect(actual, classification.reasons.join('; ')).toEqual(c.expected);
    expect(evaluations.map((e) => e.class)).toEqual(LEVELS.map(() => classification.class));
  });
});

describe('adversarial option corpus (test/fixtures/option-corpus.txt): nothing is read', () => {
  it('has at least 300 cases and a case in every section', () => {
    expect(optionCases.cases.length).toBeGreaterThanOrEqual(300);
    const empty = [...optionCases.sections].filter(([, count]) => count === 0).map(([name]) => name);
    expect(empty).toEqual([]);
  });

  it.each(optionCases.cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const classification = classifyCommand(c.command, { ctx: paths });
    const rank = (cls: Class) => CLASS_NAMES.indexOf(cls);
    expect({ atLeast: rank(classification.class) >= rank(c.atLeast), read: classification.class === 'read' }, classification.reasons.join('; ')).toEqual({ atLeast: true, read: false });
  });
});

describe('tool corpus (test/fixtures/tool-corpus.txt)', () => {
  it('has at least 60 cases and a case in every section', () => {
    expect(tools.cases.length).toBeGreaterThanOrEqual(60);
    const empty = [...tools.sections].filter(([, count]) => count === 0).map(([name]) => name);
    expect(empty).toEqual([]);
  });

  it.each(tools.cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const evaluations = LEVELS.map((level) => evaluate({ tool: c.tool, args: c.args }, policy(level)));
    const first = evaluations[0]!;
    const actual = {
      class: first.class,
      decisions: evaluations.map((e) => e.decision),
      ...presentFlags(c.expected, first.flags, first.hardline),
    };
    expect(actual, `${first.decidedBy}: ${first.explanation}`).toEqual(c.expected);
  });
});
