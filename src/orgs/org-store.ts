import type { Carrier } from './carriers.js';
import type { SendWindows } from '../send-windows/windows.js';

export interface Organization {
  id: string;
  name: string;
  defaultCountry: string;
  dailyLimit: number;
  retentionDays: number;
  aiConsent: boolean;
  /** Automatic resends a message of this organization gets (0: off); a send may ask otherwise. */
  autoResendAttempts: number;
  /** The failure codes resent automatically; null: the shipped list (DEFAULT_RESEND_CODES). */
  autoResendCodes: string[] | null;
  /** Its own networks for carrier-aware routing; null: never set, the default (carriers.ts) applies. */
  carriers: Carrier[] | null;
  /** When its phones send (src/send-windows); null: at any hour. */
  sendWindows: SendWindows | null;
  /** Private webhook targets its owner allowed (src/webhooks/delivery/private-targets.ts); empty: none. */
  webhookPrivateTargets: string[];
  /** Plain http may reach the private targets on the LAN (loopback ones never need TLS). */
  webhookPlainHttp: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const ORGANIZATION_COLUMNS = `id, name, default_country AS "defaultCountry", daily_limit AS "dailyLimit",
  retention_days AS "retentionDays", ai_consent AS "aiConsent", auto_resend_attempts AS "autoResendAttempts",
  auto_resend_codes AS "autoResendCodes", carriers, created_at AS "createdAt", updated_at AS "updatedAt",
  send_windows AS "sendWindows", webhook_private_targets AS "webhookPrivateTargets", webhook_plain_http AS "webhookPlainHttp"`;

export interface OrganizationSettings {
  name?: string;
  defaultCountry?: string;
  dailyLimit?: number;
  retentionDays?: number;
  aiConsent?: boolean;
  /** `failureCodes: null` restores the shipped list; left out, the list stays as it is. */
  autoResend?: { attempts?: number; failureCodes?: string[] | null };
  /** null: back to the default table. */
  carriers?: Carrier[] | null;
  /** Normalised beforehand (normalisePrivateTargets). */
  webhookPrivateTargets?: string[];
  webhookPlainHttp?: boolean;
}
