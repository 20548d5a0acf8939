// The composition root, for the desktop app and for `threshold serve` alike: it builds the core (store,
// gate, executor), the agent, the control server and the web server for one data directory, and owns
// them all through one DisposableStore. Disposing the runtime stops the web and control servers, ends
// running turns (killing their processes) and MCP servers, then closes the store; nothing outlives it.
import { DisposableStore, type Disposable } from '../../common/disposable';
import type { CoreEvent, Result } from '../../common/operations';
import { createAgent, type AgentSetup } from './create-agent';
import type { Agent } from '../agent/agent';
import { DEMO_PROMPT } from '../agent/demo-model';
import type { ThresholdConfig } from '../config/load';
import { KEY_USE_TIMEOUT_MS } from '../../common/desktop-channel';
import type { DesktopChannel } from '../control/desktop-channel';
import { startControlServer, type ControlServer } from '../control/server';
import type { SurfaceKind } from '../gate/approvers';
import { ThresholdCore } from './core';
import type { PathContext } from '../policy/paths';
import type { Store } from '../store/store';
import type { Executor } from '../../executor/run';
import { ensureRendererBundle } from '../web/bundle';
import { startWebServer, type WebServer } from '../web/server';
import { rememberedWebPort, rememberWebPort } from '../web/port';
import { loadWebToken } from '../web/token';
import { ExternalCalls } from '../hooks/external-calls';
import { McpManager } from '../calls/mcp-servers';
import { McpGatewayService } from '../mcp-gateway/service';
import { createHandlers, type Handlers, type Lifetime } from './handlers';
import { historyOf } from './history';
import type { KeyConfirmation } from './key-binding';
import { ModelSettings } from './model-settings';
import { externalParts, gatewayParts } from './parts';
import { startRemoteApprovers } from '../remote';
import { loadOrCreateLanCertificate } from '../remote/certificate';
import { PairedDevices } from '../remote/devices';
import type { RemoteApprovers } from '../remote/hub';
import { phoneHandlers, phoneView } from '../remote/phone';
import { RemoteService, type WritableBridgeKeychain } from '../remote/service';

/**
 * Where the provider's key comes from when it is not in the environment. The OS keychain belongs to the
 * desktop shell (main/app/keychain.ts); the core holds in memory the key the shell hands it over the
 * desktop channel (settings.set_api_key as the desktop surface), never on disk.
 */
export interface Keychain {
  read(): string | null;
  write(key: string): Result<{ stored: true }>;
}

/** The core's end of the desktop keychain: the key the shell last handed over, in memory only. */
export function heldKeychain(): Keychain {
  let key: string | null = null;
  return {
    read: () => key,
    write: (k) => {
      key = k;
      return { ok: true, value: { stored: true } };
    },
  };
}

/** The core's end of the desktop keychain for bridge tokens: what the shell last handed over, in memory only. */
export function heldBridgeKeychain(): WritableBridgeKeychain {
  const tokens = new Map<'telegram' | 'matrix', string>();
  return {
    read: (bridge) => tokens.get(bridge) ?? null,
    write: (bridge, token) => {
      tokens.set(bridge, token);
      return { ok: true, value: { stored: true } };
    },
  };
}

