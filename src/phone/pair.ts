import { DeviceProtocolError, PAIR_PATH, type PairRequest, type PairResult } from './protocol.js';

/** POST /device/v1/pair: a one-time pairing code for this phone's device id and token. */
export async function pairDevice(baseUrl: string, request: PairRequest): Promise<PairResult> {
  const res = await fetch(baseUrl.replace(/\/+$/, '') + PAIR_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.status !== 200) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new DeviceProtocolError(error?.code ?? `http_${res.status}`, error?.message ?? `pairing failed with HTTP ${res.status}`);
  }
  const { deviceId, token } = body as PairResult;
  return { deviceId, token };
}
