// Pairing a phone, end to end in Chromium over HTTPS: the desk's Settings → Devices shows a QR code (read
// back from the page with jsqr), a phone-sized page (390×844) opens it, is named and paired, sees a card
// and approves it once (History says person:phone:<device>); the desk revokes it, its page says so, and
// its next request is refused. The phone page listens on 127.0.0.2 standing in for the LAN address.
import { checkServerIdentity, connect } from 'node:tls';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureRendererBundle } from '../../main/web/bundle';
import { fingerprintOf } from '../../main/remote/certificate';
import { PHONE_ADDRESS, phoneBench, type PhoneBench } from '../support/phone';
import { launch, shot, until } from './support';

let b: PhoneBench;
let browser: Browser;
let deskContext: BrowserContext;
let phoneContext: BrowserContext;
let desk: Page;
let phone: Page;

beforeAll(async () => {
  const rendererDir = await ensureRendererBundle({ log: () => undefined });
  b = await phoneBench({}, { rendererDir });
  browser = await launch();
  deskContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The phone's browser does not know the certificate; the person compares its fingerprint (checked below).
  phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, ignoreHTTPSErrors: true });
  desk = await deskContext.newPage();
  phone = await phoneContext.newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await b?.close();
});

/** The certificate the phone page serves, as a TLS client sees it. */
function servedFingerprint(): Promise<string> {
  const url = new URL(b.origin);
  return new Promise((resolve, reject) => {
    const s = connect({ host: url.hostname, port: Number(url.port), ca: b.cert, checkServerIdentity: (_h, c) => checkServerIdentity(PHONE_ADDRESS, c) }, () => {
      resolve(s.getPeerCertificate().fingerprint256);
      s.end();
    });
    s.on('error', reject);
  });
}

/** Reads the QR code the page shows, as a phone's camera would: its pixels through jsqr. */
async function readQr(page: Page): Promise<string> {
  const img = page.getByTestId('pairing-qr');
  await img.waitFor();
  const { width, height, data } = await img.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const c = document.createElement('canvas');
    c.width = el.naturalWidth * 2;
    c.height = el.naturalHeight * 2;
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.drawImage(el, 0, 0, c.width, c.height);
    const d = ctx.getImageData(0, 0, c.width, c.height);
    return { width: d.width, height: d.height, data: Array.from(d.data) };
  });
  const code = jsQR(Uint8ClampedArray.from(data), width, height);
  if (!code) throw new Error('the QR code could not be read');
  return code.data;
}

