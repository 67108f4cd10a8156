import { parseMoneyMinor } from './amount.js';
import { emptyFields, readLabelledFields, type Fields } from './fields.js';
import { cleanName, splitParty } from './party.js';
import { maskPhone } from './phone.js';
import type { ProviderRegistry, Template } from './types.js';

/** One template's reading of a body, before classification. template is null for the generic reader. */
export interface Draft {
  registry: ProviderRegistry;
  template: Template | null;
  fields: Fields;
}

export function applyTemplate(registry: ProviderRegistry, template: Template, text: string): Draft | null {
  const match = template.head.exec(text);
  if (!match) return null;
  const fields = emptyFields();
  if (template.role === 'transaction') readTransaction(match.groups ?? {}, fields);
  if (template.role !== 'notice') readLabelledFields(registry.labels, text, fields);
  fields.direction = template.direction;
  return { registry, template, fields };
}

function readTransaction(groups: Record<string, string | undefined>, fields: Fields): void {
  if (groups.amount) {
    fields.amountMinor = parseMoneyMinor(groups.amount);
    fields.currency = 'MGA';
  }
  const party = splitParty(groups.party);
  fields.counterpartyName = cleanName(groups.name) ?? party.name;
  fields.counterpartyPhoneMasked = (groups.phone ? maskPhone(groups.phone) : null) ?? party.phoneMasked;
  fields.providerTimestamp = groups.date ?? null;
}
