// The tldr corpus (test/fixtures/tldr, issue 22): thousands of example commands no one here wrote, each
// labelled by us with the least class it needs. Every example must be judged at least at its label (a
// change that lowers a class must show the label that allows it); read examples that still ask at
// supervised are needless asks, reported per class and held under 3%.
import { beforeAll, describe, expect, it } from 'vitest';
import { initClassifier } from '../main/policy/classifier';
import { evaluate, type Evaluation } from '../main/policy/evaluate';
import { policyContext } from './support/policy';
import { judge, loadTldrCorpus, type TldrExample, type Verdict } from './support/tldr-corpus';

const corpus = loadTldrCorpus();
const results = new Map<TldrExample, { verdict: Verdict; needless: boolean; ev: Evaluation }>();

function evaluated(e: TldrExample): { verdict: Verdict; needless: boolean; ev: Evaluation } {
  let r = results.get(e);
  if (!r) {
    const ev = evaluate({ tool: 'run_command', args: { command: e.command } }, policyContext({ level: 'supervised' }));
    r = { ...judge(e, ev), ev };
    results.set(e, r);
  }
  return r;
}

beforeAll(async () => {
  await initClassifier();
});

describe('tldr corpus (test/fixtures/tldr/commands.tsv): never below its label', () => {
  it('holds at least 5,000 labelled examples from at least 1,000 pages', () => {
    expect({ examples: corpus.length >= 5000, pages: new Set(corpus.map((e) => e.page)).size >= 1000 }).toEqual({ examples: true, pages: true });
  });

  it.each(corpus.map((e) => [`\`${e.command}\` (tldr ${e.page}) needs ${e.label} and is never judged below it [commands.tsv:${e.line}]`, e] as const))('%s', (_title, e) => {
    const { verdict, ev } = evaluated(e);
    expect({ below: verdict === 'below' }, `${ev.class} ${ev.effects.join(',')}: ${ev.reasons.join('; ')}`).toEqual({ below: false });
  });

  it('asks needlessly for at most 3% of the read examples at supervised (per-class figures printed)', () => {
    const stats: Record<string, { examples: number; right: number; above: number; below: number; needlessAsks: number }> = {};
    for (const e of corpus) {
      const r = evaluated(e);
      const s = (stats[e.label] ??= { examples: 0, right: 0, above: 0, below: 0, needlessAsks: 0 });
      s.examples++;
      s[r.verdict]++;
      if (r.needless) s.needlessAsks++;
    }
    console.log(`tldr corpus, per label (supervised):\n${JSON.stringify(stats, null, 1)}`);
    const read = stats.read!;
    expect({ below: Object.values(stats).reduce((n, s) => n + s.below, 0), needlessShare: read.needlessAsks / read.examples <= 0.03 || read.needlessAsks / read.examples }).toEqual({ below: 0, needlessShare: true });
  });
});
