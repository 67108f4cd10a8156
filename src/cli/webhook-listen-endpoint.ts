// The endpoint of `hafatra webhook listen`, made through the API like any client's: found by
// its URL and reused (its secret rotated, since a secret is only ever shown once; the old one
// keeps signing 24 hours, which this listener no longer needs), or created. No server restart:
// the organization's private targets are read at each creation and delivery.

export interface ListenEndpointRequest {
  /** The Hafatra server, e.g. http://localhost:3000. */
  apiUrl: string;
  apiKey: string;
  /** The listener's own URL. */
  listenUrl: string;
  /** Empty: every subscribable type. */
  eventTypes: string[];
}

export interface ListenEndpoint {
  id: string;
  secret: string;
  created: boolean;
}

/** The API refused, or could not be reached: the message says what to do. */
export class ListenEndpointError extends Error {
  override name = 'ListenEndpointError';
}

interface Endpoint {
  id: string;
  url: string;
  enabled: boolean;
}

async function call<T>(req: ListenEndpointRequest, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(new URL(path, req.apiUrl), {
      method,
      headers: { Authorization: `Bearer ${req.apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new ListenEndpointError(`cannot reach Hafatra at ${req.apiUrl} (${(err as Error).message}); is it running? (--url)`);
  }
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as { error?: { code?: string; message?: string } }) : {};
  if (!res.ok) throw new ListenEndpointError(`${method} ${path}: ${parsed.error?.code ?? res.status}: ${parsed.error?.message ?? text}`);
  return parsed as T;
}

export async function ensureListenEndpoint(req: ListenEndpointRequest): Promise<ListenEndpoint> {
  const listed = await call<{ endpoints: Endpoint[]; eventTypes: string[] }>(req, 'GET', '/v1/webhooks');
  const eventTypes = req.eventTypes.length > 0 ? req.eventTypes : listed.eventTypes;
  const existing = listed.endpoints.find((e) => e.url === req.listenUrl);
  if (existing) {
    await call(req, 'PATCH', `/v1/webhooks/${existing.id}`, { eventTypes, enabled: true });
    const rotated = await call<{ secret: string }>(req, 'POST', `/v1/webhooks/${existing.id}/rotate-secret`);
    return { id: existing.id, secret: rotated.secret, created: false };
  }
  const made = await call<{ endpoint: Endpoint; secret: string }>(req, 'POST', '/v1/webhooks', {
    url: req.listenUrl,
    description: 'hafatra webhook listen',
    eventTypes,
  });
  return { id: made.endpoint.id, secret: made.secret, created: true };
}
