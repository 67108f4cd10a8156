/**
 * The SSE client of SMS Gateway for Android (v1.43.0+, smsgate-mobile-protocol.md §4.2), as the
 * app reads it: any 2xx with `text/event-stream` is a successful open; frames are separated by a
 * blank line; `event:` names the event (none: MessageEnqueued), `data:` lines are joined with
 * `\n`; comment lines (`:keepalive`) and `id:`/`retry:` are ignored.
 */
export interface AppStreamEvent {
  event: string;
  data: string;
}

export interface OpenedStream {
  status: number;
  contentType: string | null;
  /** Resolves when the server closes the stream (or close() is called). */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string>, onEvent: (e: AppStreamEvent) => void, onComment?: (text: string) => void): Promise<OpenedStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const contentType = res.headers.get('content-type');
  if (!res.ok || !contentType?.startsWith('text/event-stream') || !res.body) {
    await res.text().catch(() => '');
    return { status: res.status, contentType, ended: Promise.resolve(), close: () => {} };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut !== -1) {
          parseFrame(buffer.slice(0, cut), onEvent, onComment);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close(), or the connection dropped: the app reconnects either way
    }
  })();
  return { status: res.status, contentType, ended, close: () => abort.abort() };
}

function parseFrame(frame: string, onEvent: (e: AppStreamEvent) => void, onComment?: (text: string) => void): void {
  let event: string | null = null;
  const data: string[] = [];
  let fields = 0;
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) {
      onComment?.(line.slice(1));
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'event') event = value;
    else if (name === 'data') data.push(value);
    else continue;
    fields++;
  }
  if (fields > 0) onEvent({ event: event ?? 'MessageEnqueued', data: data.join('\n') });
}
