// Runs Doyensec's electronegativity over the Electron app (main/app, the preload and the renderer's
// HTML, where the CSP lives) and returns its findings. The sources are staged in a temporary directory so
// that tests, the renderer's code and node_modules are not scanned; a package.json there names the
// Electron version so the checks that depend on it need no network.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Finding {
  id: string;
  severity: string;
  confidence: string;
  /** The scanned file relative to the repository, or N/A for an app-wide check. */
  file: string;
  line: number;
  description: string;
}

interface RawIssue {
  id: string;
  severity: { name: string };
  confidence: { name: string };
  file: string;
  location: { line: number };
  description: string;
}

type Run = (options: Record<string, unknown>) => Promise<{ issues: RawIssue[]; errors: unknown[] }>;

const ROOT = join(import.meta.dirname, '..', '..');
/** What is scanned: the Electron main-process glue, the preload, and the page the window loads. */
const SCANNED = [
  { dir: 'main/app', keep: (f: string) => f.endsWith('.ts') && !f.endsWith('.test.ts') },
  { dir: 'preload', keep: (f: string) => f.endsWith('.ts') && !f.endsWith('.test.ts') },
  { dir: 'renderer', keep: (f: string) => f.endsWith('.html') },
];

export async function auditElectronApp(): Promise<Finding[]> {
  const stage = mkdtempSync(join(tmpdir(), 'threshold-electronegativity-'));
  try {
    for (const { dir, keep } of SCANNED) {
      mkdirSync(join(stage, dir), { recursive: true });
      for (const f of readdirSync(join(ROOT, dir)).filter(keep)) copyFileSync(join(ROOT, dir, f), join(stage, dir, f));
    }
    const electron = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['electron'];
    writeFileSync(join(stage, 'package.json'), JSON.stringify({ name: 'threshold', devDependencies: { electron } }));
    const run = createRequire(import.meta.url)('@doyensec/electronegativity') as Run;
    const { issues } = await run({ input: stage, electronVersionOverride: electron, isRelative: true, severitySet: 'informational', confidenceSet: 'tentative', customScan: [], excludeFromScan: [] });
    return issues.map((i) => ({ id: i.id, severity: i.severity.name, confidence: i.confidence.name, file: i.file === 'N/A' ? 'N/A' : i.file.replace(/^\/+/, ''), line: i.location.line, description: i.description }));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
