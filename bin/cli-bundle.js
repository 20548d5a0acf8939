// @ts-check
// The `threshold` command runs JavaScript bundled by esbuild (out/cli-<id>/threshold.mjs), not TypeScript
// compiled at run time. The bundle is built on demand: on a fresh checkout, or when a file it was built
// from (or package.json, the lock file, this file) is newer than the build. Builds by several processes at
// once (parallel tests) are serialised by a lock file. Each build lands in its own directory and
// out/cli.json names the current one, so a daemon started from the previous build can still load its
// lazy chunks while a new build lands.
//
// Two levels below the repository, as out/main is: main/runtime/version.ts and main/web/bundle.ts find
// package.json and out/renderer relative to the module, from the sources and from a bundle alike.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { acquirePidLock } from '../node/pid-lock.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const THIS_FILE = fileURLToPath(import.meta.url);

/** Loaded from node_modules at run time: native code or WASM located next to its package. */
export const EXTERNAL = [
  'better-sqlite3',
  'node-pty',
  'web-tree-sitter',
  'tree-sitter-bash',
  'electron',
  // ws's optional accelerators: absent here, and ws works without them.
  'bufferutil',
  'utf-8-validate',
];

/**
 * Files outside the bundle's inputs that change what a build produces or what its check of the
 * classifier's rule examples found (the parser's WASM).
 */
const BUILD_FILES = [
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  'node_modules/tree-sitter-bash/tree-sitter-bash.wasm',
  'bin/cli-bundle.js',
];

/**
 * `hook`: the hook command's own bundle and the sources it was built from (bin/hook-entry.js checks only
 * those before starting it).
 * @typedef {{ id: string, entry: string, startedAt: number, inputs: string[], hook?: { entry: string, inputs: string[] } }} CliManifest
 * @typedef {{ root?: string, log?: (line: string) => void, timeoutMs?: number, force?: boolean }} EnsureOptions
 */

/** @param {string} root */
function manifestPath(root) {
  return join(root, 'out', 'cli.json');
}

/** @param {string} root @returns {CliManifest | null} */
export function readManifest(root = REPO_ROOT) {
  try {
    const m = JSON.parse(readFileSync(manifestPath(root), 'utf8'));
    if (typeof m?.id !== 'string' || typeof m.entry !== 'string' || typeof m.startedAt !== 'number' || !Array.isArray(m.inputs)) return null;
    return m;
  } catch {
    return null;
  }
}

