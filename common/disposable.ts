// Explicit ownership: every listener, timer, server and child process belongs to an owner that disposes
// it. Disposing a store disposes what it holds in reverse order of adding (what was built last depends
// on what was built first), waits for each, and goes on past a failure so nothing is left behind.

export interface Disposable {
  dispose(): void | Promise<void>;
}

export function toDisposable(dispose: () => void | Promise<void>): Disposable {
  return { dispose };
}

export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposing: Promise<void> | null = null;

  get isDisposed(): boolean {
    return this.disposing !== null;
  }

  /** Takes ownership of `item`; adding to a disposed store disposes the item at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposing) void Promise.resolve().then(() => item.dispose()).catch(() => undefined);
    else this.items.push(item);
    return item;
  }

  /** Owns a cleanup function (an unsubscribe, a clearTimeout, a server close). */
  defer(dispose: () => void | Promise<void>): void {
    this.add(toDisposable(dispose));
  }

  /** Disposes everything once; later calls wait for the same run. Rejects with the first failure, after all ran. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      const failures: unknown[] = [];
      for (const item of this.items.splice(0).reverse()) {
        try {
          await item.dispose();
        } catch (err) {
          failures.push(err);
        }
      }
      if (failures.length) throw failures[0];
    })();
    return this.disposing;
  }
}
