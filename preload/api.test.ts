import { describe, expect, it } from 'vitest';
import { VERBS } from '../common/contract';
import { createApi } from './api';

describe('the preload API', () => {
  it('maps each verb to its channel with its one payload', async () => {
    const calls: [string, unknown][] = [];
    const api = createApi(async (channel, payload) => (calls.push([channel, payload]), { ok: true, value: null }), () => () => {});
    await api.decide({ id: 'ap_1', hash: 'a'.repeat(64), outcome: 'skip' });
    await api.getSettings();
    expect(calls).toEqual([
      ['approvals.decide', { id: 'ap_1', hash: 'a'.repeat(64), outcome: 'skip' }],
      ['settings.get', undefined],
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
