// Settings changed at run time, as JSON values: the Settings page's layer of the configuration is the
// rows under `ui:` (main/config/layers.ts knows their keys).
import type { Db } from './db';

export class SettingsRepo {
  constructor(private readonly db: Db) {}

  get<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown, at: number): void {
    this.db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at').run(key, JSON.stringify(value), at);
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
  }

  /** The rows whose keys start with `prefix`, keys whole. */
  withPrefix(prefix: string): Record<string, unknown> {
    const rows = this.db.prepare("SELECT key, value FROM settings WHERE substr(key, 1, length(?)) = ? ORDER BY key").all(prefix, prefix) as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }

  /** Replaces every row under `prefix` with `rows`, in one transaction. */
  replacePrefix(prefix: string, rows: Record<string, unknown>, at: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM settings WHERE substr(key, 1, length(?)) = ?').run(prefix, prefix);
      for (const [key, value] of Object.entries(rows)) this.set(key, value, at);
    })();
  }

  all(): Record<string, unknown> {
    const rows = this.db.prepare('SELECT key, value FROM settings ORDER BY key').all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
  }
}
