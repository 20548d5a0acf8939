// Migration 9: the level an older version stored at run time becomes the Settings page's layer.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db';
import { MIGRATIONS } from './migrations';
import { SettingsRepo } from './settings-repo';

/** A database file as the version before the layer left it (schema 6), with these settings rows. */
function olderDatabase(rows: Record<string, unknown>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'threshold-mig9-')), 'threshold.db');
  const db = new Database(file);
  for (const m of MIGRATIONS.filter((x) => x.version <= 6)) db.exec(m.sql);
  db.pragma('user_version = 6');
  for (const [k, v] of Object.entries(rows)) db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 1)').run(k, JSON.stringify(v));
  db.close();
  return file;
}

describe('migration 9', () => {
  it.each([
    { name: 'a stored level moves into the layer', rows: { level: 'auto-edit' }, expected: { 'ui:autonomy.level': 'auto-edit' } },
    { name: 'nothing stored stays nothing', rows: {}, expected: {} },
    { name: 'other settings are left as they are', rows: { level: 'full', other: 1 }, expected: { 'ui:autonomy.level': 'full', other: 1 } },
  ])('$name', ({ rows, expected }) => {
    const db = openDatabase(olderDatabase(rows));
    try {
      expect(new SettingsRepo(db).all()).toEqual(expected);
    } finally {
      db.close();
    }
  });

  it('replaces the layer in one go: rows under the prefix only', () => {
    const db = openDatabase(olderDatabase({ other: 1 }));
    try {
      const repo = new SettingsRepo(db);
      repo.replacePrefix('ui:', { 'ui:autonomy.level': 'full', 'ui:rules.tools.web_fetch': 'deny' }, 2);
      repo.replacePrefix('ui:', { 'ui:rules.tools.web_fetch': 'ask' }, 3);
      expect({ all: repo.all(), layer: repo.withPrefix('ui:') }).toEqual({ all: { other: 1, 'ui:rules.tools.web_fetch': 'ask' }, layer: { 'ui:rules.tools.web_fetch': 'ask' } });
    } finally {
      db.close();
    }
  });
});
