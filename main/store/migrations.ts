// Numbered migrations. Each runs once, in order, inside a transaction; PRAGMA user_version records the
// last one applied. Never edit a migration that has shipped: add the next one.
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'sessions, calls, approvals, grants, outcomes, audit, settings',
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        title TEXT,
        workspace TEXT,
        created_at INTEGER NOT NULL,
        approve_all_at INTEGER,
        approve_all_approval TEXT
      );
      CREATE TABLE turns (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        kind TEXT NOT NULL CHECK (kind IN ('reactive', 'unattended')),
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        end_reason TEXT
      );
      CREATE INDEX turns_session ON turns(session_id, started_at);
      CREATE TABLE tool_calls (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        turn_id TEXT REFERENCES turns(id),
        tool TEXT NOT NULL,
        args_redacted TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        cwd TEXT,
        class TEXT,
        effects TEXT,
        decision TEXT,
        decided_by TEXT,
        explanation TEXT,
        state TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX tool_calls_session ON tool_calls(session_id, created_at);
      CREATE TABLE approvals (
        id TEXT PRIMARY KEY,
        call_id TEXT NOT NULL REFERENCES tool_calls(id),
        session_id TEXT NOT NULL REFERENCES sessions(id),
        turn_id TEXT REFERENCES turns(id),
        tool TEXT NOT NULL,
        args_redacted TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        class TEXT NOT NULL,
        effects TEXT NOT NULL,
        reason TEXT NOT NULL,
        segment TEXT,
        floor TEXT,
        outcomes TEXT NOT NULL,
        proposed_grant TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        owner TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'decided')),
        outcome TEXT CHECK (outcome IS NULL OR outcome IN
          ('approve_once', 'approve_session', 'approve_always', 'approve_all_session', 'skip', 'deny', 'expired', 'cancelled', 'no_approver')),
        decided_at INTEGER,
        decided_by TEXT,
        note TEXT,
        grant_ids TEXT,
        follow_up TEXT CHECK (follow_up IS NULL OR follow_up IN ('awaiting', 'consumed')),
        CHECK ((status = 'pending') = (outcome IS NULL))
      );
      CREATE INDEX approvals_pending ON approvals(status, created_at);
      CREATE INDEX approvals_by_decision ON approvals(status, decided_at);
      CREATE INDEX approvals_by_outcome ON approvals(status, outcome, decided_at);
      CREATE INDEX approvals_by_session ON approvals(session_id, status, decided_at);
      CREATE INDEX approvals_by_tool ON approvals(status, tool, decided_at);
      CREATE INDEX approvals_session_hash ON approvals(session_id, content_hash);
      CREATE TABLE grants (
        id TEXT PRIMARY KEY,
        tool TEXT NOT NULL,
        pattern TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('session', 'until', 'always')),
        session_id TEXT,
        expires_at INTEGER,
        source TEXT NOT NULL,
        source_session_id TEXT,
        source_call_id TEXT,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        use_count INTEGER NOT NULL DEFAULT 0,
        revoked_at INTEGER,
        note TEXT
      );
      CREATE TABLE outcomes (
        call_id TEXT PRIMARY KEY REFERENCES tool_calls(id),
        status TEXT NOT NULL,
        exit_code INTEGER,
        signal TEXT,
        duration_ms INTEGER,
        error TEXT,
        recorded_at INTEGER NOT NULL
      );
      CREATE TRIGGER outcomes_write_once BEFORE UPDATE ON outcomes
        BEGIN SELECT RAISE(ABORT, 'the execution outcome of this call is already recorded'); END;
      CREATE TABLE audit (
        seq INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        session_id TEXT,
        subject TEXT,
        data TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_kind ON audit(kind, seq);
      CREATE TRIGGER audit_append_only BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit history is append-only'); END;
      CREATE TABLE audit_checkpoints (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        upto_seq INTEGER NOT NULL,
        upto_hash TEXT NOT NULL,
        removed INTEGER NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        signature TEXT NOT NULL
      );
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'checkpoints and granted jail paths',
    sql: `
      CREATE TABLE checkpoints (
        id TEXT PRIMARY KEY,
        workspace TEXT NOT NULL,
        session_id TEXT,
        call_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('before_call', 'before_restore', 'manual')),
        commit_sha TEXT NOT NULL,
        tree_sha TEXT NOT NULL,
        files INTEGER NOT NULL,
        excluded TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        restored_at INTEGER
      );
      CREATE INDEX checkpoints_by_workspace ON checkpoints(workspace, created_at);
      CREATE INDEX checkpoints_by_call ON checkpoints(call_id);
      CREATE TABLE jail_paths (
        path TEXT NOT NULL,
        access TEXT NOT NULL CHECK (access IN ('write', 'read', 'code')),
        scope TEXT NOT NULL CHECK (scope IN ('session', 'always')),
        session_id TEXT,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER,
        PRIMARY KEY (path, access, scope, session_id)
      );
    `,
  },
  {
    version: 3,
    name: 'transcripts and approval previews',
    sql: `
      CREATE TABLE messages (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        seq INTEGER NOT NULL,
        turn_id TEXT,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'note')),
        content TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      ALTER TABLE approvals ADD COLUMN preview TEXT;
      ALTER TABLE sessions ADD COLUMN updated_at INTEGER;
    `,
  },
  {
    version: 4,
    name: 'the call that carried out an approved orphan',
    sql: `
      ALTER TABLE approvals ADD COLUMN follow_up_call_id TEXT;
    `,
  },
  {
    version: 5,
    name: 'call states as one state machine: the model\'s call id, and calls cut short found fast',
    sql: `
      ALTER TABLE tool_calls ADD COLUMN model_call_id TEXT;
      CREATE INDEX tool_calls_state ON tool_calls(state);
      CREATE INDEX tool_calls_model_call ON tool_calls(session_id, model_call_id);
    `,
  },
  {
    version: 6,
    name: 'keyed audit chain and the index that verifies history against it',
    sql: `
      CREATE TABLE audit_keying (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        keyed_from INTEGER NOT NULL,
        at INTEGER NOT NULL,
        mac TEXT NOT NULL
      );
      CREATE TRIGGER audit_keying_fixed BEFORE UPDATE ON audit_keying
        BEGIN SELECT RAISE(ABORT, 'the audit keying record is written once'); END;
      CREATE INDEX audit_subject ON audit(subject, kind);
    `,
  },
  {
    version: 7,
    name: 'the history of every call: listed newest first, by tool and by session, with its approval found by call',
    sql: `
      CREATE INDEX tool_calls_history ON tool_calls(created_at, id);
      CREATE INDEX tool_calls_history_tool ON tool_calls(tool, created_at, id);
      CREATE INDEX tool_calls_history_session ON tool_calls(session_id, created_at, id);
      CREATE INDEX approvals_by_call ON approvals(call_id);
    `,
  },
  {
    version: 8,
    name: 'the reviewer: an approval carries the review that escalated or approved it',
    sql: `
      ALTER TABLE approvals ADD COLUMN review TEXT;
    `,
  },
  {
    version: 9,
    name: "the Settings page's layer: the level set at run time becomes its first key",
    sql: `
      UPDATE settings SET key = 'ui:autonomy.level' WHERE key = 'level'
        AND NOT EXISTS (SELECT 1 FROM settings WHERE key = 'ui:autonomy.level');
      DELETE FROM settings WHERE key = 'level';
    `,
  },
  {
    version: 10,
    name: 'host grants: hosts the user allowed the egress proxy to reach after a refusal',
    sql: `
      CREATE TABLE host_grants (
        pattern TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('session', 'until', 'always')),
        session_id TEXT NOT NULL DEFAULT '',
        expires_at INTEGER,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER,
        CHECK ((scope = 'until') = (expires_at IS NOT NULL))
      );
      CREATE INDEX host_grants_live ON host_grants(revoked_at, scope);
    `,
  },
  {
    version: 11,
    name: "decision integrity: who wrote a message (the person or Threshold), and which checkpoint a restore's undo point belongs to",
    sql: `
      ALTER TABLE messages ADD COLUMN origin TEXT CHECK (origin IS NULL OR origin = 'threshold');
      UPDATE messages SET origin = 'threshold'
        WHERE role = 'user' AND json_valid(content)
          AND json_extract(content, '$.content') LIKE '[Threshold] While Threshold was restarting, your call %';
      ALTER TABLE checkpoints ADD COLUMN restore_of TEXT;
      CREATE INDEX checkpoints_by_restore ON checkpoints(restore_of);
    `,
  },
  {
    version: 12,
    name: 'an approval for the session can be revoked',
    sql: `
      ALTER TABLE approvals ADD COLUMN session_revoked_at INTEGER;
    `,
  },
  {
    version: 13,
    name: 'where a call came from (the agent, ctl, another tool), and the parts of a command its card shows first',
    sql: `
      ALTER TABLE tool_calls ADD COLUMN origin TEXT;
      ALTER TABLE approvals ADD COLUMN origin TEXT;
      ALTER TABLE approvals ADD COLUMN parts TEXT;
    `,
  },
  {
    version: 14,
    name: 'approvers away from the desk: the buttons sent to chat bridges, the messages to edit, paired phones',
    sql: `
      CREATE TABLE remote_tokens (
        id TEXT PRIMARY KEY,
        approval_id TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        outcome TEXT NOT NULL,
        bridge TEXT NOT NULL,
        audience TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        mac TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        used_at INTEGER,
        used_by TEXT
      );
      CREATE INDEX remote_tokens_approval ON remote_tokens(approval_id, bridge, outcome);
      CREATE TABLE remote_messages (
        approval_id TEXT NOT NULL,
        bridge TEXT NOT NULL,
        audience TEXT NOT NULL,
        message_id TEXT NOT NULL,
        sent_at INTEGER NOT NULL,
        final_at INTEGER,
        PRIMARY KEY (approval_id, bridge)
      );
      CREATE INDEX remote_messages_ref ON remote_messages(bridge, message_id);
      CREATE TABLE paired_devices (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER,
        revoked_at INTEGER
      );
    `,
  },
  {
    version: 15,
    name: 'who decided, as data: the tagged decider beside its stored words',
    // Rows written before are converted once from the words formatDecidedBy wrote (common/decided-by.ts);
    // from here on the lifecycle writes both, and logic reads only the data. A reviewer's older entry
    // keeps its words, without the reviewers' names as data.
    sql: `
      ALTER TABLE tool_calls ADD COLUMN decider TEXT;
      ALTER TABLE approvals ADD COLUMN decider TEXT;
      UPDATE tool_calls SET decider = ${legacyDecider('decided_by')} WHERE decided_by IS NOT NULL;
      UPDATE approvals SET decider = ${legacyDecider('decided_by')} WHERE decided_by IS NOT NULL;
    `,
  },
];

