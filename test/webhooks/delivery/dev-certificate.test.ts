import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDevCertificate } from '../../../src/webhooks/delivery/dev-certificate.js';

describe('createDevCertificate', () => {
  it('makes a self-signed certificate for localhost and both loopback addresses by default', () => {
    const { cert, key } = createDevCertificate();
    const x509 = new X509Certificate(cert);
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkIP('::1')).toBe('::1');
    expect(x509.checkHost('example.com')).toBeUndefined();
    expect(x509.checkIP('10.0.0.1')).toBeUndefined();
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.checkIssued(x509)).toBe(true);
    expect(x509.ca).toBe(true);
    expect(createPublicKey(createPrivateKey(key)).export({ format: 'jwk' })).toEqual(x509.publicKey.export({ format: 'jwk' }));
  });

  it('honours the names and validity asked for', () => {
    const x509 = new X509Certificate(createDevCertificate({ names: ['webhook.test', '2001:db8::7'], validDays: 10 }).cert);
    expect(x509.checkHost('webhook.test')).toBe('webhook.test');
    expect(x509.checkIP('2001:db8::7')).toBe('2001:db8::7');
    expect(x509.checkHost('localhost')).toBeUndefined();
    const days = (Date.parse(x509.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9.9);
    expect(days).toBeLessThan(10.1);
    expect(Date.parse(x509.validFrom)).toBeLessThan(Date.now());
  });

  it('uses a fresh key and serial every time', () => {
    const a = new X509Certificate(createDevCertificate().cert);
    const b = new X509Certificate(createDevCertificate().cert);
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.fingerprint256).not.toBe(b.fingerprint256);
  });
});
