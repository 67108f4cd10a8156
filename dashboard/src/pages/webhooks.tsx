import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useCursorList } from '../cursor-list';
import { useLive } from '../live';
import { navigate, queryParam } from '../router';
import { useMe } from '../session';
import { Action, Badge, Dialog, Field, Form, Loading, Page, Pager, ShownOnce, Table, Time, notify, useSubmit, SubmitOrCancel } from '../ui';
import type { WebhookDelivery as Delivery, WebhookEndpoint as Endpoint } from '../server-types';
import { Inspector } from './webhook-inspector';

function EndpointForm(p: { eventTypes: string[]; endpoint?: Endpoint; onDone: (secret?: string) => void; onClose: () => void }) {
  const e = p.endpoint;
  const submit = useSubmit(async (f) => {
    const body = { url: String(f.get('url')), description: String(f.get('description') ?? '') || null, eventTypes: f.getAll('eventTypes').map(String) };
    if (body.eventTypes.length === 0) throw new Error('Choose at least one event.');
    if (e) {
      await api.patch(`/v1/webhooks/${e.id}`, body);
      notify.success('Endpoint saved.');
      p.onDone();
    } else {
      const made = await api.post<{ endpoint: Endpoint; secret: string }>('/v1/webhooks', body);
      p.onDone(made.secret);
    }
  });
  return (
    <Dialog title={e ? 'Edit endpoint' : 'New webhook endpoint'} onClose={p.onClose}>
      <Form submit={submit}>
        <Field label="URL" hint="A public HTTPS address.">
          {(id) => <input id={id} name="url" type="url" required defaultValue={e?.url} placeholder="https://example.org/hafatra" />}
        </Field>
        <Field label="Description">{(id) => <input id={id} name="description" maxLength={256} defaultValue={e?.description ?? ''} />}</Field>
        <fieldset>
          <legend>Events</legend>
          {p.eventTypes.map((t) => (
            <label class="check">
              <input type="checkbox" name="eventTypes" value={t} defaultChecked={e ? e.eventTypes.includes(t) : t.startsWith('message.')} /> {t}
            </label>
          ))}
        </fieldset>
        <SubmitOrCancel label={e ? 'Save' : 'Create'} busy={submit.busy} onCancel={p.onClose} />
      </Form>
    </Dialog>
  );
}

export function Webhooks() {
  const [data, setData] = useState<{ endpoints: Endpoint[]; eventTypes: string[] } | null>(null);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const { can } = useMe();
  const load = () => api.get<{ endpoints: Endpoint[]; eventTypes: string[] }>('/v1/webhooks').then(setData, notify.error);
  useEffect(() => void load(), []);
  useLive('webhooks', () => void load());
  return (
    <Page
      title="Webhooks"
      actions={
        can('admin') && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            Add an endpoint
          </button>
        )
      }
    >
      {secret && <ShownOnce label="Signing secret of the new endpoint" value={secret} onDone={() => setSecret(null)} />}
      <Table
        caption="Webhook endpoints"
        rows={data?.endpoints ?? null}
        rowKey={(e) => e.id}
        empty={<p>No endpoint yet. Add one to be told of each message's progress and each received SMS, signed with a secret.</p>}
        columns={[
          { label: 'URL', cell: (e) => <a href={`/webhooks/${e.id}`}>{e.url}</a>, class: 'wide' },
          {
            label: 'State',
            cell: (e) => (e.enabled ? e.consecutiveFailures ? <Badge value="failing" /> : <Badge value="enabled" /> : <Badge value={`disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}`} />),
          },
          { label: 'Last success', cell: (e) => <Time at={e.lastSuccessAt} /> },
        ]}
      />
      {creating && data && (
        <EndpointForm
          eventTypes={data.eventTypes}
          onClose={() => setCreating(false)}
          onDone={(s) => {
            setCreating(false);
            setSecret(s ?? null);
            void load();
          }}
        />
      )}
    </Page>
  );
}

