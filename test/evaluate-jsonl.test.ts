// Issue 26: `threshold evaluate --jsonl` answers every line with a decision, never an error. A crash on an
// ordinary command (`.venv/bin/pip install pandas` with a file:// index in pip.conf answered "Cannot read
// properties of null (reading 'host')") is fixed as a class: every line of the corpora under test/fixtures
// (command, option, exfiltration and tool corpora, the tldr corpus) and generated variants of every program
// the classifier knows (./X, .venv/bin/X, /usr/bin/X …) are evaluated at every level, against configuration
// files written to be odd (empty, file://, scheme-less and broken URLs in pip.conf, .npmrc, git and ssh config).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS, type Level } from '../common/domain';
import { initClassifier, type ReadText } from '../main/policy/classifier';
import { PROGRAM_RULES } from '../main/policy/classifier/programs';
import { evaluate } from '../main/policy/evaluate';
import { runCli } from './support/cli';
import { defaultHostAllowed, TEST_NETWORK_FILES } from './support/network-files';
import { policyContext, TEST_PATHS } from './support/policy';
import { loadTldrCorpus } from './support/tldr-corpus';

/** One call as `evaluate --jsonl` reads it. */
interface Call {
  tool: string;
  args: Record<string, unknown>;
  /** Where it comes from, for the failure message: file and line. */
  from: string;
}

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8').split('\n');
const command = (text: string): string => (text.startsWith('"') ? (JSON.parse(text) as string) : text);
const isCase = (raw: string) => raw.trim() !== '' && !raw.startsWith('#');

