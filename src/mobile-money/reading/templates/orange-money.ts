import { AMOUNT, CORE, MONEY, PARTY, REF, START, TIMESTAMPED_ID, labels, template } from './blocks.js';
import { noticeTemplates } from './notices.js';
import type { FieldName, ProviderRegistry } from '../types.js';

/**
 * Orange Money Madagascar, sender id "OrangeMoney". Amounts glued to the currency
 * ("500Ar", "12000.0Ar", "160000 AR"), ids "Trans Id: PP230519.0405.C62279", usually
 * no written date. Sources per template in docs/mobile-money.md.
 */
const WITH_PHONE: readonly FieldName[] = [...CORE, 'counterpartyPhoneMasked'];
const REUSSI = String.raw`(?:est )?reussi`;

const templates = [
  template({
    id: 'orange/received-fr@2',
    kind: 'received',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}Vous avez recu un transfert de ${AMOUNT} venant du (?<phone>\+?\d[\d ]{6,14}\d)(?: ?: ?(?<name>[^.]+?))?(?= ?[.]| Nouveau| Votre|$)`,
    promises: WITH_PHONE,
  }),
  template({
    id: 'orange/received-international-fr@1',
    kind: 'received',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}Vous avez recu un transfert international de ${AMOUNT} de la part de (?<phone>\+?\d[\d ]{6,18}\d)`,
    promises: WITH_PHONE,
  }),
  template({
    id: 'orange/bank-to-wallet-fr@1',
    kind: 'bank_transfer',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}Votre transfert de ${AMOUNT} sur votre compte Orange Money depuis votre compte (?<name>.+?) ${REUSSI}`,
    promises: [...CORE, 'counterpartyName', 'feesMinor'],
  }),
  template({
    id: 'orange/sent-fr@3',
    kind: 'sent',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Votre transfert de ${AMOUNT} vers (?:le )?(?:numero client )?(?<party>[^:.]+?)(?: ?: ?[^.]*?)? ${REUSSI}`,
    promises: [...CORE, 'feesMinor'],
  }),
  template({
    id: 'orange/withdrawal-fr@2',
    kind: 'withdrawal',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Le retrait de ${AMOUNT} sur votre compte aupres d(?:u|e) ${PARTY} ${REUSSI}`,
    promises: [...WITH_PHONE, 'feesMinor'],
  }),
  template({
    id: 'orange/deposit-fr@1',
    kind: 'deposit',
    direction: 'incoming',
    evidence: 'real',
    head: String.raw`${START}Votre depot de ${AMOUNT} par (?:le )?${PARTY} ${REUSSI}`,
    promises: WITH_PHONE,
  }),
  template({
    // Agent side of a cash-in; seen only in another project's tests.
    id: 'orange/agent-deposit-fr@1',
    kind: 'deposit',
    direction: 'outgoing',
    evidence: 'tests',
    head: String.raw`${START}Depot de ${AMOUNT} pour ${PARTY} ${REUSSI}`,
    promises: [...WITH_PHONE, 'counterpartyName'],
  }),
  template({
    id: 'orange/merchant-payment-fr@1',
    kind: 'merchant_payment',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Votre paiement de ${AMOUNT} aupres de (?<name>.+?) ${REUSSI}`,
    promises: [...CORE, 'counterpartyName', 'feesMinor'],
  }),
  template({
    // Merchant side of a payment; seen only in another project's tests.
    id: 'orange/payment-received-fr@1',
    kind: 'payment_received',
    direction: 'incoming',
    evidence: 'tests',
    head: String.raw`${START}Le paiement de ${AMOUNT} par (?:le )?${PARTY} ${REUSSI}`,
    promises: ['amountMinor', 'reference', 'counterpartyPhoneMasked'],
  }),
  template({
    id: 'orange/bundle-purchase-fr@1',
    kind: 'bundle_purchase',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Votre achat d'offre .+? de ${AMOUNT} ${REUSSI}`,
    promises: CORE,
  }),
  template({
    // "Reste a payer" is the loan balance, never the amount: the amount is what was debited.
    id: 'orange/loan-repayment-fr@1',
    kind: 'loan_repayment',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`^(?=.*rembours)(?=.*orange money).*?debite de ${AMOUNT}`,
    promises: CORE,
  }),
  template({
    // "Nouveau solde epargne" is the savings balance, not the wallet's: no balance promised.
    id: 'orange/savings-transfer-fr@1',
    kind: 'savings_transfer',
    direction: 'outgoing',
    evidence: 'real',
    head: String.raw`${START}Virement (?:programme )?de ${AMOUNT} de votre compte Orange Money vers (?:votre )?compte epargne`,
    promises: ['amountMinor', 'reference'],
  }),
  template({
    // English shape attributed to Orange by one project only.
    id: 'orange/received-en@1',
    kind: 'received',
    direction: 'incoming',
    evidence: 'tests',
    head: String.raw`${START}You (?:have )?received ${AMOUNT} from ${PARTY}\. New Balance`,
    promises: [...WITH_PHONE, 'counterpartyName'],
  }),
  template({
    id: 'orange/failure@1',
    kind: 'failure',
    role: 'failure',
    evidence: 'real',
    head: String.raw`\b(?:a echoue|echec|insuffisant|n'a pas abouti|refuse[e]?)\b`,
  }),
  ...noticeTemplates('orange'),
];

export const orangeMoney: ProviderRegistry = {
  provider: 'provider_b',
  version: 3,
  templates,
  labels: {
    balance: labels(String.raw`\bsolde(?: orange money| om)?(?: est(?: de)?)? ?:? ?${MONEY}`, String.raw`\bnew balance ?:? ?${MONEY}`),
    fees: labels(String.raw`\bfrais ?:? ?${MONEY}`),
    reference: labels(String.raw`\btrans(?:action)? ?id ?:? ?${REF}`, String.raw`\b(?:ref|trid|id) ?: ?${REF}`, TIMESTAMPED_ID, String.raw`\b(OR\d{6}[A-Za-z0-9]+)\b`),
    date: labels(String.raw`\bdate ?: ?(\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?)`),
  },
  referenceShape: /^(?:(?:PP|CI|CO|MP)\d{6}\.\d{4}\.[A-Z0-9]+|[0-9a-f]{8}|OR\d{6}[A-Z0-9]+)$/i,
  mentions: /\borange ?money\b/i,
};
