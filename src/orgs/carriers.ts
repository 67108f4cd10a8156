import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Text } from '../schemas/schema-kit.js';
import { fieldName } from '../schemas/validation.js';

/**
 * An organization's mobile networks, for carrier-aware routing: a recipient whose number starts
 * with one of a carrier's prefixes is on it, and so is a SIM whose reported carrierName contains
 * one of its simNames (case-insensitive). The claim script sends from a SIM on the recipient's
 * network when the phone has one (on-net SMS are cheaper, often free).
 */
export const CarrierSchema = Type.Object(
  {
    // Lower case, no `=`, `,` or `|`: the name is a field of the claim script's encoded tables.
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]{0,31}$', errorMessage: 'must be 1 to 32 lower-case letters, digits, _ . or -, e.g. orange' }),
    prefixes: Type.Array(Type.String({ pattern: '^\\+[1-9][0-9]{1,14}$', errorMessage: 'must be an E.164 prefix such as +26132' }), { minItems: 1, maxItems: 32 }),
    simNames: Type.Array(Text({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 8 }),
  },
  { additionalProperties: false },
);

export const CarriersSchema = Type.Array(CarrierSchema, { maxItems: 16 });

export type Carrier = Static<typeof CarrierSchema>;

/**
 * Madagascar's networks, for an organization that never set its own: Orange (032, 037), Airtel
 * (033), Telma (034, 038; its consumer brand is now Yas, which newer SIMs report).
 */
export const DEFAULT_CARRIERS: readonly Carrier[] = [
  { name: 'orange', prefixes: ['+26132', '+26137'], simNames: ['orange'] },
  { name: 'airtel', prefixes: ['+26133'], simNames: ['airtel'] },
  { name: 'telma', prefixes: ['+26134', '+26138'], simNames: ['telma', 'yas'] },
];

/** The organization's table: its own, or the default when it never set one (stored NULL). */
export const carriersOf = (stored: Carrier[] | null): readonly Carrier[] => stored ?? DEFAULT_CARRIERS;

/** What the schema cannot say: a name or a prefix used twice. Answers the problem, naming the field, or null. */
export function carriersProblem(carriers: Carrier[]): string | null {
  const names = new Set<string>();
  const prefixOwner = new Map<string, string>();
  for (const [i, c] of carriers.entries()) {
    if (names.has(c.name)) return `carriers[${i}].name: ${c.name} is named twice`;
    names.add(c.name);
    for (const [j, p] of c.prefixes.entries()) {
      const owner = prefixOwner.get(p);
      if (owner !== undefined) return `carriers[${i}].prefixes[${j}]: ${p} is already ${owner === c.name ? 'listed' : `${owner}'s`}`;
      prefixOwner.set(p, c.name);
    }
  }
  return null;
}

/** What is wrong with a carriers table given outside HTTP (the CLI), naming the field; null when it is valid. */
export function carriersInputProblem(value: unknown): string | null {
  const first = Value.Errors(CarriersSchema, value).First();
  // The same field names as the HTTP validator's (carriers[0].prefixes[1]).
  if (first) return `carriers${first.path === '' ? '' : fieldName(first.path, '')}: ${first.message}`;
  return carriersProblem(value as Carrier[]);
}

/** The carrier a SIM is on, from the carrierName its heartbeat reported; null when none matches. */
export function simCarrier(carriers: readonly Carrier[], carrierName: string | null): string | null {
  if (!carrierName) return null;
  const reported = carrierName.toLowerCase();
  return carriers.find((c) => c.simNames.some((s) => reported.includes(s.toLowerCase())))?.name ?? null;
}

/** The prefix table as the claim script reads it: `+26132=orange,+26137=orange,…`. */
export const encodePrefixes = (carriers: readonly Carrier[]): string => carriers.flatMap((c) => c.prefixes.map((p) => `${p}=${c.name}`)).join(',');
