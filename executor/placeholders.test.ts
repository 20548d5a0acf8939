// The placeholders' bookkeeping on a real folder: what a run made goes when no jail mounts it any more,
// what the user has (or wrote into a placeholder) stays, and a journal left by a killed core is honoured
// at the next start without ever removing something that is not an empty placeholder. The end-to-end
// cases (real jails, serve killed mid-run) are in test/e2e/stop-while-running.test.ts.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Placeholders, placeholderJournalPath } from './placeholders';

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'placeholders-'));
  const ws = join(root, 'ws');
  const data = join(root, 'data');
  mkdirSync(ws);
  mkdirSync(data);
  /** As bwrap makes them: an empty file or an empty folder. */
  const make = (name: string) => {
    const p = join(ws, name);
    if (name.endsWith('/')) mkdirSync(p);
    else writeFileSync(p, '');
    return p.replace(/\/$/, '');
  };
  const journal = placeholderJournalPath(data);
  const listed = () => (existsSync(journal) ? (JSON.parse(readFileSync(journal, 'utf8')) as string[]).sort() : null);
  return { ws, journal, make, listed, at: (n: string) => join(ws, n) };
}

describe('placeholders a run made', () => {
  it('are in the journal before the jail starts, and gone with the journal entry when the run ends', () => {
    const t = setup();
    const ph = new Placeholders(t.journal);
    const created = [t.at('.envrc'), t.at('.git')];
    ph.mount(created, created);
    expect(t.listed()).toEqual(created.sort());
    t.make('.envrc');
    t.make('.git/');
    ph.release(created);
    expect({ envrc: existsSync(t.at('.envrc')), git: existsSync(t.at('.git')), listed: t.listed() }).toEqual({ envrc: false, git: false, listed: [] });
  });

  it('stay while another running jail mounts them, and go when the last one ends', () => {
    const t = setup();
    const ph = new Placeholders(t.journal);
    const p = t.at('.envrc');
    ph.mount([p], [p]);
    t.make('.envrc');
    ph.mount([p], []);
    ph.release([p]);
    expect(existsSync(p)).toBe(true);
    ph.release([p]);
    expect(existsSync(p)).toBe(false);
  });

  it.each([
    { name: 'a file the user had before the run (mounted, not made)', made: false, write: null },
    { name: 'a placeholder file something was written into', made: true, write: 'export X=1\n' },
  ])('never remove $name', ({ made, write }) => {
    const t = setup();
    const ph = new Placeholders(t.journal);
    const p = t.at('.envrc');
    writeFileSync(p, made ? '' : 'users\n');
    ph.mount([p], made ? [p] : []);
    if (write) writeFileSync(p, write);
    ph.release([p]);
    expect({ kept: existsSync(p), listed: t.listed() ?? [] }).toEqual({ kept: true, listed: [] });
  });
});

describe('a journal left by a core that was killed mid-run', () => {
  it('has its empty placeholders removed at the next start, and nothing else', () => {
    const t = setup();
    const emptyFile = t.make('.envrc');
    const emptyDir = t.make('.vscode/');
    const full = join(t.ws, '.gitmodules');
    writeFileSync(full, '[submodule]\n');
    const fullDir = t.make('.git/');
    writeFileSync(join(fullDir, 'HEAD'), 'ref: refs/heads/main\n');
    // Empty, but not a name the jail makes placeholders for: a journal that names it was not written by Threshold.
    const usersEmptyDir = t.make('build/');
    const usersEmptyFile = t.make('.gitkeep');
    writeFileSync(t.journal, JSON.stringify([emptyFile, emptyDir, full, fullDir, usersEmptyDir, usersEmptyFile, '.idea', 42, join(t.ws, 'missing', '.envrc')]));
    const ph = new Placeholders(t.journal);
    expect({
      recovered: [...ph.recovered].sort(),
      kept: [full, fullDir, usersEmptyDir, usersEmptyFile].map(existsSync),
      journal: existsSync(t.journal),
    }).toEqual({ recovered: [emptyDir, emptyFile].sort(), kept: [true, true, true, true], journal: false });
  });

  it.each([
    { name: 'not JSON', text: '{"broken' },
    { name: 'not a list', text: '{"path":"/"}' },
    { name: 'empty', text: '' },
  ])('that is $name removes nothing and does not stop the start', ({ text }) => {
    const t = setup();
    const p = t.make('.envrc');
    writeFileSync(t.journal, text);
    expect(new Placeholders(t.journal).recovered).toEqual([]);
    expect(existsSync(p)).toBe(true);
  });
});
