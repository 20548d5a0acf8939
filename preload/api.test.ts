import { describe, expect, it } from 'vitest';
import { VERBS } from '../common/operations';
import { createApi } from './api';

describe('the preload API', () => {
  it('maps each verb to its operation with its one payload', async () => {
    const calls: [string, unknown][] = [];
    const api = createApi(async (operation, params) => (calls.push([operation, params]), { ok: true, value: null }), () => () => {});
    await api.decide({ id: 'ap_1', hash: 'a'.repeat(64), outcome: 'skip' });
    await api.getSettings();
    await api.previewGrant({ tool: 'run_command', patterns: [{ kind: 'argv', argv: ['npm', 'test'] }] });
    expect(calls).toEqual([
      ['approval.decide', { id: 'ap_1', hash: 'a'.repeat(64), outcome: 'skip' }],
      ['settings.get', undefined],
      ['grant.preview', { tool: 'run_command', patterns: [{ kind: 'argv', argv: ['npm', 'test'] }] }],
    ]);
    expect(Object.keys(api).sort()).toEqual([...Object.keys(VERBS), 'onEvent'].sort());
  });
  it('onEvent returns an unsubscribe function', () => {
    let subscribed = 0;
    const api = createApi(async () => null, () => {
      subscribed++;
      return () => subscribed--;
    });
    const off = api.onEvent(() => {});
    expect(subscribed).toBe(1);
    off();
    expect(subscribed).toBe(0);
  });
});