export interface RuntimeOptions {
  dataDir: string;
  config: ThresholdConfig;
  paths: PathContext;
  version: string;
  /** The agent's setup; null: the gate only. */
  agent: Omit<AgentSetup, 'keychain'> | null;
  /** Default: heldKeychain(), filled by a desktop shell when one attaches. */
  keychain?: Keychain;
  /** Chat bridges' tokens from the OS keychain; default: heldBridgeKeychain(), filled by a desktop shell when one attaches. */
  bridgeKeychain?: WritableBridgeKeychain;
  /** Where bridge tokens' environment variables are read (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /**
   * A confirmation before a provider key goes to an endpoint it is not bound to (key-binding.ts), for the
   * desktop surface's handlers of an in-process host (`handlers('desktop')`). The desktop shell's own
   * connection needs none: the core asks the shell over it (main/control/key-use-questions.ts). Absent:
   * `handlers('desktop')` cannot move a key; no other surface ever can.
   */
  confirmKeyUse?: KeyConfirmation;
  /** How long the core waits for the desktop shell's answer to a key question (at most, and by default, 2 min). */
  keyUseTimeoutMs?: number;
  /** Who started this core: a desktop shell (its Quit stops the core) or someone else. */
  launchedBy?: 'desktop' | 'other';
  /** The JSON-RPC control socket (default: as configured). */
  control?: boolean;
  /** Whether the control socket counts as an approver surface (not for an unattended daemon). */
  controlApprover?: boolean;
  /**
   * Web mode; null: off. Port 0 with `stablePort`: the data directory's port (main/web/port.ts), or a new
   * one when it is taken (said in the log); port 0 without it: a random one; any other: exactly that.
   */
  web?: { port: number; stablePort?: boolean; rendererDir?: string; approvers: boolean } | null;
  log: (line: string) => void;
  /** For tests: another executor or an in-memory store. */
  executor?: Executor;
  store?: Store;
}

export interface Runtime extends Disposable {
  readonly core: ThresholdCore;
  readonly agent: Agent | null;
  readonly control: ControlServer | null;
  /** Null when web mode is off or could not start (the reason was logged). */
  readonly web: WebServer | null;
  /** The chat bridges ([remote], docs/remote.md); null when none is configured. */
  readonly remote: RemoteApprovers | null;
  /** Paired phones; null when the phone page is off ([remote.phone] unset, or no web mode). */
  readonly devices: PairedDevices | null;
  /** The operations' handlers as one surface sees them. */
  handlers(surface: SurfaceKind): Handlers;
  /** Takes ownership of something the caller made (a listener, a timer): disposed with the runtime. */
  own<T extends Disposable>(item: T): T;
  /**
   * The demo's tour (--demo): starts once per data directory, when no session exists yet; after a
   * restart its session (and any pending approval) carries on instead. Null when it did not start.
   */
  startDemoTour(): { sessionId: string } | null;
  /** Subscribes to every core event as the typed union. */
  subscribe(listener: (event: CoreEvent) => void): () => void;
  dispose(): Promise<void>;
}

