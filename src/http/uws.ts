import uWS from 'uWebSockets.js';

/**
 * The trufflesuite build silently falls back to a Node http + ws implementation when its native
 * binary does not load (wrong Node ABI, missing glibc). That fallback is slow and lacks pub/sub,
 * so Hafatra refuses to start on it.
 */
export function nativeUws(): typeof uWS {
  if (typeof (uWS as unknown as Record<string, unknown>).us_listen_socket_close !== 'function') {
    throw new Error('uWebSockets.js native binary did not load (it fell back to its JS implementation). ' + 'Use Node 20 on Linux x64 with glibc >= 2.28.');
  }
  return uWS;
}

export type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_listen_socket } from 'uWebSockets.js';
