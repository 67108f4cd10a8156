import { useEffect, useRef } from 'preact/hooks';

export type LiveTopic = 'messages' | 'device' | 'webhooks' | 'received';

type Listener = (frame: { type: string; [k: string]: unknown }) => void;
const listeners = new Set<{ topic: LiveTopic; fn: Listener }>();
let socket: WebSocket | null = null;
let connected = false;
let retryMs = 500;
let poller: ReturnType<typeof setInterval> | null = null;

/** While the socket is down, every listener is called every 5 s: pages refetch, as a poll. */
function startPolling() {
  poller ??= setInterval(() => listeners.forEach((l) => l.fn({ type: l.topic })), 5000);
}
function stopPolling() {
  if (poller) clearInterval(poller);
  poller = null;
}

function connect() {
  if (socket || listeners.size === 0) return;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/dashboard/v1/live`;
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    connected = true;
    retryMs = 500;
    stopPolling();
  };
  ws.onmessage = (e) => {
    const frame = JSON.parse(String(e.data)) as { type: string };
    // The server pushes only changes after its hello: whatever changed while this page had no
    // socket (a reconnect, a switch of pages) is fetched once now.
    if (frame.type === 'hello') listeners.forEach((l) => l.fn({ type: l.topic }));
    else listeners.forEach((l) => l.topic === frame.type && l.fn(frame));
  };
  ws.onclose = (e) => {
    socket = null;
    connected = false;
    if (listeners.size === 0) return;
    // 4401: the session ended or left the organization; a refetch now meets the 401 and signs out.
    if (e.code === 4401) listeners.forEach((l) => l.fn({ type: l.topic }));
    startPolling();
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };
}

/** Calls `fn` when the server says `topic` changed (server push), or every 5 s without a socket. */
export function useLive(topic: LiveTopic, fn: Listener) {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    const entry = { topic, fn: (f: Parameters<Listener>[0]) => ref.current(f) };
    listeners.add(entry);
    connect();
    if (!connected) startPolling();
    return () => {
      listeners.delete(entry);
      // A switch of pages unmounts one page's listeners just before the next page's mount: the
      // socket is kept unless nobody listens a moment later.
      setTimeout(() => {
        if (listeners.size > 0) return;
        stopPolling();
        socket?.close();
      }, 1000);
    };
  }, [topic]);
}
