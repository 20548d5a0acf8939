// One network-class run's way out: its own proxy (so every refusal belongs to this call and the hosts
// are the ones in force for it), the bridge into its namespace, and what was let through or refused.
import { hostPort } from '../../common/hosts';
import type { JailViolation } from '../types';
import { startBridge, type Bridge } from './bridge';
import type { Resolver } from '../net/destination';
import { EgressProxy, type EgressRefusal } from './proxy';

export interface EgressReport {
  /** host:port of every connection let through. */
  allowed: string[];
  refused: EgressRefusal[];
}

export class EgressSession {
  private bridge: Promise<Bridge | null> | null = null;

  private constructor(
    private readonly proxy: EgressProxy,
    /** The loopback port the proxy listens on, for a jail that shares the host's network (macOS); null when bridged into a namespace. */
    readonly port: number | null = null,
  ) {}

  /** `loopback`: listen on the host's loopback now (macOS) instead of waiting to be bridged into the jail's namespace (Linux). */
  static async open(o: { patterns: readonly string[]; resolve?: Resolver; loopback?: boolean }): Promise<EgressSession> {
    const proxy = new EgressProxy({ patterns: o.patterns, ...(o.resolve ? { resolve: o.resolve } : {}) });
    return new EgressSession(proxy, o.loopback ? await proxy.listenLoopback() : null);
  }

  /** Called once the jail's launcher has started: the proxy takes connections on a listener in its namespace. */
  attach(jailRoot: number, isDone: () => boolean): void {
    this.bridge = startBridge({ jailRoot, isDone, adopt: (listener, relay) => this.proxy.adopt(listener, relay) });
  }

  async close(): Promise<EgressReport> {
    (await this.bridge)?.stop();
    await this.proxy.close();
    return { allowed: [...this.proxy.allowed], refused: [...this.proxy.refused] };
  }
}

/** Refusals as jail violations: one per host:port, the reason as evidence. */
export function hostViolations(refused: readonly EgressRefusal[]): JailViolation[] {
  const seen = new Set<string>();
  const out: JailViolation[] = [];
  for (const r of refused) {
    const target = hostPort(r.host, r.port);
    if (seen.has(target)) continue;
    seen.add(target);
    out.push({ kind: 'host_denied', target, evidence: r.reason, host: { name: r.host, port: r.port, grantable: r.kind === 'not_allowed' } });
  }
  return out;
}