/** @param {string} path */
function mtimeOrNull(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Why the bundle must be (re)built, or null when it is there and no input changed since its build began
 * (a file edited while esbuild ran counts as changed).
 * @param {string} root
 * @returns {string | null}
 */
export function cliStaleness(root = REPO_ROOT) {
  const m = readManifest(root);
  if (!m) return 'it has not been built yet';
  if (!existsSync(join(root, m.entry))) return `${m.entry} is missing`;
  for (const file of [...m.inputs, ...BUILD_FILES]) {
    const t = mtimeOrNull(join(root, file));
    if (t === null) {
      if (m.inputs.includes(file)) return `${file} was removed`;
      continue;
    }
    if (t >= m.startedAt) return `${file} changed`;
  }
  return null;
}

/**
 * Makes sure the CLI bundle is built and fresh; returns the absolute path of its entry module.
 * @param {EnsureOptions} o
 * @returns {Promise<string>}
 */
export async function ensureCliBundle(o = {}) {
  const root = o.root ?? REPO_ROOT;
  if (!o.force && cliStaleness(root) === null) return join(root, /** @type {CliManifest} */ (readManifest(root)).entry);
  mkdirSync(join(root, 'out'), { recursive: true });
  const lock = join(root, 'out', '.cli-build.lock');
  const deadline = Date.now() + (o.timeoutMs ?? 180_000);
  for (;;) {
    const held = acquirePidLock(lock);
    if ('release' in held) {
      try {
        const why = o.force ? 'asked for' : cliStaleness(root);
        if (why !== null) {
          o.log?.(`building the command line (${why}); this takes a few seconds`);
          await buildCli(root);
        }
        return join(root, /** @type {CliManifest} */ (readManifest(root)).entry);
      } finally {
        held.release();
      }
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for another process to build the command line (lock ${lock}).`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Bundles main/cli/index.ts into a fresh out/cli-<id>/ and points out/cli.json at it. Call under the lock.
 * @param {string} root
 * @returns {Promise<CliManifest>}
 */
export async function buildCli(root = REPO_ROOT) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (err) {
    throw new Error(`Cannot build the command line: esbuild is missing from node_modules (run npm ci). ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const startedAt = Date.now();
  const id = `${startedAt.toString(36)}-${process.pid}`;
  const outDir = join(root, 'out', `cli-${id}`);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { threshold: 'main/cli/index.ts', 'verify-rules': 'main/cli/verify-rules.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Each command's code is its own chunk, loaded when the command runs (main/cli/index.ts). esbuild
    // imports a shared chunk for every file a command's modules import, used or not: a static import
    // of something heavy (the core, the config loader) from a command's path costs start-up even when
    // unused; test/cli-bundle.test.ts holds byte budgets for ctl and classify.
    splitting: true,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    // The rule examples are checked once, below, instead of at every start (main/policy/classifier/index.ts).
    define: { THRESHOLD_RULE_EXAMPLES_VERIFIED: 'true' },
    // CommonJS dependencies call require() for Node built-ins; an ES module has no require of its own.
    banner: { js: "import { createRequire as __thresholdRequire } from 'node:module'; const require = __thresholdRequire(import.meta.url);" },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
  }).catch((/** @type {unknown} */ err) => {
    rmSync(outDir, { recursive: true, force: true });
    const errors = /** @type {{ errors?: { text: string, location?: { file: string, line: number } | null }[] }} */ (err).errors;
    const detail = errors?.length ? errors.map((e) => `  ${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`).join('\n') : String(err);
    throw new Error(`Building the command line failed:\n${detail}`, { cause: err });
  });
  // The hook command runs before every tool call of another agent: one small file of its own, no shared
  // chunks, so starting it reads nothing the command line's bundle holds.
  const hook = await esbuild
    .build({
      absWorkingDir: root,
      entryPoints: { hook: 'main/hooks/hook-entry.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      external: EXTERNAL,
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
    })
    .catch((/** @type {unknown} */ err) => {
      rmSync(outDir, { recursive: true, force: true });
      throw new Error(`Building the hook command failed: ${String(err)}`, { cause: err });
    });
  try {
    await verifyRules(join(outDir, 'verify-rules.mjs'));
  } catch (err) {
    rmSync(outDir, { recursive: true, force: true });
    throw err;
  }
  const ours = (/** @type {{ inputs: Record<string, unknown> }} */ meta) => Object.keys(meta.inputs).filter((f) => !f.includes('node_modules/')).sort();
  const inputs = [...new Set([...ours(result.metafile), ...ours(hook.metafile)])].sort();
  /** @type {CliManifest} */
  const manifest = { id, entry: relative(root, join(outDir, 'threshold.mjs')), startedAt, inputs, hook: { entry: relative(root, join(outDir, 'hook.mjs')), inputs: ours(hook.metafile) } };
  const previous = readManifest(root);
  const staging = `${manifestPath(root)}.${process.pid}`;
  writeFileSync(staging, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(staging, manifestPath(root));
  pruneBuilds(root, [id, previous?.id]);
  return manifest;
}

/**
 * Checks the classifier's rule examples with the new bundle, in a child process (as the bundle will run).
 * @param {string} module
 * @returns {Promise<void>}
 */
function verifyRules(module) {
  const script = `try { const m = await import(${JSON.stringify(pathToFileURL(module).href)}); await m.verifyBuiltinRules(); } catch (err) { process.stderr.write(String(err?.message ?? err)); process.exit(1); }`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (/** @type {Buffer} */ c) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolvePromise();
      reject(new Error(`The command line was not built: checking the classifier's rule examples failed (${signal ?? `exit ${code}`}):\n${stderr.trim()}`));
    });
  });
}

/**
 * Removes build directories other than the current and the previous one (a daemon may still run from it).
 * @param {string} root
 * @param {(string | undefined)[]} keep
 */
function pruneBuilds(root, keep) {
  for (const entry of readdirSync(join(root, 'out'))) {
    const m = /^cli-(.+)$/.exec(entry);
    if (m && !keep.includes(m[1])) rmSync(join(root, 'out', entry), { recursive: true, force: true });
  }
}

// `node bin/cli-bundle.js` (part of `npm run build`): build it now, whatever its state.
if (process.argv[1] && resolve(process.argv[1]) === THIS_FILE) {
  try {
    const entry = await ensureCliBundle({ force: true });
    process.stderr.write(`threshold: built the command line into ${relative(REPO_ROOT, dirname(entry))}\n`);
  } catch (err) {
    process.stderr.write(`threshold: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
