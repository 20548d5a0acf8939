// Settings → Devices as operations: the bridges' state and "Send a test card", pairing a phone (a QR
// code of the phone page's address with a one-time code) and the paired phones. One per runtime.
import QRCode from 'qrcode';
import type { Result } from '../../common/operations';
import type { z } from 'zod';
import type { pairingSchema, remoteStatusSchema } from '../../common/operations';
import type { DeviceView } from '../gate/events';
import type { BridgeName } from './bridge';
import type { RemoteConfig } from '../config/remote-settings';
import type { PairedDevices } from './devices';
import type { RemoteApprovers } from './hub';
import { bridgeTokenSource, type BridgeKeychain } from './index';
import { describeError } from './telegram';
import { endpointChangeProblem, REMOTE_PAGE_SETTING, remotePageSchema, withPage, type RemotePage } from './page-settings';

export type RemoteStatusView = z.output<typeof remoteStatusSchema>;
export type PairingView = z.output<typeof pairingSchema>;

/** Bridge tokens the desktop app can store in the OS keychain. */
export interface WritableBridgeKeychain extends BridgeKeychain {
  write(bridge: BridgeName, token: string): Result<{ stored: true }>;
}

export interface RemoteServiceDeps {
  /** [remote] as the config file says it. */
  config: RemoteConfig;
  env: NodeJS.ProcessEnv;
  keychain?: WritableBridgeKeychain;
  /** Starts the bridges a config asks for (null: none configured). */
  startHub: (config: RemoteConfig) => RemoteApprovers | null;
  /** The settings table, where the page's bridges are kept over the file. */
  settings: { get<T>(key: string): T | undefined; set(key: string, value: unknown, at: number): void };
  audit: (kind: string, data: Record<string, unknown>) => void;
  devices: PairedDevices | null;
  /** The phone page, when it listens. */
  phone: { origin: string; fingerprint: string } | null;
}

const fail = (code: string, message: string) => ({ ok: false as const, error: { code, message } });

export const TEST_MESSAGE = 'Threshold: this is a test message from Settings → Devices. Cards that wait for you will arrive here; there is nothing to decide now.';

export class RemoteService {
  private current: RemoteConfig;
  private running: RemoteApprovers | null;

  constructor(private readonly d: RemoteServiceDeps) {
    const saved = remotePageSchema.safeParse(d.settings.get(REMOTE_PAGE_SETTING) ?? {});
    this.current = withPage(d.config, saved.success ? saved.data : undefined);
    this.running = d.startHub(this.current);
  }

  /** The bridges running now (replaced when the page changes them). */
  get hub(): RemoteApprovers | null {
    return this.running;
  }

  /** [remote] in force: the file's, with the page's bridges over it. */
  get config(): RemoteConfig {
    return this.current;
  }

