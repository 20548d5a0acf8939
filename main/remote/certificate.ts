// The phone page's TLS certificate: made at first use for the configured LAN address with a maintained
// X.509 library (@peculiar/x509 over Node's WebCrypto), an ECDSA P-256 key, the address as its only
// subject alternative name, kept in keys/ (mode 0600). Its SHA-256 fingerprint is what a person compares
// on the phone (docs/remote.md). A certificate for another address, or one near its end, is made anew.
import 'reflect-metadata';
import { createHash, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { ensurePrivateDir } from '../config/dirs';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** Browsers cap a certificate's life (Apple at 398 days); one is made anew a month before its end. */
const LIFE_DAYS = 397;
const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface LanCertificate {
  cert: string;
  key: string;
  /** SHA-256 over the DER, as colon-separated upper-case pairs (how browsers show it). */
  fingerprint: string;
  notAfter: number;
}

export function fingerprintOf(certPem: string): string {
  const der = new NodeX509(certPem).raw;
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)!.join(':');
}

/** Whether a PEM certificate names exactly this IP address and is not near its end. */
function usable(certPem: string, address: string, now: number): boolean {
  try {
    const c = new NodeX509(certPem);
    const ips = (c.subjectAltName ?? '').split(', ').filter((s) => s.startsWith('IP Address:')).map((s) => s.slice('IP Address:'.length).toLowerCase());
    return ips.length === 1 && ips[0] === address.toLowerCase() && Date.parse(c.validTo) - now > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

export async function loadOrCreateLanCertificate(dataDir: string, address: string, now = Date.now()): Promise<LanCertificate> {
  const keys = join(dataDir, 'keys');
  ensurePrivateDir(keys, 'key directory');
  const certFile = join(keys, 'lan-cert.pem');
  const keyFile = join(keys, 'lan-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (usable(cert, address, now)) return { cert, key: readFileSync(keyFile, 'utf8'), fingerprint: fingerprintOf(cert), notAfter: Date.parse(new NodeX509(cert).validTo) };
  }
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keysPair = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as unknown as webcrypto.CryptoKeyPair;
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + LIFE_DAYS * 86_400_000);
  const made = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=Threshold phone page ${address}`,
    notBefore,
    notAfter,
    keys: keysPair,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: address }]),
    ],
  });
  const cert = made.toString('pem');
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keysPair.privateKey as unknown as webcrypto.CryptoKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  // Key first, each file replaced in one rename: a crash leaves the old pair or a key without its certificate (made anew).
  writeFileSync(`${keyFile}.tmp`, key, { mode: 0o600 });
  renameSync(`${keyFile}.tmp`, keyFile);
  writeFileSync(`${certFile}.tmp`, cert, { mode: 0o600 });
  renameSync(`${certFile}.tmp`, certFile);
  return { cert, key, fingerprint: fingerprintOf(cert), notAfter: notAfter.getTime() };
}
