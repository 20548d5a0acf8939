// Builds the remote approvers a config asks for: one bridge per configured chat service whose token is
// found (the OS keychain first in the desktop app, else the environment variable the config names, as
// Settings → Model does for the provider key), the decision tokens under the remote key, and the hub.
// A bridge without a token is not started, and says so in the log and in Settings → Devices.
import type { RemoteCore } from './core-parts';
import type { BridgeName, RemoteBridge } from './bridge';
import type { RemoteConfig } from '../config/remote-settings';
import { DecisionTokens, loadRemoteKey } from './decision-token';
import { RemoteApprovers } from './hub';
import { MatrixBridge } from './matrix';
import { TelegramBridge } from './telegram';

/** Bridge tokens in the OS keychain (the desktop app's; `serve` has none). */
export interface BridgeKeychain {
  read(bridge: BridgeName): string | null;
}

export interface RemoteDeps {
  core: RemoteCore;
  config: RemoteConfig;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  keychain?: BridgeKeychain;
  log?: (line: string) => void;
  /** For tests: the key instead of keys/remote.key. */
  key?: Buffer;
  now?: () => number;
}

/** Where a bridge's token comes from, for Settings → Devices (never the token). */
export function bridgeTokenSource(bridge: BridgeName, d: Pick<RemoteDeps, 'config' | 'env' | 'keychain'>): 'keychain' | 'environment' | 'none' {
  if (d.keychain?.read(bridge)) return 'keychain';
  const env = bridge === 'telegram' ? d.config.telegram?.botTokenEnv : d.config.matrix?.accessTokenEnv;
  return env && d.env[env] ? 'environment' : 'none';
}

function tokenOf(bridge: BridgeName, d: RemoteDeps): string | null {
  const env = bridge === 'telegram' ? d.config.telegram?.botTokenEnv : d.config.matrix?.accessTokenEnv;
  return d.keychain?.read(bridge) || (env ? d.env[env] || null : null);
}

/** The hub with its bridges started, or null when no bridge is configured. */
export function startRemoteApprovers(d: RemoteDeps): RemoteApprovers | null {
  const { core, config } = d;
  if (!config.telegram && !config.matrix) return null;
  const redact = (t: string) => core.redactor.redactTextSync(t);
  const bridges: RemoteBridge[] = [];
  if (config.telegram) {
    const token = tokenOf('telegram', d);
    if (!token) d.log?.(`telegram: no bot token (set ${config.telegram.botTokenEnv}, or store it in Settings → Devices); not started`);
    else {
      core.redactor.addKnownSecret(token);
      bridges.push(new TelegramBridge({ config: config.telegram, token, pollSeconds: config.pollSeconds, redact, log: d.log, now: d.now }));
    }
  }
  if (config.matrix) {
    const token = tokenOf('matrix', d);
    if (!token) d.log?.(`matrix: no access token (set ${config.matrix.accessTokenEnv}, or store it in Settings → Devices); not started`);
    else {
      core.redactor.addKnownSecret(token);
      bridges.push(new MatrixBridge({ config: config.matrix, token, pollSeconds: config.pollSeconds, redact, log: d.log, now: d.now }));
    }
  }
  const tokens = new DecisionTokens(core.store, d.key ?? loadRemoteKey(d.dataDir));
  const hub = new RemoteApprovers({ core, config, tokens, bridges, now: d.now, log: d.log });
  hub.start();
  return hub;
}
