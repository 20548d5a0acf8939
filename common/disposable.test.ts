import { describe, expect, it } from 'vitest';
import { DisposableStore, toDisposable } from './disposable';

describe('DisposableStore', () => {
  it('disposes in reverse order of adding, waiting for each', async () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.defer(() => void order.push('first'));
    store.add(toDisposable(async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push('second');
    }));
    store.defer(() => void order.push('third'));
    await store.dispose();
    expect(order).toEqual(['third', 'second', 'first']);
  });

  it('goes on past a failure and reports it after all ran', async () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.defer(() => void order.push('a'));
    store.defer(() => {
      throw new Error('boom');
    });
    store.defer(() => void order.push('c'));
    await expect(store.dispose()).rejects.toThrow('boom');
    expect(order).toEqual(['c', 'a']);
  });

  it('disposes once, however often it is asked', async () => {
    let n = 0;
    const store = new DisposableStore();
    store.defer(() => void n++);
    await Promise.all([store.dispose(), store.dispose()]);
    await store.dispose();
    expect({ n, disposed: store.isDisposed }).toEqual({ n: 1, disposed: true });
  });

  it('disposes at once what is added after it was disposed', async () => {
    const store = new DisposableStore();
    await store.dispose();
    let late = false;
    store.defer(() => void (late = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(late).toBe(true);
  });
});
