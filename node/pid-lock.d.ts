// Types of node/pid-lock.js for the TypeScript that imports it.
export function isAlive(pid: number): boolean;
export function pidLockHolder(file: string, o?: { reclaimOwn?: boolean }): number | null;
export function acquirePidLock(file: string, o?: { reclaimOwn?: boolean }): { release: () => void } | { heldBy: number | null };
