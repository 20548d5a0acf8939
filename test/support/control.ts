// The control API over a test's core: its methods as the control surface sees them, and its socket server.
import type { Agent } from '../../main/agent/agent';
import type { ControlLimits } from '../../main/control/connection';
import { methodsFor, type ControlMethods } from '../../main/control/methods';
import { startControlServer, type ControlServer } from '../../main/control/server';
import type { SurfaceKind } from '../../main/gate/approvers';
import type { ThresholdCore } from '../../main/runtime/core';
import { createHandlers } from '../../main/runtime/handlers';
import { VERSION } from '../../main/runtime/version';

/** The control methods of a core (`surface` names who decides); without an agent its methods say so. */
export function createMethods(core: ThresholdCore, surface: SurfaceKind = 'control', agent: Agent | null = null): ControlMethods {
  return methodsFor(createHandlers({ version: VERSION, core, agent, surface }));
}

/** The control socket of a core in `dataDir`, as `serve` starts it (without the runtime around it). */
export function serveControl(core: ThresholdCore, dataDir: string, limits: Partial<ControlLimits> = {}): Promise<ControlServer> {
  return startControlServer(dataDir, createHandlers({ version: VERSION, core, surface: 'control' }), (listener) => core.events.onAny(listener), limits);
}
