import { AMOUNT, CORE, DATE, MONEY, PARTY, START, labels, template } from './blocks.js';
import { noticeTemplates } from './notices.js';
import type { ProviderRegistry } from '../types.js';

/**
 * MVola (Telma, now YAS), sender id "MVola". Amounts "12 500 Ar", numeric "Ref: N",
 * dates "le dd/mm/yy a HH:MM". Sources per template in docs/mobile-money.md.
 */
// The date is specific enough to end the party, so names may contain dots ("RAKOTO J. Paul").
const PARTY_AT = String.raw`(?<party>.+?) (?:le|ny) ${DATE}`;
const WITH_PARTY = [...CORE, 'counterpartyName', 'counterpartyPhoneMasked', 'providerTimestamp'] as const;

const templates = [
  template({
    id: 'mvola/received-fr@2',
    kind: 'received',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}${AMOUNT} recu de ${PARTY_AT}`,
    promises: WITH_PARTY,
  }),
  template({
    id: 'mvola/received-mg@1',
    kind: 'received',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}Nahazo ${AMOUNT} (?:avy )?(?:any |tany )?amin'ny ${PARTY_AT}`,
    promises: WITH_PARTY,
  }),
  template({
    id: 'mvola/sent-fr@2',
    kind: 'sent',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}${AMOUNT} envoye a ${PARTY_AT}`,
    promises: [...WITH_PARTY, 'feesMinor'],
  }),
  template({
    // Shape inferred from the Malagasy "received" one; no real sample found.
    id: 'mvola/sent-mg@1',
    kind: 'sent',
    direction: 'outgoing',
    evidence: 'inferred',
    head: String.raw`${START}(?:Nandefa|Lasa) ${AMOUNT} (?:ho |tany |any )*(?:amin'ny|an'i) ${PARTY_AT}`,
    promises: WITH_PARTY,
  }),
  template({
    id: 'mvola/transfer-fr@1',
    kind: 'sent',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Vous avez transfere ${AMOUNT} a ${PARTY_AT}`,
    promises: [...WITH_PARTY, 'feesMinor'],
  }),
  template({
    id: 'mvola/withdrawal-fr@1',
    kind: 'withdrawal',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Retrait reussi ?:? ${AMOUNT} aupres d(?:e|u) ${PARTY_AT}`,
    promises: [...WITH_PARTY, 'feesMinor'],
  }),
  template({
    id: 'mvola/merchant-payment-fr@1',
    kind: 'merchant_payment',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Votre achat de ${AMOUNT} chez (?<name>.+?) a ete paye (?:le ${DATE})?`,
    promises: [...CORE, 'counterpartyName', 'providerTimestamp'],
  }),
  template({
    id: 'mvola/airtime-fr@2',
    kind: 'airtime',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Achat de credit(?: \w+)? reussi ?:? ${AMOUNT} pour ${PARTY}\.`,
    promises: [...CORE, 'counterpartyPhoneMasked', 'feesMinor'],
  }),
  template({
    // Agent phone: the agent credits a customer's wallet (cash-in), its own float goes down.
    id: 'mvola/agent-deposit-fr@1',
    kind: 'deposit',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Vous avez credite ${PARTY} de ${AMOUNT}(?: le ${DATE})?`,
    promises: [...CORE, 'counterpartyName', 'counterpartyPhoneMasked'],
  }),
  template({
    id: 'mvola/failure@1',
    kind: 'failure',
    role: 'failure',
    evidence: 'real',
    head: String.raw`\b(?:est insuffisant|a echoue|echec|n'a pas abouti|tsy tontosa|tsy ampy)\b`,
  }),
  ...noticeTemplates('mvola'),
];

export const mvola: ProviderRegistry = {
  provider: 'provider_a',
  version: 2,
  templates,
  labels: {
    balance: labels(String.raw`\bsolde(?: mvola)?(?: est de)? ?:? ?${MONEY}`, String.raw`\bny volanao(?: dia)? ?:? ?${MONEY}`),
    fees: labels(String.raw`\b(?:frais|sarany) ?:? ?${MONEY}`),
    reference: labels(String.raw`\bref(?:erence)? ?[.:]? ?(\d+)`),
    date: labels(String.raw`\b(?:le|ny) (\d{1,2}/\d{1,2}/\d{2,4}(?: (?:a )?\d{1,2}[:h]\d{2}(?::\d{2})?)?)`),
  },
  referenceShape: /^\d{6,12}$/,
  mentions: /\b(?:m-?vola|telma|yas)\b/i,
};
