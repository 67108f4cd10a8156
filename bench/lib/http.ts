/** Small JSON client for setup calls against the public API (not on any measured path). */
export interface ApiReply<T = any> {
  status: number;
  body: T;
}

export async function api<T = any>(base: string, key: string, method: string, path: string, body?: unknown): Promise<ApiReply<T>> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the caller sees the text
  }
  return { status: res.status, body: parsed as T };
}

/** Like api() but throws with the server's answer unless the status is the expected one. */
export async function apiExpect<T = any>(expected: number, base: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const r = await api<T>(base, key, method, path, body);
  if (r.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}
