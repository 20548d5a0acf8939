// Folders a checkpoint need not hold because a tool rebuilds them: dependency installs, build outputs
// and caches. At auto-edit, files a checkpoint does not hold (ignored by .gitignore, over the size cap)
// are read-only in the jail, except inside these folders, where a command may change them unprompted.
// Matched by folder name at any depth, only where the folder is ignored (an ignored `build/` is a build
// output; a tracked one is held by the checkpoint anyway). docs/policy.md lists them for users.

export const REGENERABLE_DIRS: readonly string[] = [
  // dependency installs
  'node_modules', 'bower_components', 'jspm_packages', '.pnpm-store', '.yarn', 'vendor', '.venv', 'venv', '.tox', '.nox',
  // build outputs
  'dist', 'build', 'out', 'target', '_build', '.next', '.nuxt', '.output', '.svelte-kit', '.parcel-cache', '.turbo',
  '.vite', '.angular', '.docusaurus', '.expo', 'storybook-static', 'coverage', '.nyc_output', 'cmake-build-debug',
  'cmake-build-release', '.gradle', '.dart_tool', '.build', 'DerivedData', 'zig-cache', 'zig-out', '.stack-work',
  // caches
  '.cache', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.hypothesis', '.eslintcache', '.sass-cache',
  '.terraform', '.serverless', '.webpack',
];

/** File names (outside those folders) that are caches or build products by nature. */
const REGENERABLE_FILE = /(\.pyc|\.pyo|\.o|\.obj|\.class|\.tsbuildinfo|\.eslintcache)$/;

const DIRS = new Set(REGENERABLE_DIRS);

/** True when a workspace-relative path lies in a regenerable folder or is a regenerable file. */
export function isRegenerable(rel: string): boolean {
  const parts = rel.replace(/\/+$/, '').split('/');
  if (parts.some((p) => DIRS.has(p))) return true;
  return REGENERABLE_FILE.test(parts[parts.length - 1] ?? '');
}
