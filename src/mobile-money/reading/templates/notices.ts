import { template } from './blocks.js';
import type { Template } from '../types.js';

/**
 * Provider messages that move no money. They are tried only after the transaction and
 * failure templates and the generic money check, so a drifted transaction that happens
 * to mention a bonus still reads as `ambiguous`, never as a promotion.
 */
export function noticeTemplates(prefix: string): Template[] {
  return [
    template({
      id: `${prefix}/code@1`,
      kind: 'code',
      role: 'notice',
      evidence: 'inferred',
      head: String.raw`\b(?:code|otp|kaody|pin)\b[^.]*?\b\d{4,8}\b`,
    }),
    template({
      id: `${prefix}/promotion@1`,
      kind: 'promotion',
      role: 'notice',
      evidence: 'real',
      head: String.raw`\b(?:promo\w*|profitez|gagne[rz]?|offre|bonus|cadeau|tombola|epargnez|felicitations|tapez|mahazoa|andramo)\b|[#*]\d{2,4}[*#]`,
    }),
  ];
}
