import { AMOUNT, AMOUNT_CURRENCY_FIRST, CORE, MONEY, REF, START, TIMESTAMPED_ID, labels, template } from './blocks.js';
import { noticeTemplates } from './notices.js';
import type { FieldName, ProviderRegistry } from '../types.js';

/**
 * Airtel Money Madagascar, sender id "AirtelMoney". Mostly Malagasy, currency before
 * the amount ("Ar 500"), numbers as 9 digits without the leading 0, ids "Trans ID: PP…".
 * Sources per template in docs/mobile-money.md.
 */
const WITH_PHONE: readonly FieldName[] = [...CORE, 'counterpartyPhoneMasked'];
/** The other party up to the reason ("ho an'ny …") or the end of the sentence. */
const PARTY_UNTIL_REASON = String.raw`(?<party>[^.]+?)(?= ho an'ny|\.|$)`;

const templates = [
  template({
    id: 'airtel/received-mg@1',
    kind: 'received',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}Naharay ${AMOUNT} (?:avy )?(?:@|amin'ny|tamin'ny) ?${PARTY_UNTIL_REASON}`,
    promises: WITH_PHONE,
  }),
  template({
    id: 'airtel/sent-mg@1',
    kind: 'sent',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Tontosa ny fandefasanao ${AMOUNT} (?:@|amin'ny|any amin'ny|ho an'i) ?${PARTY_UNTIL_REASON}`,
    promises: [...WITH_PHONE, 'feesMinor'],
  }),
  template({
    id: 'airtel/cash-in-mg@1',
    kind: 'deposit',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}${AMOUNT} azo tamin'ny (?:agent )?${PARTY_UNTIL_REASON}`,
    promises: WITH_PHONE,
  }),
  template({
    // Agent phone; "*38054332" is already masked by Airtel, so no phone can be read.
    // "Commission" is the agent's earning, not a fee.
    id: 'airtel/agent-deposit-fr@1',
    kind: 'deposit',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Depot de ${AMOUNT} pour (?<name>[^*.(]+?) ?(?:\*\d+|\(|\.)`,
    promises: [...CORE, 'counterpartyName'],
  }),
  template({
    id: 'airtel/received-fr@1',
    kind: 'received',
    direction: 'incoming',
    evidence: 'tests',
    head: String.raw`${START}Vous avez recu ${AMOUNT_CURRENCY_FIRST} de (?<party>[^.]+?)\.`,
    promises: [...WITH_PHONE, 'counterpartyName'],
  }),
  template({
    id: 'airtel/sent-fr@1',
    kind: 'sent',
    direction: 'outgoing',
    evidence: 'tests',
    head: String.raw`${START}(?:Vous avez envoye )?${AMOUNT_CURRENCY_FIRST} envoye a (?<party>[^.]+?)\.`,
    promises: [...WITH_PHONE, 'counterpartyName'],
  }),
  template({
    id: 'airtel/merchant-payment-fr@1',
    kind: 'merchant_payment',
    direction: 'outgoing',
    evidence: 'tests',
    head: String.raw`${START}Vous avez paye ${AMOUNT_CURRENCY_FIRST} a (?<name>[^.]+?)\.`,
    promises: ['amountMinor', 'balanceMinor', 'counterpartyName'],
  }),
  template({
    id: 'airtel/failure@1',
    kind: 'failure',
    role: 'failure',
    evidence: 'inferred',
    head: String.raw`\b(?:tsy tontosa|tsy ampy|a echoue|echec|insuffisant)\b`,
  }),
  ...noticeTemplates('airtel'),
];

export const airtelMoney: ProviderRegistry = {
  provider: 'provider_c',
  version: 1,
  templates,
  labels: {
    balance: labels(String.raw`\b(?:(?:ny )?toe-? ?bola(?:nao)?(?: dia)?|solde|new balance) ?:? ?${MONEY}`),
    fees: labels(String.raw`\b(?:sarany|frais) ?:? ?${MONEY}`),
    reference: labels(String.raw`\btrans(?:action)? ?id ?:? ?${REF}`, String.raw`\b(?:tid|id|ref) ?: ?${REF}`, TIMESTAMPED_ID),
    date: labels(String.raw`\b(\d{1,2}/\d{1,2}/\d{2,4}(?: \d{1,2}:\d{2}(?::\d{2})?)?|\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?)`),
  },
  referenceShape: /^(?:(?:PP|CI|CO|MP)\d{6}\.\d{4}\.[A-Z0-9]+|[A-Z0-9.]{6,})$/i,
  mentions: /\bairtel ?money\b/i,
};
