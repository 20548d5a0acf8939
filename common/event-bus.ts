// A typed publish/subscribe bus: one listener's failure never stops the others, nor the emitter. Pure, so
// every runtime can use it; the core's bus carries the events of the operations table (common/operations.ts).
export type Listener<P> = (payload: P) => void;

export class EventBus<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();
  private readonly any = new Set<(name: keyof Events, payload: unknown) => void>();

  /** `failed`: told when a listener throws (the core turns it into a process warning). */
  constructor(private readonly failed: (err: unknown) => void = () => undefined) {}

  on<K extends keyof Events>(name: K, fn: Listener<Events[K]>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(fn as Listener<never>);
    return () => set.delete(fn as Listener<never>);
  }

  onAny(fn: (name: keyof Events, payload: unknown) => void): () => void {
    this.any.add(fn);
    return () => this.any.delete(fn);
  }

  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    for (const fn of this.listeners.get(name) ?? []) this.safely(() => (fn as Listener<Events[K]>)(payload));
    for (const fn of this.any) this.safely(() => fn(name, payload));
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.failed(err);
    }
  }
}
