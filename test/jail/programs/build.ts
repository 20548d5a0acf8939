// Builds the side-door test program for a jail fixture: outside /tmp (the jail's /tmp is private) and
// outside the fake home. A C compiler is part of the test machine (.ci/run installs gcc): without one the
// tests fail with the compiler's error, they never skip.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function buildSideDoors(root: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  const program = join(bin, 'side-doors');
  execFileSync('cc', ['-O1', '-Wall', '-o', program, join(import.meta.dirname, 'side-doors.c')], { stdio: 'pipe' });
  return program;
}
