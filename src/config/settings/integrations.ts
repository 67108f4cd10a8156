import { baseUrl, int, intList, list, text, type Setting } from '../setting-kinds.js';

/** Webhooks, dashboard sessions and the mobile-money AI fallback. */
export const integrationSettings = {
  webhookAllowHosts: {
    env: 'HAFATRA_WEBHOOK_ALLOW_HOSTS',
    default: '',
    kind: list(),
    doc: 'Comma list of webhook hosts exempt from the public-address check (development, tests).',
  },
  webhookTimeoutMs: { env: 'HAFATRA_WEBHOOK_TIMEOUT_MS', default: '10000', kind: int(1), doc: 'A webhook delivery must answer 2xx within this time.' },
  webhookScheduleSeconds: {
    env: 'HAFATRA_WEBHOOK_SCHEDULE_SECONDS',
    default: '0,5,300,1800,7200,18000,36000,36000',
    kind: intList(0),
    doc: 'Delay before each delivery attempt; after the last one the delivery is dead.',
  },
  webhookDisableAfterSeconds: {
    env: 'HAFATRA_WEBHOOK_DISABLE_AFTER_SECONDS',
    default: '432000',
    kind: int(1),
    doc: 'An endpoint failing without a success this long is disabled (5 days).',
  },
  sessionIdleMinutes: { env: 'HAFATRA_SESSION_IDLE_MINUTES', default: '480', kind: int(1), doc: 'A dashboard session unused this long ends (8 hours).' },
  sessionMaxHours: { env: 'HAFATRA_SESSION_MAX_HOURS', default: '168', kind: int(1), doc: 'A dashboard session ends this long after sign-in, used or not (7 days).' },
  publicUrl: {
    env: 'HAFATRA_PUBLIC_URL',
    default: '',
    kind: baseUrl('^(https?://[^\\s/?#]+)?$'),
    doc: "The dashboard's address as members reach it (`https://sms.example.org`), used in printed one-time links; empty: `http://localhost:PORT`. An https address also marks the session cookie Secure.",
  },
  aiBaseUrl: { env: 'HAFATRA_AI_BASE_URL', default: '', kind: text({ label: 'URL' }), doc: 'OpenAI-compatible endpoint for the mobile-money AI fallback. Empty: no AI.' },
  aiApiKey: { env: 'HAFATRA_AI_API_KEY', default: '', kind: text(), doc: 'API key of that endpoint.' },
  aiModel: { env: 'HAFATRA_AI_MODEL', default: '', kind: text(), doc: 'Model name for that endpoint.' },
} as const satisfies Record<string, Setting>;
