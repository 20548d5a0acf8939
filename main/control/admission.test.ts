// The control socket's budgets as a ledger: which connection is closed or refused, and why.
import { describe, expect, it } from 'vitest';
import { ControlAdmission, type Lease } from './admission';

function ledger() {
  const closed: string[] = [];
  const a = new ControlAdmission({ maxOpening: 2, maxWaiting: 1, maxQuick: 2 });
  const open = (name: string) => a.open(() => closed.push(name));
  return { a, open, closed };
}

describe('the control socket budgets', () => {
  it('closes the oldest opening connection, not the new one', () => {
    const { open, closed } = ledger();
    ['a', 'b', 'c'].forEach(open);
    expect(closed).toEqual(['a']);
  });

  it('refuses a second long request while one waits, but not a quick one', () => {
    const { open } = ledger();
    const x = open('x');
    const y = open('y');
    x.identify();
    y.identify();
    const endX = x.begin(true);
    expect({ x: endX !== null, yLong: y.begin(true) === null, yQuick: y.begin(false) !== null, xAgain: x.begin(true) !== null }).toEqual({ x: true, yLong: true, yQuick: true, xAgain: true });
    endX!();
  });

  it('gives the waiting place back when the long request ends', () => {
    const { open } = ledger();
    const [x, y] = [open('x'), open('y')];
    x.identify();
    y.identify();
    x.begin(true)!();
    expect(y.begin(true)).not.toBeNull();
  });

  it('a subscription holds a waiting place for the life of the connection', () => {
    const { a, open } = ledger();
    const [x, y] = [open('x'), open('y')];
    x.identify();
    y.identify();
    expect({ sub: x.subscribe(), other: y.subscribe(), waiting: a.count('waiting') }).toEqual({ sub: true, other: false, waiting: 1 });
    x.release();
    expect(y.subscribe()).toBe(true);
  });

  it.each([
    { name: 'an idle quick connection is closed to make room', busy: [false, false], identified: true, closed: ['q0'] },
    { name: 'a busy one is spared while an idle one can go', busy: [true, false], identified: true, closed: ['q1'] },
    { name: 'when every quick connection is busy the new one is refused', busy: [true, true], identified: false, closed: [] },
  ])('$name', ({ busy, identified, closed: want }) => {
    const { open, closed } = ledger();
    const quick: Lease[] = busy.map((_, i) => open(`q${i}`));
    quick.forEach((q, i) => {
      q.identify();
      if (busy[i]) q.begin(false);
    });
    const fresh = open('fresh');
    expect({ identified: fresh.identify(), closed }).toEqual({ identified, closed: want });
  });
});
