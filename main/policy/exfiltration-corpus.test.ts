// test/fixtures/exfiltration-corpus.txt: upload and exfiltration shapes. At `full`, with the default
// allowlist and a machine whose remotes and registries are known, not one of them runs unasked; the
// pipes, redirections and substitutions that feed local data to a network program are destructive.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initClassifier } from './classifier';
import { evaluate } from './evaluate';
import { defaultHostAllowed, testReadText } from '../../test/support/network-files';
import { policyContext } from '../../test/support/policy';

const CORPUS = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'exfiltration-corpus.txt');

/** One command a line; a line in double quotes is a JSON string (commands that span lines). */
function corpus(): { command: string; section: string }[] {
  const out: { command: string; section: string }[] = [];
  let section = '';
  for (const line of readFileSync(CORPUS, 'utf8').split('\n')) {
    if (line.startsWith('# ──')) section = line.replace(/^# ──\s*|\s*──$/g, '');
    if (!line.trim() || line.startsWith('#')) continue;
    out.push({ command: line.startsWith('"') ? (JSON.parse(line) as string) : line, section });
  }
  return out;
}

const CASES = corpus();

beforeAll(async () => {
  await initClassifier();
});

describe('the exfiltration corpus', () => {
  it('holds at least 150 shapes', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
  });

  it.each(CASES)('$command never runs unasked at full', ({ command }) => {
    const e = evaluate({ tool: 'run_command', args: { command }, readText: testReadText }, { ...policyContext({ level: 'full' }), hostAllowed: defaultHostAllowed });
    expect({ command, runsUnasked: e.decision === 'allow' }).toEqual({ command, runsUnasked: false });
  });

  const feeding = CASES.filter((c) => /pipe from a local read|process substitution|command substitution|xargs/.test(c.section));
  it.each(feeding)('$command is destructive (local data fed to a network program)', ({ command }) => {
    const e = evaluate({ tool: 'run_command', args: { command }, readText: testReadText }, { ...policyContext({ level: 'full' }), hostAllowed: defaultHostAllowed });
    expect({ command, class: e.class, floor: e.floor }).toEqual({ command, class: 'destructive', floor: 'destructive' });
  });
});
