// The tldr corpus (test/fixtures/tldr): loading it and comparing a judgement with a label.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLASSES, type Class } from '../../common/domain';
import type { Evaluation } from '../../main/policy/evaluate';

export type Label = Class | 'read+secret';
const LABELS: readonly Label[] = ['read', 'read+secret', 'write', 'network', 'install', 'destructive'];

export interface TldrExample {
  page: string;
  label: Label;
  command: string;
  line: number;
}

export function loadTldrCorpus(): TldrExample[] {
  const file = fileURLToPath(new URL('../fixtures/tldr/commands.tsv', import.meta.url));
  const out: TldrExample[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((raw, i) => {
    if (raw === '' || raw.startsWith('#')) return;
    const [page, label, ...rest] = raw.split('\t');
    const text = rest.join('\t');
    if (!page || !LABELS.includes(label as Label) || !text) throw new Error(`commands.tsv:${i + 1}: expected <page> <label> <command>, got: ${raw}`);
    out.push({ page, label: label as Label, command: text.startsWith('"') ? (JSON.parse(text) as string) : text, line: i + 1 });
  });
  return out;
}

const rank = (c: Class) => CLASSES.indexOf(c);

export type Verdict = 'right' | 'above' | 'below';

/** How the classifier's judgement compares with the label. A needless ask is a read example that asks. */
export function judge(e: TldrExample, ev: Evaluation): { verdict: Verdict; needless: boolean } {
  const secret = ev.effects.includes('secret_read');
  if (e.label === 'read+secret') return { verdict: ev.class !== 'read' ? 'above' : secret ? 'right' : 'below', needless: false };
  const diff = rank(ev.class) - rank(e.label);
  const needless = e.label === 'read' && ev.decision !== 'allow';
  return { verdict: diff < 0 ? 'below' : diff > 0 || needless ? 'above' : 'right', needless };
}

