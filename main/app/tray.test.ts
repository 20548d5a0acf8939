import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../common/approvals';
import { shellArgs } from './core-launch';
import { keptRunningNotice, quitSummary, trayView } from './tray';
import { NO_WORK, type Work } from './work';

const card = (id: string) => ({ id }) as PendingApproval;
const work = (w: Partial<Work>): Work => ({ ...NO_WORK, ...w });
const open = { state: 'open', message: null } as const;

describe('the tray', () => {
  it.each([
    ['nothing', open, NO_WORK, 'Threshold', '', 'Nothing waiting or running', 'Quit Threshold'],
    ['two cards', open, work({ pending: [card('a'), card('b')] }), 'Threshold — 2 waiting', '2', '2 waiting', 'Quit Threshold'],
    ['a card, a question and a turn', open, work({ pending: [card('a')], questions: 1, turns: 1 }), 'Threshold — 2 waiting, 1 turn running', '2', '2 waiting, 1 turn running', 'Quit Threshold (stops 1 turn, 1 open question)'],
    ['a command a script started', open, work({ commands: [{ tool: 'run_command', summary: 'make' }] }), 'Threshold — 1 command running', '', '1 command running', 'Quit Threshold (stops 1 running command)'],
    ['restarting', { state: 'restarting', message: 'x' } as const, NO_WORK, 'Threshold — restarting the core…', '', 'Nothing waiting or running', 'Quit Threshold'],
  ])('with %s', (_name, status, w, tooltip, title, line, quit) => {
    const v = trayView(status, w, true);
    expect({ tooltip: v.tooltip, title: v.title, line: (v.items[1] as { label: string }).label, quit: (v.items.at(-1) as { label: string }).label }).toEqual({ tooltip, title, line, quit });
  });

  it('a core that is not the desktop’s is not stopped by Quit, so Quit promises nothing', () => {
    expect((trayView(open, work({ turns: 2 }), false).items.at(-1) as { label: string }).label).toBe('Quit Threshold');
  });

  it('a stopped core: its sentence, and a way to start it again', () => {
    expect(trayView({ state: 'stopped', message: 'Fix this.' }, NO_WORK, true).items).toEqual([
      { label: 'Open Threshold', enabled: true, action: 'open' },
      { label: 'Fix this.', enabled: false, action: null },
      { label: 'Start the core again', enabled: true, action: 'retry' },
      'separator',
      { label: 'Quit Threshold', enabled: true, action: 'quit' },
    ]);
  });
});

describe('what closing and quitting say', () => {
  it.each([
    ['nothing alive', NO_WORK, null],
    ['a card', work({ pending: [card('a')] }), { title: 'Threshold keeps running: 1 waiting', body: 'Open it from the tray icon to answer; Quit there stops everything.' }],
    ['a turn', work({ turns: 1 }), { title: 'Threshold keeps running: 1 turn running', body: 'Open it from the tray icon to answer; Quit there stops everything.' }],
  ])('closing the window with %s', (_name, w, notice) => {
    expect(keptRunningNotice(w)).toEqual(notice);
  });

  it.each([
    ['nothing', NO_WORK, { stopped: true, forced: false, pid: 1 }, 'Threshold quit: nothing was running.'],
    ['a turn, two commands and three cards', work({ turns: 1, commands: [{ tool: 'run_command', summary: 'a' }, { tool: 'run_command', summary: 'b' }], pending: [card('a'), card('b'), card('c')] }), { stopped: true, forced: false, pid: 1 }, 'Threshold quit: it stopped 1 turn and 2 running commands; 3 approvals stay waiting for the next start.'],
    ['a core that had to be killed', work({ commands: [{ tool: 'run_command', summary: 'a' }] }), { stopped: true, forced: true, pid: 1 }, 'Threshold quit: it stopped 1 running command. The core did not stop in time and was killed.'],
    ['a core started elsewhere', work({ turns: 1 }), { stopped: false, forced: false, pid: 42 }, 'Threshold quit; the core serving /d (pid 42) was started outside the desktop app and keeps running.'],
  ])('Quit with %s', (_name, w, report, summary) => {
    expect(quitSummary(w, report, '/d')).toEqual(summary);
  });
});

describe('the shell’s command line', () => {
  it.each([
    ['nothing', [], { dataDir: null, serveArgs: [] }],
    ['serve’s options, both spellings', ['--demo', '--config', 'a.toml', '--workspace=/w', '--data-dir', '/d'], { dataDir: '/d', serveArgs: ['--demo', '--config', 'a.toml', '--workspace', '/w'] }],
    ['Chromium’s own switches are left alone', ['--no-sandbox', '--enable-logging', '--ozone-platform=wayland', '--no-agent'], { dataDir: null, serveArgs: ['--no-agent'] }],
    ['a flag with a value is not a flag', ['--demo=1'], { dataDir: null, serveArgs: [] }],
    ['an option without its value at the end', ['--config'], { dataDir: null, serveArgs: [] }],
  ])('%s', (_name, argv, expected) => {
    expect(shellArgs(argv)).toEqual(expected);
  });
});
