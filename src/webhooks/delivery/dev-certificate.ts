// Self-signed TLS certificate for local development and tests (the webhook
// listener and the test receiver). Built in pure Node so that neither users
// nor CI need the openssl binary.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import * as der from '../../tls/der.js';
import { ipv6ToBytes } from '../../net/ip-text.js';

export interface DevCertificate {
  /** PEM certificate; also the CA to trust (it signs itself). */
  cert: string;
  /** PEM PKCS#8 private key. */
  key: string;
}

export interface DevCertificateOptions {
  /** DNS names and IP addresses the certificate is valid for. */
  names?: string[];
  validDays?: number;
  commonName?: string;
}

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const OID_COMMON_NAME = '2.5.4.3';
const OID_SUBJECT_ALT_NAME = '2.5.29.17';
const OID_BASIC_CONSTRAINTS = '2.5.29.19';

export const DEFAULT_DEV_NAMES = ['localhost', '127.0.0.1', '::1'];

export function createDevCertificate(options: DevCertificateOptions = {}): DevCertificate {
  const names = options.names ?? DEFAULT_DEV_NAMES;
  const validDays = options.validDays ?? 365;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signatureAlgorithm = der.sequence(der.objectId(ECDSA_WITH_SHA256));
  const name = distinguishedName(options.commonName ?? 'Hafatra development certificate');
  const now = Date.now();
  const tbs = der.sequence(
    der.explicit(0, der.unsignedInteger(Buffer.from([2]))), // X.509 v3
    der.unsignedInteger(positiveSerial()),
    signatureAlgorithm,
    name,
    der.sequence(der.utcTime(new Date(now - 60 * 60 * 1000)), der.utcTime(new Date(now + validDays * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, der.sequence(basicConstraintsCa(), subjectAltNames(names))),
  );
  const signature = sign('sha256', tbs, privateKey); // DER-encoded ECDSA, as X.509 wants
  const certificate = der.sequence(tbs, signatureAlgorithm, der.bitString(signature));
  return {
    cert: toPem('CERTIFICATE', certificate),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function positiveSerial(): Buffer {
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  return serial;
}

function distinguishedName(commonName: string): der.Der {
  return der.sequence(der.set(der.sequence(der.objectId(OID_COMMON_NAME), der.utf8String(commonName))));
}

// CA:TRUE so the one certificate can also be the trust anchor (ca / NODE_EXTRA_CA_CERTS).
function basicConstraintsCa(): der.Der {
  return der.sequence(der.objectId(OID_BASIC_CONSTRAINTS), der.boolean(true), der.octetString(der.sequence(der.boolean(true))));
}

function subjectAltNames(names: string[]): der.Der {
  const entries = names.map((name) => {
    if (isIPv4(name)) return der.implicitPrimitive(7, Buffer.from(name.split('.').map(Number)));
    if (isIPv6(name)) return der.implicitPrimitive(7, ipv6ToBytes(name));
    return der.implicitPrimitive(2, Buffer.from(name, 'ascii'));
  });
  return der.sequence(der.objectId(OID_SUBJECT_ALT_NAME), der.octetString(der.sequence(...entries)));
}

function toPem(label: string, body: Buffer): string {
  const lines = body.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