export async function startRuntime(given: RuntimeOptions): Promise<Runtime> {
  const o = { ...given, keychain: given.keychain ?? heldKeychain(), bridgeKeychain: given.bridgeKeychain ?? heldBridgeKeychain() };
  const owned = new DisposableStore();
  try {
    const core = await ThresholdCore.open({ dataDir: o.dataDir, config: o.config, paths: o.paths, executor: o.executor, store: o.store });
    owned.defer(() => core.dispose());
    const agent = o.agent ? createAgent(core, { ...o.agent, keychain: o.keychain ? () => o.keychain!.read() : undefined }) : null;
    if (agent) owned.defer(() => agent.dispose());

    const model = agent ? new ModelSettings({ core, agent, env: o.agent?.env ?? process.env, keychainKey: o.keychain ? () => o.keychain!.read() : undefined, demo: o.agent?.demo }) : undefined;
    // A provider saved on the Model page outlives restarts (the config file is never rewritten); and
    // whichever provider is in force gets only the key bound to it (key-binding.ts).
    model?.apply();
    const setApiKey = o.keychain
      ? (key: string): Result<{ stored: true }> => {
          const stored = o.keychain!.write(key);
          if (stored.ok) {
            core.redactor.addKnownSecret(key);
            // A key entered in the window is for the provider it shows: bound there.
            if (model) {
              const { cfg } = model.provider();
              model.bindKey('keychain', { kind: cfg.kind, base_url: cfg.baseUrl }, 'desktop');
            }
            model?.apply();
          }
          return stored;
        }
      : undefined;
    // Commands the handlers start themselves (approval.request with execute) are killed and awaited
    // before the agent and the core go.
    const lifetime = owned.add(new WorkLifetime());
    let web: WebServer | null = null;
    // Other agents' calls (their hooks): one set of run tickets for every surface.
    const external = owned.add(new ExternalCalls(externalParts(core)));
    // The MCP servers in threshold.toml, for `threshold mcp-gateway`: the agent's own when it runs (one
    // process per server), supervised here.
    let mcpGateway: McpGatewayService | undefined;
    if (Object.keys(o.config.mcpServers).length) {
      let mcp = agent?.mcp;
      if (!mcp) {
        const own = new McpManager(o.config.mcpServers, o.agent?.env ?? process.env);
        core.setMcpTools(() => own.declarations());
        owned.defer(() => own.close());
        mcp = own;
      }
      mcpGateway = owned.add(new McpGatewayService(gatewayParts(core), mcp, o.log));
    }
    // Remote approvers ([remote.telegram], [remote.matrix]): they count as approver surfaces while they run.
    const env = o.env ?? o.agent?.env ?? process.env;
    // The phone page ([remote.phone]): off unless configured, and only with web mode.
    const phoneCfg = o.web ? o.config.remote.phone : null;
    const devices = phoneCfg ? new PairedDevices(core) : null;
    // The bridges as the file and Settings → Devices set them; the service restarts them when the page changes them.
    const remoteService = new RemoteService({
      config: o.config.remote,
      env,
      keychain: o.bridgeKeychain,
      startHub: (config) => startRemoteApprovers({ core, config, dataDir: o.dataDir, env, keychain: o.bridgeKeychain, log: o.log }),
      settings: core.store.settings,
      audit: (kind, data) => core.store.transaction(() => core.store.audit.append({ at: Date.now(), kind, data: core.redactor.redactRecord(data) })),
      devices,
      phone: null,
    });
    owned.defer(() => remoteService.dispose());
    // Only the desktop surface stores a key or may ask a person to move one.
    const handlersWith = (surface: SurfaceKind, confirmKeyUse: KeyConfirmation | undefined) =>
      createHandlers({ version: o.version, core, agent, model, setApiKey: surface === 'desktop' ? setApiKey : undefined, confirmKeyUse: surface === 'desktop' ? confirmKeyUse : undefined, surface, lifetime, webUrl: () => web?.url ?? null, external, mcpGateway, remote: remoteService });
    const handlers = (surface: SurfaceKind) => handlersWith(surface, o.confirmKeyUse);
    const deviceHandlers = (deviceId: string) =>
      phoneHandlers(createHandlers({ version: o.version, core, agent, model, surface: 'phone', person: { kind: 'remote', via: 'phone', who: deviceId }, lifetime }), core, o.config.remote, deviceId);
    const subscribe = (listener: (event: CoreEvent) => void) => core.events.onAny((name, payload) => listener({ name, payload } as CoreEvent));

    // The UI token: what the browser page signs in with and the desktop shell attaches with.
    let uiToken: string | null = null;
    const token = () => {
      if (uiToken === null) {
        uiToken = loadWebToken(o.dataDir);
        // The token never shows in a transcript, the audit history or a log line other than the one that prints it.
        core.redactor.addKnownSecret(uiToken);
      }
      return uiToken;
    };

    let control: ControlServer | null = null;
    if (o.control ?? o.config.controlEnabled) {
      const desktop: DesktopChannel = {
        token: token(),
        // Each attached connection gets its own: its key questions go to that connection alone.
        handlers: (confirmKeyUse) => handlersWith('desktop', confirmKeyUse),
        addApprover: () => core.approvers.add('desktop'),
        keyUseTimeoutMs: Math.min(o.keyUseTimeoutMs ?? KEY_USE_TIMEOUT_MS, KEY_USE_TIMEOUT_MS),
        info: () => ({ pid: process.pid, version: o.version, data_dir: o.dataDir, launched_by: o.launchedBy ?? 'other' }),
      };
      const server = await startControlServer(o.dataDir, handlers('control'), (listener) => core.events.onAny(listener), {}, desktop);
      control = server;
      owned.defer(() => server.close());
      if (o.controlApprover !== false) owned.defer(core.approvers.add('control'));
    }

    if (o.web) {
      try {
        const rendererDir = o.web.rendererDir ?? (await ensureRendererBundle({ log: o.log }));
        const cert = phoneCfg ? await loadOrCreateLanCertificate(o.dataDir, phoneCfg.address) : null;
        const lan =
          phoneCfg && devices && cert
            ? {
                address: phoneCfg.address,
                family: phoneCfg.family,
                port: phoneCfg.port,
                cert: cert.cert,
                key: cert.key,
                devices: {
                  authenticate: (t: string) => devices.authenticate(t),
                  paired: (id: string) => devices.paired(id),
                  pair: (code: string, name: string) => devices.pair(code, name),
                  handlersFor: deviceHandlers,
                  view: (e: CoreEvent) => phoneView(e, o.config.remote),
                  addApprover: o.web.approvers ? () => core.approvers.add('phone') : undefined,
                },
              }
            : undefined;
        const serve = (port: number, withLan: typeof lan) => startWebServer({ port, rendererDir, token: token(), handlers: handlers('web'), subscribe, addApprover: o.web!.approvers ? () => core.approvers.add('web') : undefined, log: o.log, lan: withLan });
        // A phone page that cannot listen (an address this computer does not have) leaves the desk's page up.
        const start = (port: number) =>
          serve(port, lan).catch(async (err: Error) => {
            // The loopback port taken: startOnStablePort picks another. Anything about the LAN address: without the phone page.
            if (!lan || ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && (err as { address?: string }).address !== lan.address)) throw err;
            o.log(`phone page unavailable: ${err.message}`);
            return serve(port, undefined);
          });
        web = owned.add(await startOnStablePort(o.dataDir, o.web, start, o.log));
        if (web.lanOrigin && cert) {
          remoteService.setPhone({ origin: web.lanOrigin, fingerprint: cert.fingerprint });
          o.log(`phone page: ${web.lanOrigin} (certificate SHA-256 ${cert.fingerprint}); pair a phone from Settings → Devices`);
        }
      } catch (err) {
        o.log(`web UI unavailable: ${(err as Error).message}`);
      }
    }

    return {
      core,
      agent,
      control,
      web,
      get remote() {
        return remoteService.hub;
      },
      devices,
      handlers,
      subscribe: (listener) => {
        const off = subscribe(listener);
        owned.defer(off);
        return off;
      },
      own: (item) => owned.add(item),
      startDemoTour: () => {
        if (!agent || !o.agent?.demo || historyOf(core).hasSessions()) return null;
        const turn = agent.send(null, DEMO_PROMPT);
        turn.done.catch(() => undefined);
        return { sessionId: turn.sessionId };
      },
      dispose: () => owned.dispose(),
    } satisfies Runtime;
  } catch (err) {
    await owned.dispose().catch(() => undefined);
    throw err;
  }
}

