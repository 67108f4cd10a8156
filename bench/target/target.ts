/** What a scenario runs against: the local server the bench starts, or a deployment given by --url/--key. */
export interface Tenant {
  /** An API key of an organization with an eligible (paired, outbound, not draining) phone. */
  key: string;
}

export interface PhoneCredential {
  deviceId: string;
  token: string;
}

export interface PhoneGroup {
  /** Key of the organization the phones belong to. */
  key: string;
  phones: PhoneCredential[];
}

/** Messages seeded before the run (`--stored N`, local only), in an organization of their own. */
export interface StoredMessages {
  /** A key of that organization. */
  key: string;
  count: number;
  seedSeconds: number;
  /** Disk used by messages and by their timelines, indexes included. */
  messagesBytes: number;
  timelineBytes: number;
  /** The id of stored message i (0 ≤ i < count). */
  idOf(i: number): string;
}

export interface Target {
  kind: 'local' | 'remote';
  /** http(s)://host:port of the API. */
  url: string;
  /**
   * `count` organizations with a phone each, at the spec's largest daily limit unless
   * `dailyLimit` says otherwise (remote: the keys given, however many, with their own limits).
   */
  tenants(count: number, o?: { dailyLimit?: number }): Promise<Tenant[]>;
  /** `orgs` organizations with `perOrg` phones each, pacing raised (remote: --device-tokens). */
  phoneGroups(orgs: number, perOrg: number): Promise<PhoneGroup[]>;
  /** The same, as phones of SMS Gateway for Android (the mobile API); local only. */
  appPhoneGroups?(orgs: number, perOrg: number): Promise<PhoneGroup[]>;
  /** The API process, for its resident memory (local only). */
  apiPid?: number;
  /** Direct access for the ceilings (local only). */
  databaseUrl?: string;
  redisUrl?: string;
  /** PEM the worker trusts for webhook receivers, with its key (local only; remote: bench makes its own). */
  receiverCert?: { cert: string; key: string };
  stored?: StoredMessages;
  close(): Promise<void>;
}