  /**
   * Settings → Devices changes where cards go: validated as the file is, a new endpoint only from the
   * window, saved over the file, audited, and applied at once (the bridges restart; cards waiting now
   * are sent to the new chat).
   */
  async configure(change: RemotePage, by: string): Promise<Result<RemoteStatusView>> {
    const parsed = remotePageSchema.safeParse(change);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail('invalid_setting', `${issue.path.join('.') || 'change'}: ${issue.message}.`);
    }
    const problem = endpointChangeProblem(this.current, parsed.data, by);
    if (problem) return fail('endpoint_bound', problem);
    const before = remotePageSchema.safeParse(this.d.settings.get(REMOTE_PAGE_SETTING) ?? {});
    const page: RemotePage = { ...(before.success ? before.data : {}), ...parsed.data };
    this.d.settings.set(REMOTE_PAGE_SETTING, page, Date.now());
    this.d.audit('remote.configured', { change: parsed.data, by });
    await this.running?.dispose();
    this.current = withPage(this.d.config, page);
    this.running = this.d.startHub(this.current);
    return { ok: true, value: this.status() };
  }

  async dispose(): Promise<void> {
    await this.running?.dispose();
    this.running = null;
  }

  /** The phone page's origin and certificate, once it listens. */
  setPhone(phone: { origin: string; fingerprint: string }): void {
    this.d.phone = phone;
  }

  status(): RemoteStatusView {
    const config = this.current;
    const bridges: RemoteStatusView['bridges'] = [];
    for (const name of ['telegram', 'matrix'] as const) {
      const cfg = name === 'telegram' ? config.telegram : config.matrix;
      if (!cfg) continue;
      const running = this.running?.bridges.find((b) => b.name === name);
      const s = running?.status();
      bridges.push({
        name,
        audience: name === 'telegram' ? String(config.telegram!.chatId) : config.matrix!.roomId,
        endpoint: name === 'telegram' ? config.telegram!.apiBase : config.matrix!.homeserver,
        person: name === 'matrix' ? config.matrix!.userId : null,
        token_source: bridgeTokenSource(name, { config, env: this.d.env, keychain: this.d.keychain }),
        token_env: name === 'telegram' ? config.telegram!.botTokenEnv : config.matrix!.accessTokenEnv,
        state: s?.state ?? 'not_started',
        error: s?.error ?? (running ? null : 'No token was found at start, so this bridge is not running.'),
        last_ok_at: s?.last_ok_at ?? null,
      });
    }
    return { max_class: config.maxClass, content: config.content, bridges, phone: this.d.phone };
  }

  async sendTest(bridge: BridgeName): Promise<Result<{ sent: true; message_id: string }>> {
    const running = this.running?.bridges.find((b) => b.name === bridge);
    if (!running) {
      const configured = bridge === 'telegram' ? this.current.telegram : this.current.matrix;
      return fail('bridge_not_running', configured ? `${bridge === 'telegram' ? 'Telegram' : 'Matrix'} is not running: no token was found when Threshold started. Set it, then restart Threshold.` : `${bridge === 'telegram' ? 'Telegram' : 'Matrix'} is not set up: add [remote.${bridge}] to threshold.toml (docs/remote.md).`);
    }
    try {
      const sent = await running.send({ approvalId: 'test', text: TEST_MESSAGE, buttons: [] });
      return { ok: true, value: { sent: true, message_id: sent.messageId } };
    } catch (err) {
      return fail('bridge_failed', `The test message did not arrive: ${describeError(err)}.`);
    }
  }

  setToken(bridge: BridgeName, token: string): Result<{ stored: true }> {
    if (!this.d.keychain) return fail('keychain_unavailable', `This Threshold has no OS keychain; set the token in the environment variable ${bridge === 'telegram' ? (this.current.telegram?.botTokenEnv ?? 'THRESHOLD_TELEGRAM_TOKEN') : (this.current.matrix?.accessTokenEnv ?? 'THRESHOLD_MATRIX_TOKEN')} before starting it.`);
    const stored = this.d.keychain.write(bridge, token);
    // The bridge starts (or restarts) with the new token at once.
    if (stored.ok) void this.restart();
    return stored;
  }

  private async restart(): Promise<void> {
    await this.running?.dispose();
    this.running = this.d.startHub(this.current);
  }

  async pair(by: string): Promise<Result<PairingView>> {
    if (!this.d.devices || !this.d.phone) return fail('phone_page_off', 'The phone page is off. Add [remote.phone] address = "<this computer\'s address on your network>" to threshold.toml and restart Threshold (docs/remote.md).');
    const { code, expiresAt } = this.d.devices.startPairing(by);
    const url = `${this.d.phone.origin}/#pair=${code}`;
    const qr_svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { ok: true, value: { url, code, qr_svg, fingerprint: this.d.phone.fingerprint, expires_at: expiresAt } };
  }

  listDevices(includeRevoked = false): Result<DeviceView[]> {
    return { ok: true, value: this.d.devices?.list(includeRevoked) ?? [] };
  }

  revokeDevice(id: string, by: string): Result<DeviceView> {
    if (!this.d.devices) return fail('not_found', `There is no paired device ${id}.`);
    return this.d.devices.revoke(id, by);
  }
}
