import type { PhoneRole } from '../phones/protocol.js';

export interface RoleTiming {
  /** The first silent phone stops this long after its first job; each next one `silentStepMs` later. */
  silentFirstMs: number;
  silentStepMs: number;
  /** Android's limit as the limited phones see it: `limitParts` sends per `limitWindowMs`. */
  limitParts: number;
  limitWindowMs: number;
}

/**
 * The roles of one organization's `count` phones: ~20% go silent (alternately closing the socket
 * and keeping it mute), ~10% fail half their sends with no_service, ~10% hit Android's limit, the
 * rest are healthy. Each trouble has at least one phone from 5 phones up.
 */
export function assignRoles(count: number, t: RoleTiming): PhoneRole[] {
  const share = (p: number) => (count >= 5 ? Math.max(1, Math.round(count * p)) : 0);
  const roles: PhoneRole[] = [];
  for (let k = 0; k < share(0.2); k += 1) {
    roles.push({ role: k % 2 === 0 ? 'silent-close' : 'silent-mute', silentAfterMs: t.silentFirstMs + k * t.silentStepMs });
  }
  for (let k = 0; k < share(0.1); k += 1) roles.push({ role: 'failing', failShare: 0.5 });
  for (let k = 0; k < share(0.1); k += 1) roles.push({ role: 'limited', limitParts: t.limitParts, limitWindowMs: t.limitWindowMs });
  while (roles.length < count) roles.push({ role: 'healthy' });
  return roles.slice(0, count);
}
