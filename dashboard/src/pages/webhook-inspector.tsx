import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useLive } from '../live';
import { useMe } from '../session';
import { Action, Badge, Dialog, Loading, Time, notify } from '../ui';
import type { InspectedDelivery, LoggedAttempt } from '../server-types';

/** Each attempt's answer: its status and the first KiB of its body, or why there was none. */
function Attempts(p: { attempts: LoggedAttempt[]; total: number }) {
  if (p.attempts.length === 0) return <p class="muted">No attempt yet.</p>;
  return (
    <ol class="attempts" data-testid="delivery-attempts">
      {p.attempts.map((a) => (
        <li key={a.number}>
          <p>
            <strong>Attempt {a.number}</strong> <Time at={a.startedAt} />, {a.durationMs} ms:{' '}
            <span class={`badge ${a.statusCode && a.statusCode < 300 ? 'good' : 'bad'}`}>{a.statusCode ? `HTTP ${a.statusCode}` : 'no answer'}</span>
            {a.error && !a.statusCode && <span> {a.error}</span>}
          </p>
          {a.responseExcerpt ? (
            <pre class="code" data-testid={`attempt-${a.number}-answer`}>
              {a.responseExcerpt}
            </pre>
          ) : (
            a.statusCode !== null && <p class="muted">Empty answer.</p>
          )}
        </li>
      ))}
      {p.total > p.attempts.length && <li class="muted">Earlier attempts are not kept (the last {p.attempts.length} are).</li>}
    </ol>
  );
}

const pretty = (json: string) => {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
};

/** One delivery: the request it sends (URL, headers, body), its last answer and timing, and a way to send it again. */
export function Inspector(p: { endpointId: string; deliveryId: string; onClose: () => void; onRedelivered: () => void }) {
  const [it, setIt] = useState<InspectedDelivery | null>(null);
  const { can } = useMe();
  const load = () => api.get<InspectedDelivery>(`/dashboard/v1/webhooks/${p.endpointId}/deliveries/${p.deliveryId}`).then(setIt, notify.error);
  useEffect(() => void load(), [p.deliveryId]);
  useLive('webhooks', () => void load());
  const d = it?.delivery;
  return (
    <Dialog title="Webhook delivery" onClose={p.onClose}>
      {!it || !d ? (
        <Loading />
      ) : (
        <>
          <dl class="facts" data-testid="delivery-outcome">
            <dt>Event</dt>
            <dd>
              {d.eventType} <code>{d.eventId}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <Badge value={d.status} /> after {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
            </dd>
            <dt>Last answer</dt>
            <dd>{d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')}</dd>
            {d.lastStatusCode && d.lastError && (
              <>
                <dt>Error</dt>
                <dd>{d.lastError}</dd>
              </>
            )}
            <dt>Made</dt>
            <dd>
              <Time at={d.createdAt} />
            </dd>
            <dt>Last attempt</dt>
            <dd>
              <Time at={d.lastAttemptAt} />
            </dd>
            <dt>Next attempt</dt>
            <dd>
              <Time at={d.nextAttemptAt} />
            </dd>
          </dl>
          <h3>Request</h3>
          <p>
            <code>
              {it.request.method} {it.request.url}
            </code>
          </p>
          <pre class="code" data-testid="delivery-headers">
            {Object.entries(it.request.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
          </pre>
          <pre class="code" data-testid="delivery-body">
            {pretty(it.request.body)}
          </pre>
          <h3>Attempts</h3>
          <Attempts attempts={it.attempts} total={d.attempts} />
          <div class="actions">
            {can('admin') && (d.status === 'dead' || d.status === 'retrying') && (
              <Action
                done="Sent again."
                run={async () => {
                  await api.post(`/v1/webhooks/${p.endpointId}/deliveries/${d.id}/redeliver`);
                  p.onRedelivered();
                  await load();
                }}
              >
                Send again
              </Action>
            )}
            <button type="button" onClick={p.onClose}>
              Close
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
