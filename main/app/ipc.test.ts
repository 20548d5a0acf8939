import { describe, expect, it } from 'vitest';
import { channels } from '../../common/contract';
import { registerHandlers } from './ipc';

describe('registerHandlers', () => {
  it('answers app.get-info with the name, version and runtime', async () => {
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
    registerHandlers({ handle: (c, f) => handlers.set(c, f) }, { version: '1.2.3', runtime: 'electron' });
    const result = await handlers.get(channels.getInfo)?.({});
    expect(result).toEqual({ ok: true, value: { name: 'Threshold', version: '1.2.3', runtime: 'electron' } });
  });
});
