// Start-up that never dead-ends: a failure to start becomes one sentence that names the fix, said the
// same way on the terminal (the core's last line) and in the desktop window. Pure text functions, so the
// core and the desktop shell share them.

/** The runtime the core runs on: Node in a development checkout, Electron as Node in a packaged app. */
export interface CoreRuntime {
  kind: 'node' | 'electron';
  /** Its version, when known ("20.19.2"). */
  version: string | null;
}

// Node's own words (src/node_binding.cc) when a native module was built for another ABI; Electron says "Electron".
const MISMATCH = /The module '([^']+)'\s+was compiled against a different Node\.js version using\s+NODE_MODULE_VERSION (\d+)\.\s+This version of (?:Node\.js|Electron) requires\s+NODE_MODULE_VERSION (\d+)/;

/** The package a native module file belongs to ("better-sqlite3"), and the folder holding node_modules. */
function packageOf(file: string): { name: string; root: string | null } {
  const m = /^(.*?)[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
  return m ? { name: m[2]!.replace(/\\/g, '/'), root: m[1] || null } : { name: file, root: null };
}

/**
 * When an error is a native module built for another runtime (a NODE_MODULE_VERSION mismatch), the one
 * sentence that says which and how to fix it; otherwise null.
 */
export function nativeModuleMismatch(text: string, runtime: CoreRuntime): string | null {
  const m = MISMATCH.exec(text);
  if (!m) return null;
  const { name, root } = packageOf(m[1]!);
  const runtimeName = `${runtime.kind === 'node' ? 'Node' : 'Electron'}${runtime.version ? ` ${runtime.version}` : ''}`;
  const fix =
    runtime.kind === 'node'
      ? `run npm rebuild${root ? ` in ${root}` : ''} with that Node (it rebuilds better-sqlite3 and node-pty for it), then start Threshold again`
      : 'reinstall Threshold: its package must carry the native modules electron-builder rebuilt for its own Electron';
  return `The native module ${name} was built for another runtime (NODE_MODULE_VERSION ${m[2]}), but the core runs on ${runtimeName}, which needs NODE_MODULE_VERSION ${m[3]}: ${fix}.`;
}