/** `?delivery=` opens that delivery's inspector: the message page links here. */
export function WebhookDetail(p: { id: string; search: string }) {
  const [e, setE] = useState<Endpoint | null>(null);
  const [types, setTypes] = useState<string[]>([]);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [inspecting, setInspecting] = useState<string | null>(queryParam(p.search, 'delivery') || null);
  useEffect(() => setInspecting(queryParam(p.search, 'delivery') || null), [p.search]);
  const { can } = useMe();
  const list = useCursorList<Delivery>(`/v1/webhooks/${p.id}/deliveries`, 'deliveries', {});
  const load = () => {
    api.get<Endpoint>(`/v1/webhooks/${p.id}`).then(setE, notify.error);
    api.get<{ eventTypes: string[] }>('/v1/webhooks').then(
      (r) => setTypes(r.eventTypes),
      () => undefined,
    );
  };
  useEffect(load, [p.id]);
  useLive('webhooks', () => {
    load();
    void list.reload();
  });
  useLive('messages', () => void list.reload());
  if (!e)
    return (
      <Page title="Webhook endpoint">
        <Loading />
      </Page>
    );
  return (
    <Page
      title={e.url}
      actions={
        can('admin') && (
          <>
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <Action
              done="Test event sent: it appears in the log below."
              run={async () => {
                await api.post(`/v1/webhooks/${e.id}/test`);
                void list.reload();
              }}
            >
              Send a test event
            </Action>
            <Action done={e.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.'} run={async () => setE(await api.patch<Endpoint>(`/v1/webhooks/${e.id}`, { enabled: !e.enabled }))}>
              {e.enabled ? 'Disable' : 'Enable'}
            </Action>
            <Action
              confirm="A new secret replaces this one; the old one keeps working for 24 hours so you can switch without missing events."
              run={async () => {
                const r = await api.post<{ secret: string }>(`/v1/webhooks/${e.id}/rotate-secret`);
                setSecret(r.secret);
              }}
            >
              Rotate the secret
            </Action>
            <Action
              kind="danger"
              confirm="The endpoint and its delivery log are deleted. Nothing more is sent to it."
              done="Endpoint deleted."
              run={async () => {
                await api.del(`/v1/webhooks/${e.id}`);
                navigate('/webhooks');
              }}
            >
              Delete
            </Action>
          </>
        )
      }
    >
      {secret && <ShownOnce label="New signing secret" value={secret} onDone={() => setSecret(null)} />}
      <dl class="facts">
        <dt>Events</dt>
        <dd>{e.eventTypes.join(', ')}</dd>
        <dt>State</dt>
        <dd>
          {e.enabled ? 'enabled' : `disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`}, {e.consecutiveFailures} failure{e.consecutiveFailures === 1 ? '' : 's'} in a row
        </dd>
        <dt>Last success</dt>
        <dd>
          <Time at={e.lastSuccessAt} />
        </dd>
        <dt>Last failure</dt>
        <dd>
          <Time at={e.lastFailureAt} />
        </dd>
        {e.description && (
          <>
            <dt>Description</dt>
            <dd>{e.description}</dd>
          </>
        )}
      </dl>
      <h2>Delivery log</h2>
      <Table
        caption="Deliveries, newest first"
        rows={list.rows}
        rowKey={(d) => d.id}
        empty={<p>No delivery yet. Events of the types above are delivered here as they happen.</p>}
        columns={[
          {
            label: 'Event',
            cell: (d) => (
              <button type="button" class="link" onClick={() => setInspecting(d.id)}>
                {d.eventType}
              </button>
            ),
          },
          { label: 'Status', cell: (d) => <Badge value={d.status} /> },
          { label: 'Attempts', cell: (d) => d.attempts },
          { label: 'Last answer', cell: (d) => (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')), class: 'wide' },
          { label: 'Last attempt', cell: (d) => <Time at={d.lastAttemptAt} /> },
          ...(can('admin')
            ? [
                {
                  label: 'Actions',
                  cell: (d: Delivery) =>
                    (d.status === 'dead' || d.status === 'retrying') && (
                      <Action
                        done="Sent again."
                        run={async () => {
                          await api.post(`/v1/webhooks/${e.id}/deliveries/${d.id}/redeliver`);
                          void list.reload();
                        }}
                      >
                        Send again
                      </Action>
                    ),
                },
              ]
            : []),
        ]}
      />
      <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
      {inspecting && (
        <Inspector
          endpointId={e.id}
          deliveryId={inspecting}
          // Opened from a link: closing it leaves the page's address without the delivery.
          onClose={() => (queryParam(p.search, 'delivery') ? navigate(`/webhooks/${p.id}`, true) : setInspecting(null))}
          onRedelivered={() => void list.reload()}
        />
      )}
      {editing && (
        <EndpointForm
          endpoint={e}
          eventTypes={types}
          onClose={() => setEditing(false)}
          onDone={() => {
            setEditing(false);
            load();
          }}
        />
      )}
    </Page>
  );
}
