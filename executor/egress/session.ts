// One network-class run's way out: its own proxy (so every refusal belongs to this call and the hosts
// are the ones in force for it), the bridge into its namespace, and what was let through or refused.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { JailViolation } from '../types';
import { startBridge, type Bridge } from './bridge';
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
    private readonly socketPath: string,
  ) {}

  static async open(o: { scratch: string; patterns: readonly string[]; resolve?: (host: string) => Promise<string[]> }): Promise<EgressSession> {
    const socketPath = join(o.scratch, `egress-${randomBytes(6).toString('hex')}.sock`);
    const proxy = new EgressProxy({ patterns: o.patterns, ...(o.resolve ? { resolve: o.resolve } : {}) });
    await proxy.listen({ path: socketPath });
    return new EgressSession(proxy, socketPath);
  }

  /** Called once the jail's launcher has started: bridges its namespace to the proxy. */
  attach(jailRoot: number, isDone: () => boolean): void {
    this.bridge = startBridge({ jailRoot, socketPath: this.socketPath, isDone });
  }

  async close(): Promise<EgressReport> {
    (await this.bridge)?.stop();
    await this.proxy.close();
    rmSync(this.socketPath, { force: true });
    return { allowed: [...this.proxy.allowed], refused: [...this.proxy.refused] };
  }
}

/** Refusals as jail violations: one per host:port, the reason as evidence. */
export function hostViolations(refused: readonly EgressRefusal[]): JailViolation[] {
  const seen = new Set<string>();
  const out: JailViolation[] = [];
  for (const r of refused) {
    const target = `${r.host}:${r.port}`;
    if (seen.has(target)) continue;
    seen.add(target);
    out.push({ kind: 'host_denied', target, evidence: r.reason, host: { name: r.host, port: r.port, grantable: r.kind === 'not_allowed' } });
  }
  return out;
}
