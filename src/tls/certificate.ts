import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { ipv6ToBytes } from '../net/ip-text.js';
import * as der from './der.js';

/** What a certificate says: who it is for, until when, and whether it may sign others. */
export interface CertificateRequest {
  commonName: string;
  /** Host names and IP addresses (subjectAltName); a server certificate needs at least one. */
  altNames: string[];
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  publicKey: KeyObject;
}

export interface Issuer {
  /** The issuer's subject, as encoded in its own certificate (issuer and subject must match byte for byte). */
  name: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const SHA256_WITH_RSA = der.sequence(der.objectId('1.2.840.113549.1.1.11'), der.nullValue());

export const distinguishedName = (commonName: string): Buffer =>
  der.sequence(der.set(der.sequence(der.objectId('2.5.4.10'), der.utf8String('Hafatra'))), der.set(der.sequence(der.objectId('2.5.4.3'), der.utf8String(commonName))));

const spki = (key: KeyObject): Buffer => key.export({ type: 'spki', format: 'der' });
const keyId = (key: KeyObject): Buffer => createHash('sha1').update(spki(key)).digest();

const extension = (id: string, critical: boolean, value: Buffer): Buffer => der.sequence(der.objectId(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));

const altName = (name: string): Buffer =>
  isIP(name) === 4
    ? der.implicitPrimitive(7, Buffer.from(name.split('.').map(Number)))
    : isIP(name) === 6
      ? der.implicitPrimitive(7, ipv6ToBytes(name))
      : der.implicitPrimitive(2, Buffer.from(name, 'ascii'));

function extensions(req: CertificateRequest, issuer: Issuer): Buffer {
  const list = [
    extension('2.5.29.19', true, req.isCa ? der.sequence(der.boolean(true), der.unsignedInteger(Buffer.from([0]))) : der.sequence()),
    // CA: keyCertSign and cRLSign; server: digitalSignature and keyEncipherment (RSA key exchange on old Androids).
    extension('2.5.29.15', true, req.isCa ? der.bitString(Buffer.from([0x06]), 1) : der.bitString(Buffer.from([0xa0]), 5)),
    extension('2.5.29.14', false, der.octetString(keyId(req.publicKey))),
    extension('2.5.29.35', false, der.sequence(der.implicitPrimitive(0, keyId(issuer.publicKey)))),
  ];
  if (!req.isCa) {
    list.push(extension('2.5.29.37', false, der.sequence(der.objectId('1.3.6.1.5.5.7.3.1'))));
    list.push(extension('2.5.29.17', false, der.sequence(...req.altNames.map(altName))));
  }
  return der.explicit(3, der.sequence(...list));
}

/** A v3 X.509 certificate (DER), signed by the issuer's RSA key with SHA-256. */
export function issueCertificate(req: CertificateRequest, issuer: Issuer): Buffer {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, 16 bytes, minimal
  const tbs = der.sequence(
    der.explicit(0, der.unsignedInteger(Buffer.from([2]))),
    der.unsignedInteger(serial),
    SHA256_WITH_RSA,
    issuer.name,
    der.sequence(der.validityTime(req.notBefore), der.validityTime(req.notAfter)),
    distinguishedName(req.commonName),
    spki(req.publicKey),
    extensions(req, issuer),
  );
  return der.sequence(tbs, SHA256_WITH_RSA, der.bitString(sign('sha256', tbs, issuer.privateKey)));
}

export const toPem = (certificate: Buffer): string => `-----BEGIN CERTIFICATE-----\n${certificate.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
