import type { Queryable } from '../db/pool.js';
import type { ReportedSim } from './schemas.js';

/** The fields of a SIM entry a heartbeat may leave out, with their columns. */
const OPTIONAL_FIELDS = [
  ['slotIndex', 'slot_index', 'int'],
  ['carrierName', 'carrier_name', 'text'],
  ['displayName', 'display_name', 'text'],
  ['phoneNumber', 'phone_number', 'text'],
  ['countryIso', 'country_iso', 'text'],
] as const;

type OptionalField = (typeof OPTIONAL_FIELDS)[number][0];

/** Stored form: an empty phone number or country is none, countries in upper case. */
function stored(s: ReportedSim, field: OptionalField): unknown {
  const v = s[field];
  if (field === 'phoneNumber') return v || null;
  if (field === 'countryIso') return (v as string | null | undefined)?.toUpperCase() || null;
  return v ?? null;
}

/**
 * Makes device_sims match what a heartbeat lists. A listed card is matched by subscription id:
 * a field it leaves out keeps the card's stored value and null clears it (the heartbeat's own
 * rule, field by field), and a card that comes back loses its removedAt. A new card gets null
 * for what it leaves out. Cards no longer listed get removedAt now. A card listed twice counts
 * once (the first listing wins). The heartbeat's transaction holds the device row, so two
 * heartbeats of one phone never interleave here.
 *
 * Answers whether the cards in use or their carrier names changed: the phone's dispatch state
 * (which SIM is on which network) must then be synced.
 */
export async function syncSims(tx: Queryable, deviceId: string, reported: ReportedSim[]): Promise<boolean> {
  const first = new Map<number, ReportedSim>();
  for (const s of reported) if (!first.has(s.subscriptionId)) first.set(s.subscriptionId, s);
  const sims = [...first.values()];
  const ids = sims.map((s) => s.subscriptionId);
  const before = await carriersInUse(tx, deviceId);
  if (sims.length > 0) {
    // $2: ids; per field, its values and whether each card gave it.
    const params: unknown[] = [deviceId, ids];
    const columns = OPTIONAL_FIELDS.map(([field, column, type]) => {
      params.push(
        sims.map((s) => stored(s, field)),
        sims.map((s) => s[field] !== undefined),
      );
      return { column, type, value: `$${params.length - 1}::${type}[]`, given: `$${params.length}::boolean[]` };
    });
    const unnest = `unnest($2::int[], ${columns.map((c) => `${c.value}, ${c.given}`).join(', ')})
      AS r(subscription_id, ${columns.map((c) => `${c.column}, ${c.column}_given`).join(', ')})`;
    await tx.query(
      `UPDATE device_sims d SET ${columns.map((c) => `${c.column} = CASE WHEN r.${c.column}_given THEN r.${c.column} ELSE d.${c.column} END`).join(', ')},
         last_seen_at = now(), removed_at = NULL
       FROM ${unnest}
       WHERE d.device_id = $1 AND d.subscription_id = r.subscription_id`,
      params,
    );
    await tx.query(
      `INSERT INTO device_sims (device_id, subscription_id, ${columns.map((c) => c.column).join(', ')})
       SELECT $1, r.subscription_id, ${columns.map((c) => `r.${c.column}`).join(', ')} FROM ${unnest}
       ON CONFLICT (device_id, subscription_id) DO NOTHING`,
      params,
    );
  }
  await tx.query(`UPDATE device_sims SET removed_at = now() WHERE device_id = $1 AND removed_at IS NULL AND NOT (subscription_id = ANY($2::int[]))`, [deviceId, ids]);
  return sims.length !== before.size || sims.some((s) => !before.has(s.subscriptionId) || (s.carrierName !== undefined && s.carrierName !== before.get(s.subscriptionId)));
}

/** The cards in use and their carrier names, before a heartbeat changes them. */
async function carriersInUse(tx: Queryable, deviceId: string): Promise<Map<number, string | null>> {
  const { rows } = await tx.query('SELECT subscription_id AS id, carrier_name AS name FROM device_sims WHERE device_id = $1 AND removed_at IS NULL', [deviceId]);
  return new Map((rows as { id: number; name: string | null }[]).map((r) => [r.id, r.name]));
}
