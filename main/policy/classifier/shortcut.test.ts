// The plain-command shortcut (syntax.ts) must change nothing but speed: every fixture command and rule
// example gets the same whole Classification with it as through the parser, in both path contexts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPlainCommandShortcut, ShellAnalyzer } from './analyze';
import { initShellParser } from './parser';
import { PROGRAM_RULES } from './programs';
import type { Classification } from './types';
import { plainCommandTree, plainTree } from './syntax';

beforeAll(async () => {
  await initShellParser();
});

const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures');
const lines = (file: string) => readFileSync(join(fixtures, file), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));

/** Every command the fixtures and the rules' examples hold, plus each one run through the common carriers. */
function commands(): string[] {
  const corpus = lines('command-corpus.txt')
    .map((l) => /^\S+ \S+ \S+ \S+ \S+ (.*?)( {2}## flags:.*)?$/.exec(l)?.[1])
    .filter((c) => c !== undefined)
    .map((c) => (c.startsWith('"') ? (JSON.parse(c) as string) : c));
  const options = lines('option-corpus.txt').map((l) => l.slice(l.indexOf(' ') + 1));
  const credentials = lines('credential-locations.txt').flatMap((l) => {
    const path = l.split(' | ')[1];
    return path ? [`cat ${path}`, `cp ${path} copy`] : [];
  });
  const examples = PROGRAM_RULES.flatMap((r) => [...r.match, ...r.notMatch]);
  const all = [...corpus, ...options, ...lines('exfiltration-corpus.txt'), ...credentials, ...examples];
  const plain = all.filter((c) => plainCommandTree(c) !== null);
  const carried = plain.flatMap((c) => [`sudo ${c}`, `bash -c '${c}'`, `env A=1 ${c}`, `${c} | sh`, `cd /tmp && ${c}`]);
  // Pipelines and lists of plain commands (the shortcut's second shape), each command joined with another.
  const joins = [' | ', ' && ', ' || ', '; ', '|', ';'];
  const joined = plain.map((c, i) => `${c}${joins[i % joins.length]}${plain[(i * 7 + 3) % plain.length]}`);
  // Redirected plain commands (the shortcut takes the simple file redirections), to ordinary, protected and device targets.
  const redirections = [' > out.txt', ' 2>&1', ' < in.txt', ' >> log 2>/dev/null', ' &> all.log', ' > ~/.bashrc', ' > .git/hooks/pre-commit', ' <~/.ssh/id_rsa', ' >/dev/sda', ' > /dev/tcp/x.example/80', ' 2>&1 | sh', ' > /etc/cron.d/job', ' >| ~/.ssh/authorized_keys', ' 1>&2 < /etc/shadow'];
  const redirected = plain.map((c, i) => `${c}${redirections[i % redirections.length]}`);
  return [...new Set([...all, ...carried, ...joined, ...redirected])];
}

const home = '/home/user';
const contexts = [
  { name: 'the workspace', opts: { ctx: { home, workspace: `${home}/project`, appDirs: [`${home}/.config/threshold`] } } },
  {
    name: 'a sub-folder, names case-insensitive, network files readable',
    opts: {
      ctx: { home, workspace: `${home}/project`, appDirs: [], caseInsensitiveNames: true },
      cwd: `${home}/project/src`,
      readText: (p: string) => (p.endsWith('/.git/config') ? '[remote "origin"]\n\turl = git@github.com:x/y.git\n' : null),
    },
  },
];

function classifyAll(list: string[], opts: (typeof contexts)[number]['opts'], shortcut: boolean): Classification[] {
  setPlainCommandShortcut(shortcut);
  try {
    return list.map((c) => ShellAnalyzer.classify(c, opts));
  } finally {
    setPlainCommandShortcut(true);
  }
}

describe('the plain-command shortcut', () => {
  const list = commands();
  it('takes a good share of the commands compared, plain commands, pipelines and lists of them, and redirected ones', () => {
    expect(list.filter((c) => plainCommandTree(c) !== null).length).toBeGreaterThan(1000);
    expect(list.filter((c) => plainCommandTree(c) === null && plainTree(c) !== null).length).toBeGreaterThan(1000);
    expect(list.filter((c) => /[<>]/.test(c) && plainTree(c) !== null).length).toBeGreaterThan(1000);
  });
  it.each(contexts)('gives every command the same whole Classification as the parser, in $name', ({ opts }) => {
    const through = classifyAll(list, opts, false);
    const shortcut = classifyAll(list, opts, true);
    const differ = list.filter((_, i) => JSON.stringify(shortcut[i]) !== JSON.stringify(through[i]));
    expect(differ).toEqual([]);
    expect(shortcut).toEqual(through);
  });
});
