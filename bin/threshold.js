#!/usr/bin/env node
// The `threshold` command. Runs the TypeScript sources through tsx so that the CLI, the daemon and
// the tests all execute the same code the app bundles.
import { register } from 'tsx/esm/api';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

register();
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { main } = await import(pathToFileURL(join(root, 'main/cli/index.ts')).href);
process.exitCode = await main(process.argv.slice(2));
