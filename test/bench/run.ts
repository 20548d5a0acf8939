// `npm run bench`: every test/bench/*.bench.ts, one process, side by side; prints a table and writes
// bench-results.json. Benchmarks are not tests: nothing here fails the build.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchResult, BenchSuite } from './harness';

export async function runBenchmarks(argv: string[]): Promise<number> {
  const dir = import.meta.dirname;
  const only = argv.filter((a) => !a.startsWith('-'));
  const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort();
  const results: BenchResult[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { suites: BenchSuite[] };
    for (const suite of mod.suites) {
      if (only.length && !only.some((o) => suite.name.includes(o) || file.includes(o))) continue;
      process.stderr.write(`bench: ${suite.name}…\n`);
      await suite.run((r) => {
        const full = { suite: suite.name, ...r };
        results.push(full);
        process.stderr.write(`  ${r.name}: ${format(r.value)} ${r.unit}${r.target ? ` (target ${r.target}${r.ok === false ? ', MISSED' : ''})` : ''}\n`);
      });
    }
  }
  const table = [
    ['suite', 'measure', 'value', 'unit', 'target', ''],
    ...results.map((r) => [r.suite, r.name, format(r.value), r.unit, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED']),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  for (const row of table) process.stdout.write(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd() + '\n');
  const out = join(dir, '..', '..', 'bench-results.json');
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2) + '\n');
  process.stdout.write(`\nwrote ${out}\n`);
  return 0;
}

function format(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(3);
}
