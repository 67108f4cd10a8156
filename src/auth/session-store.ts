import type { Role } from './principal.js';

export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

export interface LiveSession {
  sessionId: string;
  memberId: string;
  email: string;
  orgId: string;
  role: Role;
}
