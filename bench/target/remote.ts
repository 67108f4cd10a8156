import { readFile } from 'node:fs/promises';
import { NotAvailable } from '../lib/results.js';
import type { PhoneCredential, PhoneGroup, Target } from './target.js';

export interface RemoteOptions {
  url: string;
  /** Comma list of API keys, each of an organization with an eligible phone. */
  keys: string[];
  /** JSON file: [{deviceId, token}] of phones paired in the first key's organization. */
  deviceTokensFile?: string;
}

/**
 * A deployment the bench did not start. Nothing is created behind its back: organizations,
 * keys and phones come from the operator (`hafatra org create`, `hafatra key create`,
 * `hafatra device pair` + POST /device/v1/pair), see bench/README.md.
 */
export function remoteTarget(o: RemoteOptions): Target {
  if (o.keys.length === 0) throw new Error('--url needs --key K (or K1,K2,… for several organizations)');
  return {
    kind: 'remote',
    url: o.url.replace(/\/+$/, ''),
    tenants: async () => o.keys.map((key) => ({ key })),
    async phoneGroups(_orgs, perOrg) {
      if (!o.deviceTokensFile) throw new NotAvailable('needs --device-tokens FILE (phones paired in the organization of the first --key)');
      const phones = JSON.parse(await readFile(o.deviceTokensFile, 'utf8')) as PhoneCredential[];
      if (phones.length === 0) throw new NotAvailable(`${o.deviceTokensFile} lists no phones`);
      const group: PhoneGroup = { key: o.keys[0]!, phones: phones.slice(0, Math.max(perOrg, phones.length)) };
      return [group];
    },
    close: async () => undefined,
  };
}