/** command-corpus.txt: <class> <ro> <sup> <ae> <full> <command>, an optional `  ## flags:` suffix. */
function commandCorpus(): Call[] {
  return fixture('command-corpus.txt').flatMap((raw, i) => {
    if (!isCase(raw)) return [];
    const m = /^\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(.+?)(\s{2}## flags: [a-z_,\s]+)?$/.exec(raw);
    return m ? [{ tool: 'run_command', args: { command: command(m[1]!) }, from: `command-corpus.txt:${i + 1}` }] : [];
  });
}

/** option-corpus.txt: <class> <command>. */
function optionCorpus(): Call[] {
  return fixture('option-corpus.txt').flatMap((raw, i) => {
    if (!isCase(raw)) return [];
    const m = /^\S+\s+(.+)$/.exec(raw);
    return m ? [{ tool: 'run_command', args: { command: command(m[1]!) }, from: `option-corpus.txt:${i + 1}` }] : [];
  });
}

/** exfiltration-corpus.txt: one command a line. */
function exfiltrationCorpus(): Call[] {
  return fixture('exfiltration-corpus.txt').flatMap((raw, i) => (isCase(raw) ? [{ tool: 'run_command', args: { command: raw }, from: `exfiltration-corpus.txt:${i + 1}` }] : []));
}

/** tool-corpus.txt: <class> <ro> <sup> <ae> <full> <tool> <args JSON>. */
function toolCorpus(): Call[] {
  return fixture('tool-corpus.txt').flatMap((raw, i) => {
    if (!isCase(raw)) return [];
    const m = /^\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(\{.*\})(\s{2}## flags: [a-z_,\s]+)?$/.exec(raw);
    return m ? [{ tool: m[1]!, args: JSON.parse(m[2]!) as Record<string, unknown>, from: `tool-corpus.txt:${i + 1}` }] : [];
  });
}

function tldrCorpus(): Call[] {
  return loadTldrCorpus().map((e) => ({ tool: 'run_command', args: { command: e.command }, from: `tldr/commands.tsv:${e.line}` }));
}

/**
 * Every program name of every table, called through the paths a session uses (a virtualenv, a relative
 * path, a system directory, a path that climbs) with a few argument shapes: nothing, an install, a URL,
 * a word known only at run time.
 */
function variants(): Call[] {
  const names = [...new Set(PROGRAM_RULES.flatMap((r) => r.names))].filter((n) => /^[\w.+-]+$/.test(n));
  const prefixes = ['', './', '.venv/bin/', '/usr/bin/', '../bin/', 'node_modules/.bin/'];
  const shapes = ['', ' install pandas', ' https://example.com/x', ' "$X" -'];
  const out: Call[] = [];
  for (const name of names) for (const prefix of prefixes) for (const shape of shapes) out.push({ tool: 'run_command', args: { command: `${prefix}${name}${shape}` }, from: `variant ${prefix}${name}${shape}` });
  // The issue's own lines.
  out.push({ tool: 'run_command', args: { command: '.venv/bin/pip install pandas' }, from: 'issue 26' });
  out.push({ tool: 'run_command', args: { command: 'python3 -m venv .venv && .venv/bin/pip install pandas' }, from: 'issue 26' });
  return out;
}

/** Configuration files written to be odd: what a machine may hold, and what broke the network judgement. */
const home = TEST_PATHS.home;
const ws = TEST_PATHS.workspace;

/** Every configuration file the classifier consults, each holding `url` where a URL or host goes. */
function configs(url: string): Record<string, string> {
  const pip = `[global]\nindex-url = ${url}\nextra-index-url = ${url}\ntrusted-host = ${url}\n[install]\nfind-links = ${url}\n`;
  return {
    '/etc/pip.conf': pip,
    '/etc/xdg/pip/pip.conf': pip,
    [`${home}/.config/pip/pip.conf`]: pip,
    [`${home}/.pip/pip.conf`]: pip,
    [`${ws}/.venv/pip.conf`]: pip,
    [`${home}/.npmrc`]: `registry=${url}\n@a:registry=${url}\n//:_authToken=x\n`,
    [`${ws}/.npmrc`]: `registry=${url}\n@b:registry=${url}\n`,
    [`${home}/.gitconfig`]: `[url "${url}"]\n\tinsteadOf = https://\n\tpushInsteadOf = ${url}\n[include]\n\tpath = ~/.other\n`,
    [`${ws}/.git/config`]: `[remote "origin"]\n\turl = ${url}\n\tpushurl = ${url}\n[remote "b"]\n\turl = ${url}\n[remote]\n\turl = ${url}\n`,
    [`${home}/.ssh/config`]: `Host *\n  HostName ${url}\n  Port ${url}\n  ProxyJump ${url}\nMatch all\n  HostName %h.\n`,
  };
}

/**
 * The machines the calls are judged on: no configuration readable, the policy tests' ordinary one, and
 * one per odd value (a file:// index was the crash; empty values, scheme-only and broken URLs, a bare
 * colon pair). Each odd machine holds one kind of value everywhere, so one cannot hide another.
 */
const MACHINES: readonly (readonly [string, ReadText | undefined])[] = [
  ['no readable configuration', undefined],
  ['the ordinary test machine', (path) => TEST_NETWORK_FILES[path] ?? null],
  ...['file:///srv/wheels', '', 'https://', 'http://[::1', '::', '//no-scheme/simple', 'https://user:pw@/simple', 'git@:x', 'ssh://', '%h', 'x'.repeat(300)].map(
    (url) => [`configuration holding ${JSON.stringify(url.length > 20 ? `${url.slice(0, 8)}…` : url)}`, ((files: Record<string, string>) => (path: string) => files[path] ?? null)(configs(url))] as const,
  ),
];
const ODD_FILES = configs('file:///srv/wheels');

const SOURCES: readonly [string, () => Call[]][] = [
  ['command-corpus.txt', commandCorpus],
  ['option-corpus.txt', optionCorpus],
  ['exfiltration-corpus.txt', exfiltrationCorpus],
  ['tool-corpus.txt', toolCorpus],
  ['tldr/commands.tsv', tldrCorpus],
  ['every program by every path', variants],
];

beforeAll(async () => {
  await initClassifier();
});

describe('evaluate answers every call with a decision (issue 26)', () => {
  it('reads every source (none is silently empty)', () => {
    for (const [name, load] of SOURCES) expect({ name, some: load().length > 0 }).toEqual({ name, some: true });
  });

  const cells = SOURCES.flatMap(([name, load]) => LEVELS.map((level) => [name, level, load] as const));
  it.each(cells)('every line of %s gets a decision at %s on every machine, never an error', (name, level, load) => {
    const ctx = { ...policyContext({ level: level as Level }), hostAllowed: defaultHostAllowed };
    const failures: string[] = [];
    const calls = load();
    // The generated variants (tens of thousands) run on the machines that differ most; the corpora on all.
    const machines = name === 'every program by every path' ? MACHINES.slice(0, 5) : MACHINES;
    for (const [machine, readText] of machines) {
      for (const call of calls) {
        try {
          const ev = evaluate({ tool: call.tool, args: call.args, cwd: ws, readText }, ctx);
          if (!['allow', 'ask', 'deny'].includes(ev.decision)) failures.push(`${call.from} (${machine}): decision ${String(ev.decision)}`);
        } catch (err) {
          failures.push(`${call.from} (${machine}): ${(err as Error).message}`);
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });
});

describe('threshold evaluate --jsonl (the command line) never answers an error for a valid call', () => {
  let root: string;
  beforeAll(() => {
    // The same odd files on disk, under a temporary home and workspace the command reads for real.
    root = mkdtempSync(join(tmpdir(), 'threshold-jsonl-'));
    for (const [path, text] of Object.entries(ODD_FILES)) {
      if (path.startsWith('/etc/')) continue;
      const at = join(root, path);
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, text);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(LEVELS.map((level) => [level] as const))('at %s: one decision per line for the corpora and the issue lines', async (level) => {
    const calls = [...commandCorpus(), ...optionCorpus(), ...exfiltrationCorpus(), ...toolCorpus(), ...variants().filter((c) => c.from === 'issue 26' || c.from.includes('pip'))];
    const stdin = calls.map((c) => JSON.stringify({ tool: c.tool, args: c.args })).join('\n') + '\n';
    const r = await runCli(['evaluate', '--jsonl', '--level', level, '--workspace', join(root, ws)], { stdin, env: { HOME: join(root, home) } });
    const answers = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers).toHaveLength(calls.length);
    const bad = answers.flatMap((a, i) => ('error' in a || !['allow', 'ask', 'deny'].includes(String(a['decision'])) ? [`${calls[i]!.from}: ${JSON.stringify(a).slice(0, 200)}`] : []));
    expect(bad).toEqual([]);
    expect(r.code).toBe(0);
  });
});
