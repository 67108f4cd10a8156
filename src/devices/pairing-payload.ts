import { networkInterfaces } from 'node:os';
import type { Config } from '../config/config.js';

/**
 * The address a phone on the same network would use to reach this server: the configured HOST
 * when it names one, else the machine's first non-internal IPv4 address. A hint only: behind a
 * proxy or NAT the operator passes the public URL (`--url`). HTTPS when HAFATRA_HTTPS is set.
 */
export function serverUrlHint(config: Pick<Config, 'host' | 'port' | 'https'>, interfaces = networkInterfaces()): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const lan = Object.values(interfaces)
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  const host = wildcard ? (lan ?? 'localhost') : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `${config.https ? 'https' : 'http'}://${host}:${config.port}`;
}

/** What the QR code shown by `hafatra device pair` holds (documented in docs/device-protocol.md). */
export interface PairingQrPayload {
  hafatra: 'pair';
  v: 1;
  server: string;
  code: string;
}

export function pairingQrPayload(server: string, code: string): string {
  const payload: PairingQrPayload = { hafatra: 'pair', v: 1, server: server.replace(/\/+$/, ''), code };
  return JSON.stringify(payload);
}
