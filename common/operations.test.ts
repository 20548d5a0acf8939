import { describe, expect, it } from 'vitest';
import { ALIASES, EVENT_NAMES, OPERATION_NAMES, OPERATIONS, VERBS, parseParams, resolveOperation } from './operations';

describe('the operations table', () => {
  it('names every AppApi verb the renderer uses, each with its operation', () => {
    expect(VERBS).toEqual({
      getInfo: 'app.get_info',
      listPending: 'approval.list_pending',
      listDecisions: 'approval.list_decisions',
      decide: 'approval.decide',
      revealArgs: 'approval.reveal',
      listGrants: 'grant.list',
      createGrant: 'grant.create',
      updateGrant: 'grant.update',
      revokeGrant: 'grant.revoke',
      previewGrant: 'grant.preview',
      listApproveAll: 'approve_all.list',
      listSessionApprovals: 'approval.list_session',
      revokeSessionApproval: 'approval.revoke_session',
      endApproveAll: 'approve_all.end',
      listCalls: 'call.list',
      getCall: 'call.get',
      listGrantSuggestions: 'grant.list_suggestions',
      listAudit: 'audit.list',
      verifyAudit: 'audit.verify',
      listConsentOffers: 'sandbox.list_offers',
      decideConsent: 'sandbox.consent',
      listCheckpoints: 'checkpoint.list',
      getCheckpointDiff: 'checkpoint.diff',
      planRestore: 'checkpoint.plan_restore',
      restoreCheckpoint: 'checkpoint.restore',
      getSettings: 'settings.get',
      setLevel: 'settings.set_level',
      updateSettings: 'settings.update',
      previewPolicy: 'policy.preview',
      setApiKey: 'settings.set_api_key',
      getModel: 'model.get',
      setModel: 'model.set',
      testModel: 'model.test',
      getAgentInfo: 'agent.get_info',
      send: 'agent.send',
      stop: 'agent.stop',
      listSessions: 'agent.list_sessions',
      getTranscript: 'agent.get_transcript',
      getRemoteStatus: 'remote.status',
      configureRemote: 'remote.configure',
      sendRemoteTest: 'remote.send_test',
      setRemoteToken: 'remote.set_token',
      listDevices: 'device.list',
      pairDevice: 'device.pair',
      revokeDevice: 'device.revoke',
      listQuestions: 'question.list',
      answerQuestion: 'question.answer',
      dismissQuestion: 'question.dismiss',
    });
  });

  it('keeps every older control method name working as an alias', () => {
    expect(ALIASES).toEqual({
      'approval.list_recent_decisions': 'approval.list_decisions',
      'approval.follow_ups': 'approval.list_follow_ups',
      'calls.list': 'call.list',
      'calls.get': 'call.get',
      'grants.list': 'grant.list',
      'grants.create': 'grant.create',
      'grants.update': 'grant.update',
      'grants.revoke': 'grant.revoke',
      'checkpoints.list': 'checkpoint.list',
      'checkpoints.diff': 'checkpoint.diff',
      'checkpoints.restore': 'checkpoint.restore',
      'agent.info': 'agent.get_info',
      'agent.sessions': 'agent.list_sessions',
      'agent.transcript': 'agent.get_transcript',
    });
  });

  it('has one canonical name per operation: no alias is also a canonical name', () => {
    expect(Object.keys(ALIASES).filter((a) => OPERATION_NAMES.includes(a as never))).toEqual([]);
  });

  it.each([
    { name: 'a canonical name on the control API', op: 'approval.decide', transport: 'control' as const, expected: 'approval.decide' },
    { name: 'an alias on the control API', op: 'grants.revoke', transport: 'control' as const, expected: 'grant.revoke' },
    { name: 'an alias from the window', op: 'grants.revoke', transport: 'ui' as const, expected: 'grant.revoke' },
    { name: 'submitting a tool call from the window', op: 'approval.request', transport: 'ui' as const, expected: null },
    { name: 'recording an outcome from the window', op: 'approval.record_outcome', transport: 'ui' as const, expected: null },
    { name: "revealing a pending call's arguments over the control socket", op: 'approval.reveal', transport: 'control' as const, expected: null },
    { name: "revealing a pending call's arguments from the window", op: 'approval.reveal', transport: 'ui' as const, expected: 'approval.reveal' },
    { name: 'storing an API key over the control socket', op: 'settings.set_api_key', transport: 'control' as const, expected: null },
    { name: "the web UI's address (with its token) from a browser page", op: 'app.get_web_address', transport: 'ui' as const, expected: null },
    { name: "the web UI's address over the control socket (threshold ctl web)", op: 'app.get_web_address', transport: 'control' as const, expected: 'app.get_web_address' },
    { name: 'a name from Object.prototype', op: 'toString', transport: 'ui' as const, expected: null },
    { name: 'an unknown name', op: 'approval.approve_everything', transport: 'control' as const, expected: null },
  ])('resolves $name to $expected', ({ op, transport, expected }) => {
    expect(resolveOperation(op, transport)).toEqual(expected);
  });

  it.each([
    { name: 'an outcome only the system records', op: 'approval.decide' as const, params: { id: 'ap_1', hash: 'a'.repeat(64), outcome: 'expired' }, message: 'Invalid params for approval.decide: outcome: Invalid option: expected one of "approve_once"|"approve_session"|"approve_always"|"approve_all_session"|"skip"|"deny".' },
    { name: 'an extra field', op: 'grant.revoke' as const, params: { id: 'gr_1', force: true }, message: 'Invalid params for grant.revoke: params: Unrecognized key: "force".' },
    { name: 'params where none are expected', op: 'settings.get' as const, params: { x: 1 }, message: 'Invalid params for settings.get: params: Unrecognized key: "x".' },
    { name: 'a grant pattern of no known kind', op: 'grant.create' as const, params: { tool: 'run_command', pattern: { kind: 'regex', re: '.*' } }, message: "Invalid params for grant.create: pattern.kind: Invalid discriminator value. Expected 'argv' | 'command' | 'path' | 'url' | 'tool'." },
  ])('refuses $name, naming the field', ({ op, params, message }) => {
    expect(parseParams(op, params)).toEqual({ ok: false, error: { code: 'invalid_params', message } });
  });

  it.each([
    { name: 'no params', op: 'approval.list_pending' as const, params: undefined },
    { name: 'empty params (what ctl sends)', op: 'approval.list_pending' as const, params: {} },
    { name: 'a decision with an edited grant', op: 'approval.decide' as const, params: { id: 'ap_1', hash: 'b'.repeat(64), outcome: 'approve_always', grant: { patterns: [{ kind: 'argv', argv: ['npm', 'test'] }], duration: '1h' } } },
  ])('accepts $name', ({ op, params }) => {
    expect(parseParams(op, params)).toEqual({ ok: true, value: params });
  });

  it('lists the events the UI listens to', () => {
    expect(EVENT_NAMES.sort()).toEqual(
      ['approval.decided', 'approval.requested', 'approval.session_revoked', 'approve_all.ended', 'approve_all.started', 'call.output', 'call.state', 'device.paired', 'device.revoked', 'grant.created', 'grant.revoked', 'grant.updated', 'notification.sent', 'question.asked', 'question.closed', 'review.approved', 'review.escalated', 'sandbox.decided', 'sandbox.denied', 'session.note', 'settings.changed', 'turn.ended', 'turn.started', 'turn.text'].sort(),
    );
  });

  it('gives every operation a sentence saying what it does', () => {
    expect(OPERATION_NAMES.filter((n) => !/^[A-Z].*\.$/.test(OPERATIONS[n].summary))).toEqual([]);
  });
});
