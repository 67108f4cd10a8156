/**
 * What simulated phones receive: mobile-money notifications in the shapes Madagascar's three
 * providers send (a few bodies from the reader's test corpus, names and numbers as published
 * there), and ordinary person-to-person texts.
 */
export interface SampleSms {
  from: string;
  body: string;
}

export const MOBILE_MONEY_SAMPLES: readonly SampleSms[] = [
  { from: 'MVola', body: '51 300 Ar recu de HARIJAONA MAMINIAINA 0386081661 le 04/07/26 a 13:41. Raison: 1. Solde: 172 914 Ar. Ref 3210176366' },
  { from: 'MVola', body: '7 000 Ar envoye a RAKOTOBE 0340000003 le 27/08/26 a 10:32. Frais: 150 Ar. Raison: sandwich. Solde: 300 919 Ar. Ref: 1000000006' },
  { from: 'MVola', body: "Nahazo 100 000 Ar avy any amin'ny Herimampianina Fanimezantsoa (0341097002) ny 11/11/24 11:11. Antony: Fano.Ny volanao dia 130 992 Ar. Ref: 337304520" },
  {
    from: 'MVola',
    body: "850 000 Ar recu de Going Beyond (0345755747) le 02/01/25 a 09:42. Serveur. Solde : 1 414 155 Ar. Ref: 544640999 Avec MVola Epargne, profitez d'un taux d'interet de 4 pourcent/an. Faites un depot des 100 Ar et epargnez jusqu'a 100 000 000 Ar. Tapez le #111*1*3*1#",
  },
  { from: 'OrangeMoney', body: 'Vous avez recu un transfert de 500Ar venant du 0325193231 Nouveau Solde: 1170Ar.  Trans Id: PP230519.0406.C62281. Orange Money vous remercie.' },
  { from: 'OrangeMoney', body: 'Votre transfert de 61900 Ar vers 0326528126 est reussi. Frais : 1000 Ar. Nouveau solde : 18420 Ar. Trans Id: PP260730.0949.D63236.' },
  { from: 'OrangeMoney', body: 'Votre paiement de 2000 Ar aupres de REVE DOR est reussi. Frais : 0 Ar. Nouveau solde : 33150 Ar. Trans Id: MP260730.1242.D23906 .' },
  { from: 'AirtelMoney', body: "Naharay Ar 500 avy @ 336868624 ho an'ny Services. Ny toe-bolanao dia Ar 3840 . Trans ID: PP230519.0507.C27573" },
  { from: 'AirtelMoney', body: "Tontosa ny fandefasanao Ar 300 @  336868624 ho an'ny 1983.Toe bola Ar 3990. Sarany : Ar 50. Trans ID: PP230519.0511.D24964" },
  { from: 'AirtelMoney', body: 'Vous avez recu Ar 5000 de RANAIVO 0331234567. Solde: Ar 20000.00. Id: TXN123' },
];

const PLAIN_TEXTS: readonly string[] = [
  'Salama! Tonga soa aman-tsara ve ianao?',
  'Misaotra betsaka, hifankahita rahampitso.',
  'Ok, ho avy aho amin ny 3 ora.',
  'Bonjour, la livraison est prévue demain matin.',
  'Code de confirmation: 482913',
  'Aza adino ny fivoriana amin ny alarobia.',
];

const OPERATOR_PREFIXES = ['32', '33', '34', '38'];

/** A random Malagasy mobile number in the raw form phones report it (+261 3X XX XXX XX). */
export function randomMsisdn(random: () => number): string {
  const prefix = OPERATOR_PREFIXES[Math.floor(random() * OPERATOR_PREFIXES.length)]!;
  return `+261${prefix}${String(Math.floor(random() * 10_000_000)).padStart(7, '0')}`;
}

/** Half mobile-money notifications, half personal texts. */
export function randomIncomingSms(random: () => number): SampleSms {
  if (random() < 0.5) return MOBILE_MONEY_SAMPLES[Math.floor(random() * MOBILE_MONEY_SAMPLES.length)]!;
  return { from: randomMsisdn(random), body: PLAIN_TEXTS[Math.floor(random() * PLAIN_TEXTS.length)]! };
}

/** A body longer than one GSM SMS arrives in parts: split the way a phone would receive it. */
export function splitIntoParts(body: string, partLength = 153): string[] {
  if (body.length <= 160) return [body];
  const parts: string[] = [];
  for (let i = 0; i < body.length; i += partLength) parts.push(body.slice(i, i + partLength));
  return parts;
}
