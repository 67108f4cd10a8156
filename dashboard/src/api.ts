import { namedField, pathWords } from './field-words';

/** The one way the dashboard talks to the server: same-origin JSON, errors in words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined | null>;

let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (f: () => void) => (onSignedOut = f);

async function call<T>(method: string, path: string, body?: unknown, query?: Query, headers: Record<string, string> = {}): Promise<T> {
  const qs = query
    ? new URLSearchParams(
        Object.entries(query)
          .filter(([, v]) => v !== undefined && v !== null && v !== '')
          .map(([k, v]) => [k, String(v)]),
      ).toString()
    : '';
  let res: Response;
  try {
    res = await fetch(path + (qs ? `?${qs}` : ''), {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The server could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const e = (data as { error?: { code: string; message: string } } | undefined)?.error;
    if (res.status === 401 && !path.startsWith('/dashboard/v1/session') && !path.startsWith('/dashboard/v1/links')) onSignedOut();
    throw new ApiError(res.status, e?.code ?? 'error', e?.message ?? `The server answered ${res.status}.`, Number(res.headers.get('retry-after')) || undefined);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => call<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body ?? {}, undefined, headers),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  del: <T>(path: string) => call<T>('DELETE', path),
};

/** An error as a sentence for a person: the server's message, with a first word of context. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const what: Record<number, string> = { 403: 'Not allowed', 404: 'Not found', 409: 'Not possible now' };
    const head = what[err.status] ?? (err.status >= 500 ? 'The server had a problem' : null);
    // `carriers[0].prefixes[0]: must be…` names the API's field: said as words, "Carrier 1, prefix 1: must be…".
    const named = err.status === 400 ? namedField(err.message) : null;
    const message = named ? `${pathWords(named.root + named.rest)}: ${named.text}` : err.message;
    const text = head ? `${head}: ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
    return text.endsWith('.') ? text : `${text}.`;
  }
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong. Try again.';
}
