import type { Queryable } from '../../db/pool.js';
import type { ReportedSim } from '../schemas.js';

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
 * Updates the listed cards the device has (a field a card leaves out keeps its stored value; a
 * card back in the phone loses its removedAt), then inserts the new ones: both statements read
 * the cards from one unnest, built for the optional fields.
 */
export async function upsertReportedSims(tx: Queryable, deviceId: string, sims: ReportedSim[]): Promise<void> {
  const ids = sims.map((s) => s.subscriptionId);
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
