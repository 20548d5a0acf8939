// The ledger of connections that have not signed in: which one goes when a cap is reached, and when.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionAdmission, type EvictionReason } from './admission';

class FakeSocket {
  destroyed = false;
  constructor(readonly name: string) {}
  destroy(): void {
    this.destroyed = true;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

function ledger(limits = { perAddress: 2, total: 3, idleMs: 1000, sweepMs: 100 }) {
  const reasons: EvictionReason[] = [];
  return { a: new ConnectionAdmission<FakeSocket>(limits, (r) => reasons.push(r)), reasons };
}

const closed = (list: FakeSocket[]) => list.filter((s) => s.destroyed).map((s) => s.name);
type Steps = (a: ConnectionAdmission<FakeSocket>, s: FakeSocket[]) => void;

describe('who makes room', () => {
  it.each([
    {
      name: 'an address over its cap keeps the new connection and loses the oldest, once the sweep runs',
      steps: ((a, s) => ['x', 'x', 'x'].forEach((addr, i) => a.opened(s[i]!, addr))) as Steps,
      before: [],
      closed: ['s0'],
      reasons: ['per_address'],
    },
    {
      name: 'a connection that was served is spared while one that never finished a request can go',
      steps: ((a, s) => {
        a.opened(s[0]!, 'x');
        a.requestStarted(s[0]!);
        a.requestEnded(s[0]!);
        a.opened(s[1]!, 'x');
        a.opened(s[2]!, 'x');
      }) as Steps,
      before: [],
      closed: ['s1'],
      reasons: ['per_address'],
    },
    {
      name: 'a busy connection is spared while an idle served one can go',
      steps: ((a, s) => {
        for (const i of [0, 1, 2]) {
          a.opened(s[i]!, 'x');
          a.requestStarted(s[i]!);
        }
        a.requestEnded(s[1]!);
      }) as Steps,
      before: [],
      closed: ['s1'],
      reasons: ['per_address'],
    },
    {
      name: 'when every one is busy the oldest goes all the same (the cap holds)',
      steps: ((a, s) => {
        for (const i of [0, 1, 2]) {
          a.opened(s[i]!, 'x');
          a.requestStarted(s[i]!);
        }
      }) as Steps,
      before: [],
      closed: ['s0'],
      reasons: ['per_address'],
    },
    {
      name: 'the total cap takes the oldest from any address at once',
      steps: ((a, s) => ['x', 'y', 'z', 'w'].forEach((addr, i) => a.opened(s[i]!, addr))) as Steps,
      before: ['s0'],
      closed: ['s0'],
      reasons: ['total'],
    },
    {
      name: 'a signed-in connection is never closed to make room, and no longer counts',
      steps: ((a, s) => {
        a.opened(s[0]!, 'x');
        a.signIn(s[0]!);
        a.opened(s[1]!, 'x');
        a.opened(s[2]!, 'x');
      }) as Steps,
      before: [],
      closed: [],
      reasons: [],
    },
  ])('$name', ({ steps, before, closed: want, reasons: wantReasons }) => {
    vi.useFakeTimers();
    const { a, reasons } = ledger();
    const s = Array.from({ length: 4 }, (_, i) => new FakeSocket(`s${i}`));
    steps(a, s);
    const atOnce = closed(s);
    vi.advanceTimersByTime(100);
    expect({ atOnce, closed: closed(s), reasons }).toEqual({ atOnce: before, closed: want, reasons: wantReasons });
  });
});

describe('the idle clock', () => {
  it.each([
    { name: 'a silent connection goes after the idle time', steps: (_a: ConnectionAdmission<FakeSocket>, _s: FakeSocket) => undefined, after: 1001, closed: true },
    { name: 'not before it', steps: (_a: ConnectionAdmission<FakeSocket>, _s: FakeSocket) => undefined, after: 999, closed: false },
    { name: 'a request being answered stops the clock', steps: (a: ConnectionAdmission<FakeSocket>, s: FakeSocket) => a.requestStarted(s), after: 5000, closed: false },
    {
      name: 'the clock starts again after the answer',
      steps: (a: ConnectionAdmission<FakeSocket>, s: FakeSocket) => {
        a.requestStarted(s);
        a.requestEnded(s);
      },
      after: 1001,
      closed: true,
    },
    { name: 'a signed-in connection has no clock', steps: (a: ConnectionAdmission<FakeSocket>, s: FakeSocket) => a.signIn(s), after: 60_000, closed: false },
  ])('$name', ({ steps, after, closed: want }) => {
    vi.useFakeTimers();
    const { a } = ledger();
    const s = new FakeSocket('s');
    a.opened(s, 'x');
    steps(a, s);
    vi.advanceTimersByTime(after);
    expect(s.destroyed).toBe(want);
  });
});
