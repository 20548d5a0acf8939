import { afterEach, describe, expect, it } from 'vitest';
import { testCore } from '../../test/support/core';
import type { ThresholdCore } from '../runtime/core';
import { PAIRING_GUESSES, PAIRING_TTL_MS, PairedDevices } from './devices';

let core: ThresholdCore | null = null;
afterEach(() => {
  core?.dispose();
  core = null;
});

async function setup() {
  let now = 1_000_000;
  core = await testCore();
  const devices = new PairedDevices(core, () => now);
  return { devices, tick: (ms: number) => (now += ms), core };
}

// Each line is a way to pair a device without the person at the desk having just shown the code.
describe('a pairing code', () => {
  it.each([
    { name: 'used once already', act: (d: PairedDevices, code: string) => (d.pair(code, 'first'), d.pair(code, 'second')) },
    { name: 'expired (five minutes)', act: (d: PairedDevices, code: string, tick: (ms: number) => void) => (tick(PAIRING_TTL_MS), d.pair(code, 'late')) },
    { name: 'replaced by a newer one', act: (d: PairedDevices, code: string) => (d.startPairing('desktop'), d.pair(code, 'old code')) },
    { name: `right, after ${PAIRING_GUESSES} wrong guesses`, act: (d: PairedDevices, code: string) => (Array.from({ length: PAIRING_GUESSES }, (_, i) => d.pair(`wrong-${i}`, 'x')), d.pair(code, 'x')) },
    { name: 'the code with a character changed', act: (d: PairedDevices, code: string) => d.pair(code.slice(0, -1) + (code.endsWith('A') ? 'B' : 'A'), 'x') },
    { name: 'the code with something after it', act: (d: PairedDevices, code: string) => d.pair(`${code} `, 'x') },
  ])('$name: refused', async ({ act }) => {
    const { devices, tick } = await setup();
    const { code } = devices.startPairing('desktop');
    const r = act(devices, code, tick);
    expect({ ok: r.ok, status: r.ok ? 0 : r.status }).toEqual({ ok: false, status: 403 });
  });

  it('pairs once with the right code in time; the device token authenticates until revoked, and only its hash is stored', async () => {
    const { devices, core } = await setup();
    const { code } = devices.startPairing('desktop');
    const r = devices.pair(code, '  My\\nphone  ');
    if (!r.ok) throw new Error(r.message);
    const stored = JSON.stringify(core.store.db.prepare('SELECT * FROM paired_devices').all());
    const before = devices.authenticate(r.token);
    devices.revoke(r.device.id, 'desktop');
    expect({ name: r.device.name, before: before?.id === r.device.id, after: devices.authenticate(r.token), paired: devices.paired(r.device.id), tokenStored: stored.includes(r.token), wrongShape: devices.authenticate('x') }).toEqual({ name: 'My\\nphone', before: true, after: null, paired: false, tokenStored: false, wrongShape: null });
  });
});
