import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useLive } from '../live';
import { navigate } from '../router';
import { useMe } from '../session';
import { TERMINAL_STATUSES } from '../../../src/messages/status.ts';
import type { Message, MessageEvent, MessageWebhookEvent } from '../server-types';
import { Action, Badge, Loading, Page, Time, notify } from '../ui';

/** Routing codes on the timeline, in words: why a claim chose its SIM, why a job left its phone (docs/routing.md). */
const ROUTING_CODES: Record<string, string> = {
  claim_timeout: 'withdrawn: the phone did not start sending it in time; another phone gets it first',
  phone_silent: 'withdrawn: the phone went silent; another phone gets it first',
  phone_limited: "withdrawn: the phone hit Android's SMS limit; another phone gets it first",
  auto_resend: 'an automatic resend of a failed message',
  scheduled: 'its scheduled time came',
  sim_requested: 'the SIM the send named',
  sim_on_net: "a SIM on the recipient's network",
  sim_default: "the phone's default SIM",
  on_net_sim_capped: "the default SIM: the SIM on the recipient's network reached its daily cap",
  off_net_after_wait: "the default SIM: no phone on the recipient's network took it in time",
};

/** A phone by its name, linked to the Phones page; the id in its title. */
function PhoneName(p: { id: string }) {
  const [name, setName] = useState<string | null>(null);
  useEffect(
    () =>
      void api.get<{ name: string }>(`/v1/devices/${p.id}`).then(
        (d) => setName(d.name),
        () => setName(null),
      ),
    [p.id],
  );
  return (
    <a href="/phones" title={p.id} data-testid="message-phone">
      {name ?? p.id}
    </a>
  );
}

