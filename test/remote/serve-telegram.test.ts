// The contract as other tools see it: `threshold serve` with [remote.telegram] written exactly as the
// issue names its keys (api_base pointed at the loopback fake, the token in THRESHOLD_TELEGRAM_TOKEN), a
// tap in the chat, and `threshold ctl history --json` showing decided_by starting person:telegram:.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../../main/control/client';
import { FakeTelegram } from '../fake-remote/telegram';
import { waitFor } from '../fake-remote/http';
import { ROOT, spawnCli } from '../support/cli';
import { startDaemon, type Daemon } from '../support/daemon';

let tg: FakeTelegram | undefined;
let daemon: Daemon | undefined;
afterAll(async () => {
  await daemon?.kill('SIGTERM');
  await tg?.close();
});

describe('threshold serve with [remote.telegram]', () => {
  it('a tap decides the card, and ctl history --json says person:telegram:<user id>', async () => {
    tg = await FakeTelegram.start();
    const root = mkdtempSync(join(ROOT, '.test-tmp', 'serve-tg-'));
    const dataDir = join(root, 'data');
    const workspace = join(root, 'ws');
    mkdirSync(dataDir, { mode: 0o700 });
    mkdirSync(workspace);
    const config = join(root, 'threshold.toml');
    writeFileSync(config, `[remote]\npoll_seconds = 1\n[remote.telegram]\napi_base = "${tg.base}"\nbot_token_env = "THRESHOLD_TELEGRAM_TOKEN"\nchat_id = 123456789\n`);
    daemon = await startDaemon(dataDir, ['--config', config, '--workspace', workspace, '--no-web', '--no-agent'], { THRESHOLD_TELEGRAM_TOKEN: tg.token, HOME: root });
    const client = await ControlClient.connect(join(dataDir, 'control.sock'));
    const request = client.call('approval.request', { tool: 'run_command', args: { command: 'touch from-telegram.txt' } });
    const m = await waitFor(() => tg!.messages[0], 'the card in the chat', 15_000);
    tg.press(m, m.keyboard[0]![0]!.callback_data);
    const decided = (await request) as { run: boolean; outcome: string };
    client.close();
    const ctl = await spawnCli(['ctl', '--data-dir', dataDir, 'history', '--json'], { env: { HOME: root } });
    const history = JSON.parse(ctl.stdout) as { outcome: string; decided_by: string }[];
    expect({ run: decided.run, outcome: history[0]?.outcome, by: history[0]?.decided_by, token: daemon.log().includes(tg.token) }).toEqual({ run: true, outcome: 'approve_once', by: 'person:telegram:123456789', token: false });
  }, 60_000);
});
