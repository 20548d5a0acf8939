// `npm run fuzz`: every boundary's fuzz target with 10,000 generated cases (plus the hand-made ones).
// Options: --runs N, --seed N, and target names (substrings) to run only those.
import { parseArgs } from 'node:util';
import { runTarget, type FuzzReport } from './runner';
import { TARGETS } from './targets';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' } }, allowPositionals: true });
const runs = Number(values.runs ?? 10_000);
const seed = values.seed === undefined ? undefined : Number(values.seed);
const chosen = TARGETS.filter((t) => !positionals.length || positionals.some((p) => t.name.includes(p)));
const reports: FuzzReport[] = [];
let failed = false;
for (const target of chosen) {
  process.stderr.write(`fuzz: ${target.name} (${runs} generated + ${target.nasty.length} hand-made)…\n`);
  try {
    const r = await runTarget(target, runs, { seed });
    reports.push(r);
    process.stderr.write(`  ${r.cases} cases in ${r.seconds} s; RSS ${r.rssBeforeMb} → ${r.rssAfterMb} MB, heap ${r.heapAfterMb} MB\n`);
  } catch (err) {
    failed = true;
    process.stderr.write(`  FAILED: ${(err as Error).message}\n`);
  }
}
const rows = [['target', 'cases', 'seconds', 'rss before MB', 'rss after MB', 'heap after MB'], ...reports.map((r) => [r.target, String(r.cases), String(r.seconds), String(r.rssBeforeMb), String(r.rssAfterMb), String(r.heapAfterMb)])];
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
for (const row of rows) process.stdout.write(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd() + '\n');
process.exitCode = failed ? 1 : 0;
