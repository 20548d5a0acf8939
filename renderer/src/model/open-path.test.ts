import { describe, expect, it } from 'vitest';
import { openFacts } from './open-path';

describe("an open_path card reads the gate's observations from the preview", () => {
  it.each([
    ['all three facts', 'real path: /home/u/Docs/report.pdf\napplication: org.gnome.Evince.desktop\ntype: application/pdf', { realPath: '/home/u/Docs/report.pdf', application: 'org.gnome.Evince.desktop', mime: 'application/pdf' }],
    ['the real path only (the system cannot say which application)', 'real path: /home/u/a b.txt', { realPath: '/home/u/a b.txt', application: null, mime: null }],
    ['nothing (no preview)', null, { realPath: null, application: null, mime: null }],
  ])('%s', (_n, preview, expected) => {
    expect(openFacts(preview)).toEqual(expected);
  });
});
