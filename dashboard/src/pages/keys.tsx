import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useMe } from '../session';
import { Action, Badge, Dialog, Field, Form, Page, ShownOnce, Table, Time, notify, useSubmit, SubmitOrCancel } from '../ui';
import type { ApiKey as Key } from '../server-types';

/** What each scope lets a key do (its routes: GET /openapi.json lists each route's scope). */
const SCOPES: [string, string][] = [
  ['messages:send', 'Send SMS, cancel a queued message, resend one'],
  ['messages:read', 'Read messages and their timelines'],
  ['devices:read', 'Read the phones, their state and send windows'],
  ['devices:write', 'Change, pause or revoke phones; set their send windows'],
  ['incoming:read', 'Read received SMS'],
  ['mobile-money:read', 'Read mobile-money records'],
  ['webhooks:read', 'Read webhook endpoints and their deliveries'],
  ['webhooks:write', 'Create, change and delete endpoints; rotate secrets, test, redeliver'],
  ['opt-outs:read', 'Read the opt-out list'],
  ['opt-outs:write', 'Add numbers to the opt-out list and remove them'],
];

function CreateKey(p: { onClose: () => void; onMade: (secret: string) => void }) {
  const submit = useSubmit(async (f) => {
    const days = Number(f.get('days'));
    const scopes = f.getAll('scopes').map(String);
    if (scopes.length === 0) throw new Error('Choose at least one scope.');
    const made = await api.post<{ secret: string }>('/dashboard/v1/keys', {
      name: String(f.get('name')),
      scopes,
      expiresAt: days ? new Date(Date.now() + days * 86_400_000).toISOString() : null,
    });
    p.onMade(made.secret);
  });
  return (
    <Dialog title="New API key" onClose={p.onClose}>
      <Form submit={submit}>
        <Field label="Name" hint="What uses it: “billing server”, “monitoring”.">
          {(id) => <input id={id} name="name" required maxLength={128} />}
        </Field>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map(([s, what]) => (
            <label class="check">
              <input type="checkbox" name="scopes" value={s} defaultChecked={s === 'messages:send' || s === 'messages:read'} /> <code>{s}</code> <span class="muted">{what}</span>
            </label>
          ))}
        </fieldset>
        <Field label="Expires">
          {(id) => (
            <select id={id} name="days" defaultValue="0">
              <option value="0">Never</option>
              <option value="7">In 7 days</option>
              <option value="30">In 30 days</option>
              <option value="90">In 90 days</option>
              <option value="365">In a year</option>
            </select>
          )}
        </Field>
        <SubmitOrCancel label="Create the key" busy={submit.busy} onCancel={p.onClose} />
      </Form>
    </Dialog>
  );
}

export function Keys() {
  const [keys, setKeys] = useState<Key[] | null>(null);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const { can } = useMe();
  const load = () => api.get<{ keys: Key[] }>('/dashboard/v1/keys').then((r) => setKeys(r.keys), notify.error);
  useEffect(() => void load(), []);
  const live = keys?.filter((k) => !k.revokedAt) ?? null;
  return (
    <Page
      title="API keys"
      actions={
        can('admin') && (
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            Create a key
          </button>
        )
      }
    >
      {secret && <ShownOnce label="Your new API key" value={secret} onDone={() => setSecret(null)} />}
      <Table
        caption="Live API keys"
        rows={live}
        rowKey={(k) => k.id}
        empty={<p>No live API key. {can('admin') ? 'Create one to send messages from your own software.' : 'An admin can create one.'}</p>}
        columns={[
          {
            label: 'Name',
            cell: (k) => (
              <>
                {k.name} <code class="muted">{k.hint}…</code>
              </>
            ),
          },
          { label: 'Scopes', cell: (k) => k.scopes.join(', '), class: 'wide' },
          { label: 'Last used', cell: (k) => (k.lastUsedAt ? <Time at={k.lastUsedAt} /> : 'never') },
          { label: 'Expires', cell: (k) => (k.expiresAt ? new Date(k.expiresAt).getTime() < Date.now() ? <Badge value="expired" /> : <Time at={k.expiresAt} /> : 'never') },
          ...(can('admin')
            ? [
                {
                  label: 'Actions',
                  cell: (k: Key) => (
                    <div class="actions">
                      <Action
                        confirm={`Rotate “${k.name}”? A new secret is shown once and the current one stops working at once.`}
                        run={async () => {
                          setSecret((await api.post<{ secret: string }>(`/dashboard/v1/keys/${k.id}/rotate`)).secret);
                          await load();
                        }}
                      >
                        Rotate
                      </Action>
                      <Action
                        kind="danger"
                        confirm={`Revoke “${k.name}”? It stops working at once; software using it gets 401.`}
                        done={`“${k.name}” is revoked.`}
                        run={async () => {
                          await api.del(`/dashboard/v1/keys/${k.id}`);
                          await load();
                        }}
                      >
                        Revoke
                      </Action>
                    </div>
                  ),
                },
              ]
            : []),
        ]}
      />
      {keys && keys.length > (live?.length ?? 0) && <p class="muted">{keys.length - (live?.length ?? 0)} revoked or rotated key(s) not shown.</p>}
      {creating && (
        <CreateKey
          onClose={() => setCreating(false)}
          onMade={(s) => {
            setCreating(false);
            setSecret(s);
            void load();
          }}
        />
      )}
    </Page>
  );
}
