#!/usr/bin/env node
// `npm run bench`: runs every test/bench/*.bench.ts in one process, prints a table, writes bench-results.json.
import { register } from 'tsx/esm/api';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

register();
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { runBenchmarks } = await import(pathToFileURL(join(root, 'test/bench/run.ts')).href);
process.exitCode = await runBenchmarks(process.argv.slice(2));
