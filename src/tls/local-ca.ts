import { createPrivateKey, createPublicKey, generateKeyPair, X509Certificate, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { distinguishedName, issueCertificate, toPem, type Issuer } from './certificate.js';

const generateRsa = promisify(generateKeyPair);
const DAY_MS = 86_400_000;

/** The CA phones install once: made on first use, then the same one for every later start. */
export interface LocalCa extends Issuer {
  /** The CA certificate, DER: what a phone installs. */
  certificate: Buffer;
  /** SHA-256 fingerprint as Android's certificate details show it (AA:BB:...). */
  fingerprint: string;
}

export const tlsDir = (dataDir: string): string => join(dataDir, 'tls');

/** An RSA 2048 key: accepted by every Android since 5, which the app's minSdk reaches. */
export async function newRsaKey(): Promise<KeyObject> {
  const { privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
  return privateKey;
}

const pemBlocks = (text: string, label: string): string[] => text.match(new RegExp(`-----BEGIN ${label}-----[^-]+-----END ${label}-----`, 'g')) ?? [];

function readCa(text: string): LocalCa {
  const [keyPem] = pemBlocks(text, 'PRIVATE KEY');
  const [certPem] = pemBlocks(text, 'CERTIFICATE');
  if (!keyPem || !certPem) throw new Error('the local CA file holds no key or no certificate');
  const cert = new X509Certificate(certPem);
  const commonName = /^CN=(.*)$/m.exec(cert.subject)?.[1];
  if (!commonName) throw new Error('the local CA certificate has no common name');
  const privateKey = createPrivateKey(keyPem);
  return { name: distinguishedName(commonName), privateKey, publicKey: createPublicKey(privateKey), certificate: cert.raw, fingerprint: cert.fingerprint256 };
}

/**
 * `<dataDir>/tls/local-ca.pem` (key and certificate, readable by the owner only), created once.
 * Several processes starting together agree on one: each writes its own candidate and links it
 * into place, which fails for all but the first; the others read the winner.
 */
export async function loadOrCreateLocalCa(dataDir: string, now = new Date()): Promise<LocalCa> {
  const dir = tlsDir(dataDir);
  const file = join(dir, 'local-ca.pem');
  const existing = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
  if (existing !== null) return readCa(existing);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const privateKey = await newRsaKey();
  const publicKey = createPublicKey(privateKey);
  const commonName = `Hafatra local CA ${hostname()} ${now.toISOString().slice(0, 10)}`;
  const self: Issuer = { name: distinguishedName(commonName), privateKey, publicKey };
  const certificate = issueCertificate({ commonName, altNames: [], notBefore: new Date(now.getTime() - DAY_MS), notAfter: new Date(now.getTime() + 20 * 365 * DAY_MS), isCa: true, publicKey }, self);
  const candidate = `${file}.${process.pid}.tmp`;
  await writeFile(candidate, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() + toPem(certificate), { mode: 0o600 });
  try {
    await link(candidate, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(candidate).catch(() => undefined);
  }
  return readCa(await readFile(file, 'utf8'));
}