/** The schema from which the audit chain is keyed (main/store/audit-repo.ts ensureKeyed). */
export const KEYED_AUDIT_SCHEMA = 6;

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The tagged decider (JSON) a stored decider's words were formatted from: for migration 15 only. */
function legacyDecider(x: string): string {
  const after = (prefix: string) => `substr(${x}, ${prefix.length + 1})`;
  // For `<prefix><a>:<b>`: the part before the next colon, and the part after it.
  const head = (prefix: string) => `substr(${x}, ${prefix.length + 1}, instr(${after(prefix)}, ':') - 1)`;
  const tail = (prefix: string) => `substr(${x}, ${prefix.length + 1} + instr(${after(prefix)}, ':'))`;
  const beforeEq = (prefix: string) => `substr(${x}, ${prefix.length + 1}, instr(${x}, '=') - ${prefix.length + 1})`;
  const afterEq = `substr(${x}, instr(${x}, '=') + 1)`;
  return `CASE
    WHEN ${x} IN ('desktop', 'web', 'control') THEN json_object('kind', 'human', 'surface', ${x})
    WHEN ${x} = 'ttl' THEN json_object('kind', 'timeout')
    WHEN ${x} IN ('turn_stopped', 'restart', 'session_approve_all') THEN json_object('kind', ${x})
    WHEN ${x} IN ('unattended_turn', 'no_approver_surface') THEN json_object('kind', 'no_approver', 'why', ${x})
    WHEN ${x} LIKE 'level:%' THEN json_object('kind', 'level', 'level', ${after('level:')})
    WHEN ${x} LIKE 'floor:%' THEN json_object('kind', 'floor', 'floor', ${after('floor:')})
    WHEN ${x} LIKE 'safety:%' THEN json_object('kind', 'safety', 'reason', ${after('safety:')})
    WHEN ${x} LIKE 'tool:%' THEN json_object('kind', 'tool', 'problem', ${after('tool:')})
    WHEN ${x} LIKE 'grant:%' THEN json_object('kind', 'grant', 'grantIds', json('["' || replace(${after('grant:')}, ',', '","') || '"]'))
    WHEN ${x} = 'rule:effects=auto' THEN json_object('kind', 'rule', 'on', 'effects_auto')
    WHEN ${x} LIKE 'rule:tool:%' THEN json_object('kind', 'rule', 'on', 'tool', 'tool', ${beforeEq('rule:tool:')}, 'value', ${afterEq})
    WHEN ${x} LIKE 'rule:effect:%' THEN json_object('kind', 'rule', 'on', 'effect', 'effect', ${beforeEq('rule:effect:')}, 'value', ${afterEq})
    WHEN ${x} LIKE 'approval:%' THEN json_object('kind', 'earlier_approval', 'approvalId', ${head('approval:')}, 'via', ${tail('approval:')})
    WHEN ${x} LIKE 'person:%' THEN json_object('kind', 'remote', 'via', ${head('person:')}, 'who', ${tail('person:')})
    WHEN ${x} LIKE 'reviewer:%' THEN json_object('kind', 'reviewer', 'reviewers', json('[]'))
  END`;
}
