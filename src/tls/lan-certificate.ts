import { createPublicKey } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { issueCertificate, toPem } from './certificate.js';
import { lanNames } from './lan-names.js';
import { loadOrCreateLocalCa, newRsaKey, tlsDir, type LocalCa } from './local-ca.js';

const DAY_MS = 86_400_000;

/** What the HTTPS listener loads, and what the dashboard offers phones. */
export interface LanTls {
  /** One PEM file holding the server's key and certificate (uWS reads both from it). */
  file: string;
  ca: LocalCa;
  /** The names and addresses the certificate is valid for. */
  names: string[];
}

/**
 * A fresh server certificate at every start, for the addresses the machine has now (DHCP moves
 * them; the CA, which phones trust, stays). Key and certificate go in one file, replaced
 * atomically, so a process starting beside another never loads one's key with the other's
 * certificate.
 */
export async function prepareLanTls(dataDir: string, extraNames: string[] = [], now = new Date()): Promise<LanTls> {
  const ca = await loadOrCreateLocalCa(dataDir, now);
  const names = lanNames(extraNames);
  const privateKey = await newRsaKey();
  const certificate = issueCertificate(
    {
      commonName: hostname() || names[0]!,
      altNames: names,
      notBefore: new Date(now.getTime() - DAY_MS),
      notAfter: new Date(now.getTime() + 397 * DAY_MS),
      isCa: false,
      publicKey: createPublicKey(privateKey),
    },
    ca,
  );
  const file = join(tlsDir(dataDir), 'lan-server.pem');
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() + toPem(certificate), { mode: 0o600 });
  await rename(temp, file);
  return { file, ca, names };
}
