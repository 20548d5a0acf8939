// Types of bin/setup.js for the TypeScript that imports it (tests).
export type Purpose = 'start' | 'test';
export type Manager = 'apt' | 'dnf' | 'brew' | null;
export interface Has {
  onPath(program: string): boolean;
  file(path: string): boolean;
}
export interface Need {
  name: string;
  why: string;
  found(has: Has): boolean;
  apt: string;
  dnf: string;
  brew: string | null;
  for: Purpose[];
}
export type Plan = { kind: 'ok' } | { kind: 'install'; argv: string[][]; packages: string[] } | { kind: 'stop' | 'warn'; line: string };
export const NEEDS: Need[];
export function systemHas(env: NodeJS.ProcessEnv): Has;
export function planSetup(c: { purpose: Purpose; platform: NodeJS.Platform; isRoot: boolean; install: boolean; manager: Manager; has: Has }): Plan;
export function packageManager(has: Has, platform: NodeJS.Platform): Manager;
export function runSetup(argv: string[], env?: NodeJS.ProcessEnv): number;
