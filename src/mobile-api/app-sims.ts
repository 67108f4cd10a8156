import type { ReportedSim } from '../devices/schemas.js';
import type { AppSimCard } from './schemas.js';

/**
 * The app's SIM list as the devices domain keeps SIMs. The app knows no subscription id, only the
 * slot, so a card is keyed by its 0-based slot (`subscriptionId` = `slotIndex`), and the SIM a
 * claim picks goes out as `simNumber` = slot + 1. Registration and PATCH /device redact every
 * value but its last four characters (`****fone`): a redacted value says nothing, so it is left
 * out and the stored one (from the unredacted `app:started` event) is kept. The iccid is not kept.
 */
export function appSimsToReported(cards: readonly AppSimCard[]): ReportedSim[] {
  return cards.map((c) => {
    const sim: ReportedSim = { subscriptionId: c.slotIndex, slotIndex: c.slotIndex };
    const carrierName = clear(c.carrierName);
    const phoneNumber = clear(c.phoneNumber, 32);
    if (carrierName !== undefined) sim.carrierName = carrierName;
    if (phoneNumber !== undefined) sim.phoneNumber = phoneNumber;
    return sim;
  });
}

/** A value worth storing, or undefined when absent or redacted. */
function clear(value: string | null | undefined, max = 128): string | undefined {
  if (value === null || value === undefined || value === '' || value.includes('*') || value.length > max) return undefined;
  return value;
}

/** The SIM of a job (its subscription id, the slot for a mobile phone) as the app numbers it. */
export const simNumberOf = (subscriptionId: number | null): number | undefined => (subscriptionId === null ? undefined : subscriptionId + 1);
