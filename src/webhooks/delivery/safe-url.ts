// Is a webhook URL safe to deliver to? Checked when an endpoint is created
// and again before each delivery; the delivery then connects to the very
// address checked here, so a DNS answer cannot change between check and use.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { withoutBrackets } from '../../net/ip-text.js';
import { classifyAddress } from './safe-address.js';
import { privateTargetAllows } from './private-targets.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export interface CheckWebhookUrlOptions {
  /** Hostnames (exact, case-insensitive) exempt from the public-address rule. */
  allowHosts: string[];
  /** The organization's private targets (host names, addresses, CIDR ranges) its owner allowed. */
  privateTargets?: readonly string[];
  /** The organization allows plain http to its private targets on the LAN (loopback ones never need it). */
  plainHttp?: boolean;
  /** Resolver (tests; deliveries use a short-lived cache); defaults to dns.lookup with all: true. */
  lookup?: ResolveHost;
}

export type WebhookUrlCheck = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

const refuse = (reason: string): WebhookUrlCheck => ({ ok: false, reason });

export const defaultLookup: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** URL hostnames keep IPv6 brackets; compare and resolve without them. */
const bareHost = (host: string): string => withoutBrackets(host).toLowerCase();

function parseWebhookUrl(input: string): URL | string {
  if (typeof input !== 'string' || input.length === 0) return 'The webhook URL is missing.';
  if (input.length > MAX_WEBHOOK_URL_LENGTH) return `The webhook URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'The webhook URL is not a valid absolute URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The webhook URL must use https.';
  if (url.username || url.password) return 'The webhook URL must not contain a user name or password.';
  if (!url.hostname) return 'The webhook URL has no host.';
  return url;
}

async function resolveHost(host: string, lookup: CheckWebhookUrlOptions['lookup']): Promise<ResolvedAddress[] | string> {
  if (isIP(host)) return [{ address: host, family: isIP(host) }];
  try {
    const addresses = await (lookup ?? defaultLookup)(host);
    return addresses.length > 0 ? addresses : `The host ${host} of the webhook URL has no address.`;
  } catch {
    return `The host ${host} of the webhook URL could not be resolved.`;
  }
}

const PLAIN_HTTP_REFUSED =
  "The webhook URL must use https; plain http only reaches the organization's private webhook targets (loopback ones always, LAN ones when the organization allows plain HTTP).";

/** Why a non-public address may not be reached, or null when the organization allowed it. */
function privateRefusal(host: string, address: string, kind: string, opts: CheckWebhookUrlOptions): string | null {
  // Metadata services hold the host's credentials: no organization setting opens them.
  if (kind !== 'cloud metadata' && privateTargetAllows(opts.privateTargets ?? [], host, address)) return null;
  const where = isIP(host) ? `The webhook URL points to ${address}` : `The host ${host} resolves to ${address}`;
  return `${where}, which is not a public address (${kind}); webhooks only reach public addresses and the private targets an owner of the organization allowed (organization setting webhookPrivateTargets).`;
}

export async function checkWebhookUrl(input: string, opts: CheckWebhookUrlOptions): Promise<WebhookUrlCheck> {
  const url = parseWebhookUrl(input);
  if (typeof url === 'string') return refuse(url);
  const host = bareHost(url.hostname);
  const addresses = await resolveHost(host, opts.lookup);
  if (typeof addresses === 'string') return refuse(addresses);
  const operatorAllowed = opts.allowHosts.some((allowedHost) => bareHost(allowedHost.trim()) === host);
  const verdicts = addresses.map(({ address }) => ({ address, verdict: classifyAddress(address) }));
  // Every address must be public or allowed: a client may connect to any of
  // them, and a mixed answer is the usual shape of a DNS-rebinding attempt.
  for (const { address, verdict } of verdicts) {
    if (verdict.public || operatorAllowed) continue;
    const refusal = privateRefusal(host, address, verdict.kind, opts);
    if (refusal) return refuse(refusal);
  }
  if (url.protocol === 'http:') {
    // Plain http only to the organization's own private targets (the operator's hosts stay
    // https-only), all of them loopback unless the organization chose plain HTTP on its LAN.
    const fits = verdicts.every(
      ({ address, verdict }) => !verdict.public && privateTargetAllows(opts.privateTargets ?? [], host, address) && (verdict.kind.endsWith('loopback') || opts.plainHttp === true),
    );
    if (!fits) return refuse(PLAIN_HTTP_REFUSED);
  }
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** Parse `HAFATRA_WEBHOOK_ALLOW_HOSTS` (comma-separated hostnames). */
export function parseAllowHosts(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host.length > 0);
}