/**
 * Listens on the data directory's port when asked to keep it (a page left open finds the daemon again),
 * on a new one when that is taken (said in the log, with what to open), and remembers the one in use.
 */
async function startOnStablePort(dataDir: string, web: { port: number; stablePort?: boolean }, start: (port: number) => Promise<WebServer>, log: (line: string) => void): Promise<WebServer> {
  if (web.port !== 0 || !web.stablePort) return start(web.port);
  const remembered = rememberedWebPort(dataDir);
  let server: WebServer;
  try {
    server = await start(remembered ?? 0);
  } catch (err) {
    if (remembered === null || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    server = await start(0);
    log(`web: port ${remembered}, where this data directory's web UI was, is taken by another program; it moved to port ${server.port}. Pages open on ${remembered} cannot reach it: open the new address below (threshold ctl web prints it again).`);
  }
  if (server.port !== remembered) {
    try {
      rememberWebPort(dataDir, server.port);
    } catch (err) {
      log(`web: could not remember port ${server.port} for the next start (${(err as Error).message}); the next start may use another.`);
    }
  }
  return server;
}

/** Aborts the work it tracks when disposed, then waits for it to settle. */
class WorkLifetime implements Lifetime, Disposable {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  readonly signal = this.controller.signal;

  track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    void work.then(
      () => this.running.delete(work),
      () => this.running.delete(work),
    );
    return work;
  }

  async dispose(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled([...this.running]);
  }
}