describe('pairing a phone, deciding from it, revoking it', () => {
  let qrUrl = '';
  let deviceId = '';

  it('the desk shows a QR code of the phone page with a one-time code, and the fingerprint of the certificate the page serves', async () => {
    await desk.goto(b.runtime.web!.url);
    await desk.getByRole('button', { name: 'Settings' }).click();
    await desk.getByRole('tab', { name: 'Devices' }).click();
    await desk.getByRole('button', { name: 'Pair a phone' }).click();
    qrUrl = await readQr(desk);
    const shownFingerprint = await desk.locator('.pairing code.fingerprint').textContent();
    await shot(desk, 'devices-pair-a-phone');
    expect({ url: qrUrl.startsWith(`${b.origin}/#pair=`), fingerprint: shownFingerprint, served: await servedFingerprint(), file: fingerprintOf(b.cert) }).toEqual({ url: true, fingerprint: fingerprintOf(b.cert), served: fingerprintOf(b.cert), file: fingerprintOf(b.cert) });
  }, 60_000);

  it('the phone opens the code, is named and paired; the code leaves its address bar; the desk lists it', async () => {
    await phone.goto(qrUrl);
    await phone.getByRole('heading', { name: 'Pair this phone with Threshold' }).waitFor();
    expect(phone.url()).not.toContain('pair=');
    await phone.getByLabel('Name this phone').fill('Pixel of Ana');
    await shot(phone, 'phone-pair');
    await phone.getByRole('button', { name: 'Pair this phone' }).click();
    await phone.getByRole('heading', { name: 'Nothing waits for you' }).waitFor();
    await desk.getByTestId('device').filter({ hasText: 'Pixel of Ana' }).waitFor();
    deviceId = b.runtime.devices!.list()[0]!.id;
    expect({ qrGone: await desk.getByTestId('pairing-qr').count(), devices: b.runtime.devices!.list().map((d) => d.name) }).toEqual({ qrGone: 0, devices: ['Pixel of Ana'] });
  }, 60_000);

  it('a card reaches the phone with approve once, skip and deny only; a tap approves it and History says the phone decided', async () => {
    const run = b.runtime.handlers('control')['approval.request']({ tool: 'run_command', args: { command: 'touch approved-from-phone.txt' }, session_id: 'phone-e2e', turn_id: 'pe1', cwd: b.workspace });
    const card = phone.getByRole('region', { name: /Approval request/ });
    await card.waitFor();
    const buttons = await card.getByRole('button').allTextContents();
    await shot(phone, 'phone-card');
    await shot(card, 'phone-card-whole');
    // The card arms itself after it has been seen (a tap that lands as it appears does not decide).
    await phone.waitForTimeout(500);
    await card.getByRole('button', { name: /^Approve once/ }).click();
    const v = await run;
    await phone.getByRole('heading', { name: 'Nothing waits for you' }).waitFor();
    const calls = await b.runtime.handlers('control')['call.list']({ decided_by: 'remote' });
    expect({
      approve: buttons.some((t) => /^Approve once/.test(t)),
      wider: buttons.filter((t) => /session|always|all/i.test(t)),
      run: v.ok && (v.value as { run: boolean }).run,
      by: calls.ok && calls.value.calls.map((c) => c.decided_by),
    }).toEqual({ approve: true, wider: [], run: true, by: [`person:phone:${deviceId}`] });
  }, 60_000);

  it("the desk's History shows the phone's decision as person via phone:<device>, and filters it as a person away from the desk", async () => {
    await desk.getByRole('button', { name: 'History' }).click();
    await desk.getByRole('form', { name: 'Filter calls' }).getByLabel('Decided by', { exact: true }).selectOption('remote');
    const row = desk.locator('li.call-row[data-call-id]').filter({ hasText: 'approved-from-phone' });
    await row.waitFor();
    await shot(desk, 'history-decided-from-phone');
    expect(await row.textContent()).toContain(`person via phone:${deviceId}`);
    await desk.getByRole('button', { name: 'Settings' }).click();
  }, 60_000);

  it('Settings → Devices at 400 and 2560 px: every device listed whole, a disguised name shown with its escapes', async () => {
    const started = await b.runtime.handlers('desktop')['device.pair'](undefined);
    const code = started.ok ? started.value.code : '';
    b.runtime.devices!.pair(code, 'Ana\u202Eenohp');
    for (const width of [400, 2560]) {
      await desk.setViewportSize({ width, height: 900 });
      const row = desk.getByTestId('device').filter({ hasText: 'enohp' });
      await row.waitFor();
      await shot(desk, `devices-list-${width}`);
      const box = await row.boundingBox();
      const revoke = await row.getByRole('button', { name: /^Revoke/ }).boundingBox();
      expect({ text: await row.locator('.device-name').textContent(), inView: !!box && box.x >= 0 && box.x + box.width <= width, revokeInView: !!revoke && revoke.x + revoke.width <= width }).toEqual({ text: 'Ana<RLO>enohp', inView: true, revokeInView: true });
    }
    await desk.setViewportSize({ width: 1280, height: 900 });
  }, 60_000);

  it('revoked at the desk: the phone page says it is no longer paired, and its next request is refused', async () => {
    await desk.getByRole('button', { name: 'Revoke Pixel of Ana' }).click();
    await until('the phone to be told', async () => /not paired \(or was revoked\)/.test((await phone.locator('.connection').textContent()) ?? ''), 20_000);
    await shot(phone, 'phone-revoked');
    const next = await phone.evaluate(async () => (await fetch('/ws')).status);
    const list = await b.runtime.handlers('desktop')['device.list'](undefined);
    expect({ next, listed: list.ok && list.value.map((d) => d.name), audited: b.runtime.core.store.audit.list({ kind: 'device.revoked', limit: 5 }).map((e) => e.subject) }).toEqual({ next: 401, listed: ['Ana\u202Eenohp'], audited: [deviceId] });
  }, 60_000);
});
