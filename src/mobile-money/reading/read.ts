import { applyTemplate, type Draft } from './apply-template.js';
import { confidenceOf, parsingStatusOf } from './confidence.js';
import { emptyFields } from './fields.js';
import { looksLikeMoneyNotice, namesAnAmount, readGeneric } from './generic.js';
import { normalizeBody } from './normalize.js';
import { PARSER_VERSION, REGISTRIES, REGISTRY_BY_PROVIDER, mentionedProvider } from './registry.js';
import { providerOfSender } from './senders.js';
import type { Classification, MobileMoneyReading, ProviderRegistry, Template } from './types.js';

/**
 * Reads one received SMS. Trust comes from the sender id, fields from the body:
 * only the provider's own sender can yield `matched`; anyone else's copy of a
 * notification is at most `ambiguous`. Returns null for SMS that are neither from
 * a provider nor look like a mobile-money notification.
 */
export function readMobileMoney(sms: { from: string; body: string }): MobileMoneyReading | null {
  const text = normalizeBody(sms.body ?? '');
  if (!text) return null;
  const senderProvider = providerOfSender(sms.from ?? '');
  return senderProvider ? readFromProvider(REGISTRY_BY_PROVIDER[senderProvider], text) : readFromOther(text);
}

function readFromProvider(registry: ProviderRegistry, text: string): MobileMoneyReading {
  const own = transactionDrafts([registry], text);
  if (own.length > 0) return fromTransactions(own, true);
  const others = transactionDrafts(
    REGISTRIES.filter((r) => r !== registry),
    text,
  );
  if (others.length > 0) return fromTransactions(others, false);
  const failure = firstDraft(registry, text, (t) => t.role === 'failure');
  if (failure) return finish(failure, 'unknown', true, false);
  if (looksLikeMoneyNotice(text)) return finish(readGeneric(registry, text), 'ambiguous', true, false);
  const notice = firstDraft(registry, text, (t) => t.role === 'notice');
  if (notice) return finish(notice, 'unknown', true, false);
  // A wording never seen, from the provider's own sender, that names an amount: a payment may
  // hide in it (an MVola "credite" notice), so it is kept for review with what could be read.
  if (namesAnAmount(text)) return finish(readGeneric(registry, text), 'ambiguous', true, false);
  return finish(otherMessage(registry), 'unknown', true, false);
}

function readFromOther(text: string): MobileMoneyReading | null {
  const drafts = transactionDrafts(REGISTRIES, text);
  if (drafts.length > 0) return fromTransactions(drafts, false);
  const mentioned = mentionedProvider(text);
  if (mentioned && looksLikeMoneyNotice(text)) return finish(readGeneric(mentioned, text), 'ambiguous', false, false);
  return null;
}

function fromTransactions(drafts: Draft[], trustedSender: boolean): MobileMoneyReading {
  const ranked = drafts.map((draft) => ({ draft, score: confidenceOf(draft, { trustedSender, disagreement: false }) })).sort((a, b) => b.score - a.score);
  const best = ranked[0]!.draft;
  const disagreement = ranked.some(({ draft }) => disagrees(draft, best));
  const parsed = parsingStatusOf(best) === 'parsed';
  const classification: Classification = trustedSender && parsed && !disagreement ? 'matched' : 'ambiguous';
  return finish(best, classification, trustedSender, disagreement);
}

/** Two templates reading the same body differently: direction, amount or provider. */
function disagrees(a: Draft, b: Draft): boolean {
  return a.registry !== b.registry || a.fields.direction !== b.fields.direction || a.fields.amountMinor !== b.fields.amountMinor;
}

function transactionDrafts(registries: readonly ProviderRegistry[], text: string): Draft[] {
  const drafts: Draft[] = [];
  for (const registry of registries) {
    for (const template of registry.templates) {
      if (template.role !== 'transaction') continue;
      const draft = applyTemplate(registry, template, text);
      if (draft) drafts.push(draft);
    }
  }
  return drafts;
}

function firstDraft(registry: ProviderRegistry, text: string, wanted: (t: Template) => boolean): Draft | null {
  for (const template of registry.templates) {
    if (!wanted(template)) continue;
    const draft = applyTemplate(registry, template, text);
    if (draft) return draft;
  }
  return null;
}

/** A provider message no template knows and that does not look like money: still recorded, as unknown. */
function otherMessage(registry: ProviderRegistry): Draft {
  return { registry, template: null, fields: emptyFields() };
}

function finish(draft: Draft, classification: Classification, trustedSender: boolean, disagreement: boolean): MobileMoneyReading {
  const isTransaction = !draft.template || draft.template.role === 'transaction';
  return {
    provider: draft.registry.provider,
    classification,
    parsingStatus: parsingStatusOf(draft),
    ...draft.fields,
    parserVersion: PARSER_VERSION,
    parserConfidence: confidenceOf(draft, { trustedSender, disagreement }),
    kind: draft.template?.kind ?? (isTransaction && classification === 'ambiguous' ? 'unrecognized' : 'other'),
    templateId: draft.template?.id ?? null,
  };
}
