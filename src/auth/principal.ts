export const SCOPES = [
  'devices:read',
  'devices:write',
  'messages:send',
  'messages:read',
  'incoming:read',
  'mobile-money:read',
  'webhooks:read',
  'webhooks:write',
  'opt-outs:read',
  'opt-outs:write',
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

export const ROLES = ['viewer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);

/** owner > admin > viewer: does `role` include everything `needed` may do? */
export const roleAtLeast = (role: Role, needed: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(needed);

const READ_SCOPES: readonly Scope[] = SCOPES.filter((s) => s.endsWith(':read'));

/** A member's role as /v1 scopes (design.md): viewer reads everything, admin and owner do everything. */
export const scopesOfRole = (role: Role): readonly Scope[] => (role === 'viewer' ? READ_SCOPES : SCOPES);

/** A person signed in to the dashboard, acting in one organization with their role there. */
export interface MemberPrincipal {
  kind: 'member';
  orgId: string;
  memberId: string;
  email: string;
  sessionId: string;
  role: Role;
  scopes: readonly Scope[];
}