/** The webhook events about a message and where each went, each delivery a way into the inspector. */
function WebhookEvents(p: { messageId: string }) {
  const [events, setEvents] = useState<MessageWebhookEvent[] | null>(null);
  const load = () => api.get<{ events: MessageWebhookEvent[] }>(`/dashboard/v1/messages/${p.messageId}/webhook-events`).then((r) => setEvents(r.events), notify.error);
  useEffect(() => void load(), [p.messageId]);
  useLive('webhooks', () => void load());
  useLive('messages', () => void load());
  if (!events) return <Loading />;
  if (events.length === 0) return <p class="muted">No webhook event about this message: no enabled endpoint subscribed to its changes.</p>;
  return (
    <ol class="timeline" data-testid="message-webhook-events">
      {events.map((e) => (
        <li key={e.id}>
          <code>{e.type}</code> <Time at={e.createdAt} />
          {e.deliveries.length === 0 ? (
            <span class="muted"> not delivered to any endpoint</span>
          ) : (
            <ul class="plain-list">
              {e.deliveries.map((d) => (
                <li key={d.id}>
                  <Badge value={d.status} /> <a href={`/webhooks/${d.endpointId}?delivery=${d.id}`}>{d.url}</a>{' '}
                  <span class="muted">
                    {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                    {d.lastStatusCode ? `, last HTTP ${d.lastStatusCode}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

export function MessageDetail(p: { id: string }) {
  const [m, setM] = useState<(Message & { events: MessageEvent[] }) | null>(null);
  const load = () => api.get<Message & { events: MessageEvent[] }>(`/v1/messages/${p.id}`).then(setM, notify.error);
  useEffect(() => void load(), [p.id]);
  useLive('messages', () => void load());
  const resends = useResends(m);
  const { can } = useMe();
  if (!m)
    return (
      <Page title="Message">
        <Loading />
      </Page>
    );
  return (
    <Page
      title={`Message to ${m.to}`}
      actions={
        can('admin') && (
          <>
            {m.status === 'queued' || m.status === 'accepted' ? (
              <Action
                kind="danger"
                confirm="The message will not be sent. This cannot be undone."
                done="Message cancelled."
                run={async () => setM({ ...m, ...(await api.post<Message>(`/v1/messages/${m.id}/cancel`)) })}
              >
                Cancel message
              </Action>
            ) : null}
            {TERMINAL_STATUSES.has(m.status) ? (
              <Action
                // A failed message is worth sending again; a delivered one rarely is, so it is asked first.
                kind={m.status === 'delivered' ? 'plain' : 'primary'}
                confirm={m.status === 'delivered' ? 'This message was delivered. Send the same text to the same number again, as a new message?' : undefined}
                done="Sent again as a new message."
                run={async () => {
                  const r = await api.post<{ messages: Message[] }>(`/v1/messages/${m.id}/resend`, undefined, { 'idempotency-key': `resend-${m.id}-${Date.now()}` });
                  navigate(`/messages/${r.messages[0]!.id}`);
                }}
              >
                Resend
              </Action>
            ) : null}
          </>
        )
      }
    >
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <Badge value={m.status} />
          {m.failureCode && <> — {m.failureCode}</>}
        </dd>
        <dt>Conversation</dt>
        <dd>
          <a href={`/conversations/${encodeURIComponent(m.to)}`}>Everything sent to and received from {m.to}</a>
        </dd>
        <dt>Body</dt>
        <dd class="body">{m.body}</dd>
        <dt>Segments</dt>
        <dd>
          {m.segments} ({m.encoding === 'gsm7' ? 'GSM-7' : 'UCS-2'})
        </dd>
        <dt>Phone</dt>
        <dd>{m.deviceId ? <PhoneName id={m.deviceId} /> : 'not claimed yet'}</dd>
        {m.sendAt && (
          <>
            <dt>Scheduled for</dt>
            <dd>
              <Time at={m.sendAt} />
            </dd>
          </>
        )}
        <dt>Expires</dt>
        <dd>
          <Time at={m.expiresAt} />
        </dd>
        {m.resendOfId && (
          <>
            <dt>{m.events[0]?.code === 'auto_resend' ? 'Automatic resend of' : 'Resend of'}</dt>
            <dd>
              <a href={`/messages/${m.resendOfId}`}>{m.resendOfId}</a>
            </dd>
          </>
        )}
        {resends.length > 0 && (
          <>
            <dt>Sent again as</dt>
            <dd>
              {resends.map((r) => (
                <>
                  <a href={`/messages/${r.id}`}>{r.id}</a> <Badge value={r.status} />{' '}
                </>
              ))}
            </dd>
          </>
        )}
        <dt>Id</dt>
        <dd>
          <code>{m.id}</code>
        </dd>
      </dl>
      <h2>Timeline</h2>
      <ol class="timeline">
        {m.events.map((e) => (
          <li>
            <Badge value={e.toStatus} /> <Time at={e.at} />{' '}
            <span class="muted">
              by {e.source}
              {e.code ? `, ${e.code}` : ''}
              {e.code && ROUTING_CODES[e.code] ? ` (${ROUTING_CODES[e.code]})` : ''}
            </span>
          </li>
        ))}
      </ol>
      <h2>Webhook events</h2>
      <WebhookEvents messageId={m.id} />
    </Page>
  );
}

/**
 * The messages that resend this one, once it is in a final status (the only ones the server
 * resends; an automatic resend of a failed one is made within moments): looked for among the
 * recipient's latest messages, one index range, rather than through a filter of its own.
 */
function useResends(m: Message | null): Message[] {
  const [found, setFound] = useState<Message[]>([]);
  const id = m?.id;
  const to = m?.to;
  const final = m ? TERMINAL_STATUSES.has(m.status) : false;
  useEffect(() => {
    setFound([]);
    if (!final || !to) return;
    api.get<{ messages: Message[] }>(`/v1/messages?to=${encodeURIComponent(to)}&limit=50`).then((r) => setFound(r.messages.filter((x) => x.resendOfId === id)), notify.error);
  }, [id, to, final]);
  return found;
}
