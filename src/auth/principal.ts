export const SCOPES = [
  'devices:read',
  'devices:write',
  'messages:send',
  'messages:read',
  'incoming:read',
  'mobile-money:read',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** Who is calling with an organization API key. */
export interface ApiPrincipal {
  kind: 'apiKey';
  orgId: string;
  keyId: string;
  scopes: readonly Scope[];
}

/** A paired phone calling with its device token. */
export interface DevicePrincipal {
  kind: 'device';
  orgId: string;
  deviceId: string;
}
