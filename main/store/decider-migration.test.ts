// Migration 15 converts the deciders stored as words before they were kept as data: each old row gets
// back exactly the tagged decider its words were formatted from (a reviewer's older entry keeps its
// words, without the reviewers' names as data), so History groups and filters it like a new one.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { formatDecidedBy, type DecidedBy } from '../../common/decided-by';
import { MIGRATIONS } from './migrations';

const tags: DecidedBy[] = [
  { kind: 'human', surface: 'desktop' },
  { kind: 'human', surface: 'control' },
  { kind: 'remote', via: 'telegram', who: '123456789' },
  { kind: 'remote', via: 'matrix', who: '@me:example.org' },
  { kind: 'grant', grantIds: ['gr_1'] },
  { kind: 'grant', grantIds: ['gr_1', 'gr_2'] },
  { kind: 'level', level: 'auto-edit' },
  { kind: 'rule', on: 'tool', tool: 'web_fetch', value: 'allow' },
  { kind: 'rule', on: 'effect', effect: 'network', value: 'auto' },
  { kind: 'rule', on: 'effects_auto' },
  { kind: 'earlier_approval', approvalId: 'ap_1', via: 'approve_session' },
  { kind: 'earlier_approval', approvalId: 'ap_2', via: 'follow_up' },
  { kind: 'session_approve_all' },
  { kind: 'floor', floor: 'hardline' },
  { kind: 'safety', reason: 'parse_error' },
  { kind: 'tool', problem: 'invalid_args' },
  { kind: 'timeout' },
  { kind: 'turn_stopped' },
  { kind: 'restart' },
  { kind: 'no_approver', why: 'unattended_turn' },
  { kind: 'no_approver', why: 'no_approver_surface' },
];

function migrated(words: (string | null)[]): (DecidedBy | null)[] {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE tool_calls (decided_by TEXT); CREATE TABLE approvals (decided_by TEXT);');
  const insert = db.prepare('INSERT INTO tool_calls (decided_by) VALUES (?)');
  for (const w of words) insert.run(w);
  db.exec(MIGRATIONS.find((m) => m.version === 15)!.sql);
  return (db.prepare('SELECT decider FROM tool_calls ORDER BY rowid').all() as { decider: string | null }[]).map((r) => (r.decider ? (JSON.parse(r.decider) as DecidedBy) : null));
}

describe('migration 15: old deciders as data', () => {
  it.each(tags.map((tag) => ({ words: formatDecidedBy(tag), tag })))('"$words" becomes the decider it was written from', ({ words, tag }) => {
    expect(migrated([words])).toEqual([tag]);
  });

  it.each([
    { name: "a reviewer's entry keeps its kind, without the names as data", words: 'reviewer:default(model claude-haiku-4-5)', want: { kind: 'reviewer', reviewers: [] } },
    { name: 'a call not decided yet stays without one', words: null, want: null },
    { name: 'words no formatter ever wrote are left without one', words: 'something:new', want: null },
  ])('$name', ({ words, want }) => {
    expect(migrated([words])).toEqual([want]);
  });
});
