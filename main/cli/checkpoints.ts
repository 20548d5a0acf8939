// `threshold checkpoints`: list the workspace checkpoints, see what a call changed, restore.
import { parseArgs } from 'node:util';
import { CheckpointError, CheckpointService, type CheckpointView, type RestorePlan } from '../calls/checkpoints';
import { Store } from '../store/store';
import { resolveDataDir, UsageError, type CliIo } from './context';

const USAGE = 'usage: threshold checkpoints [--data-dir DIR] [--json] <list [--workspace DIR] | diff ID | plan ID | restore ID>';

export async function checkpointsCli(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, json: { type: 'boolean' }, workspace: { type: 'string' }, limit: { type: 'string' } }, allowPositionals: true });
  const [command, id, ...extra] = positionals;
  if (!command || extra.length || (command !== 'list' && !id)) throw new UsageError(USAGE);
  const dataDir = resolveDataDir(values['data-dir'], io.env);
  // The store is shared with a running daemon through SQLite (WAL); no core lock is needed to read or restore.
  const store = Store.openDataDir(dataDir);
  const service = new CheckpointService(store, dataDir);
  const json = (v: unknown) => io.stdout.write(JSON.stringify(v, null, 2) + '\n');
  try {
    switch (command) {
      case 'list': {
        const list = service.list(values.workspace, values.limit ? Number(values.limit) : 100);
        if (values.json) json(list);
        else io.stdout.write(renderList(list) + '\n');
        return 0;
      }
      case 'diff': {
        const d = await service.diff(id!);
        if (values.json) json(d);
        else io.stdout.write((d.stat.trim() ? `${d.stat.trimEnd()}\n\n${d.patch}` : 'No changes.\n'));
        return 0;
      }
      case 'plan': {
        const p = await service.plan(id!);
        if (values.json) json(p);
        else io.stdout.write(renderPlan(p) + '\n');
        return 0;
      }
      case 'restore': {
        const r = await service.restore(id!, 'cli');
        if (values.json) json(r);
        else io.stdout.write(`Restored ${r.restored.workspace} to before ${r.restored.call_id ?? r.restored.id}. To undo: threshold checkpoints restore ${r.safety.id}\n`);
        return 0;
      }
      default:
        throw new UsageError(USAGE);
    }
  } catch (err) {
    if (err instanceof CheckpointError) {
      io.stderr.write(`threshold checkpoints: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    store.close();
  }
}

function renderList(list: CheckpointView[]): string {
  if (list.length === 0) return 'No checkpoints.';
  const rows = [['ID', 'KIND', 'WHEN', 'FILES', 'EXCLUDED', 'BEFORE']];
  for (const c of list) {
    const what = c.call ? `${c.call.tool} ${JSON.stringify(c.call.args)}` : c.kind === 'before_restore' ? '(a restore)' : '';
    rows.push([c.id, c.kind, new Date(c.created_at).toISOString(), String(c.files), c.excluded.length ? `${c.excluded.length} (too large)` : '-', what.length > 70 ? what.slice(0, 69) + '…' : what]);
    if (c.restored_at) rows[rows.length - 1]![1] += ' (restored)';
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** What `restore ID` would undo, step by step (the same list the History screen shows before Restore). */
function renderPlan(p: RestorePlan): string {
  const what = (c: CheckpointView) => (c.call ? `${c.call.tool} ${JSON.stringify(c.call.args)}` : c.kind === 'before_restore' ? `the restore of ${c.restore_of ?? 'a checkpoint'}` : c.kind);
  if (!p.files.length) return `Restoring ${p.checkpoint.id} would change nothing: the workspace is as it was before ${what(p.checkpoint)}.`;
  const lines = [`Restoring ${p.checkpoint.id} puts ${p.checkpoint.workspace} back as it was before ${what(p.checkpoint)}, undoing:`];
  for (const s of p.steps) lines.push(`  after ${s.checkpoint.id} (${new Date(s.checkpoint.created_at).toISOString()}) ${what(s.checkpoint)}: ${s.files.map((f) => `${f.path} ${f.change}`).join(', ')}`);
  if (p.more_steps) lines.push(`  … and ${p.more_steps} later checkpoint(s)`);
  if (p.left_alone.length) lines.push(`Left alone (ignored or too large): ${p.left_alone.join(', ')}${p.left_alone_more ? ` and ${p.left_alone_more} more` : ''}`);
  lines.push(`To restore: threshold checkpoints restore ${p.checkpoint.id}`);
  return lines.join('\n');
}
