import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useMe } from '../session';
import { Action, Dialog, Field, Form, Page, ShownOnce, Table, Time, notify, useSubmit, SubmitOrCancel } from '../ui';
import type { Member } from '../server-types';

/** An open invitation, as GET /dashboard/v1/members lists it. */
type Invitation = Pick<Member, 'id' | 'email' | 'role'> & { expiresAt: string };

function Invite(p: { onClose: () => void; onMade: (url: string) => void }) {
  const submit = useSubmit(async (f) => {
    const r = await api.post<{ url: string }>('/dashboard/v1/invitations', { email: String(f.get('email')), role: String(f.get('role')) });
    p.onMade(r.url);
  });
  return (
    <Dialog title="Invite a person" onClose={p.onClose}>
      <Form submit={submit}>
        <Field label="Email">{(id) => <input id={id} name="email" type="email" required />}</Field>
        <Field label="Role" hint="Viewer: reads only. Admin: phones, keys, webhooks, sending, review. Owner: everything, members and settings too.">
          {(id) => (
            <select id={id} name="role" defaultValue="viewer">
              <option value="viewer">viewer</option>
              <option value="admin">admin</option>
              <option value="owner">owner</option>
            </select>
          )}
        </Field>
        <SubmitOrCancel label="Create the invitation link" busy={submit.busy} onCancel={p.onClose} />
      </Form>
    </Dialog>
  );
}

export function Members() {
  const [data, setData] = useState<{ members: Member[]; invitations: Invitation[] } | null>(null);
  const [inviting, setInviting] = useState(false);
  const [link, setLink] = useState<{ label: string; url: string } | null>(null);
  const { me } = useMe();
  const load = () => api.get<{ members: Member[]; invitations: Invitation[] }>('/dashboard/v1/members').then(setData, notify.error);
  useEffect(() => void load(), []);
  return (
    <Page
      title="Members"
      actions={
        <button type="button" class="primary" onClick={() => setInviting(true)}>
          Invite a person
        </button>
      }
    >
      {link && <ShownOnce label={link.label} value={link.url} onDone={() => setLink(null)} />}
      <Table
        caption="Members"
        rows={data?.members ?? null}
        rowKey={(m) => m.id}
        empty={<p>No member.</p>}
        columns={[
          {
            label: 'Email',
            cell: (m) => (
              <>
                {m.email}
                {m.id === me.member.id && <span class="muted"> (you)</span>}
              </>
            ),
            class: 'wide',
          },
          {
            label: 'Role',
            cell: (m) => (
              <select
                aria-label={`Role of ${m.email}`}
                value={m.role}
                onChange={async (e) => {
                  try {
                    await api.patch(`/dashboard/v1/members/${m.id}`, { role: e.currentTarget.value });
                    notify.success(`${m.email} is now ${e.currentTarget.value}.`);
                  } catch (err) {
                    notify.error(err);
                  }
                  void load();
                }}
              >
                <option value="viewer">viewer</option>
                <option value="admin">admin</option>
                <option value="owner">owner</option>
              </select>
            ),
          },
          { label: 'Last sign-in', cell: (m) => <Time at={m.lastSignInAt} /> },
          {
            label: 'Actions',
            cell: (m) => (
              <div class="actions">
                <Action run={async () => setLink({ label: `Password reset link for ${m.email} (1 hour)`, url: (await api.post<{ url: string }>(`/dashboard/v1/members/${m.id}/password-reset`)).url })}>
                  Reset link
                </Action>
                <Action
                  kind="danger"
                  confirm={`Remove ${m.email}? They are signed out at once and lose access to this organization.`}
                  done={`${m.email} removed.`}
                  run={async () => {
                    await api.del(`/dashboard/v1/members/${m.id}`);
                    await load();
                  }}
                >
                  Remove
                </Action>
              </div>
            ),
          },
        ]}
      />
      <h2>Open invitations</h2>
      <Table
        caption="Open invitations"
        rows={data?.invitations ?? null}
        rowKey={(i) => i.id}
        empty={<p class="muted">No open invitation.</p>}
        columns={[
          { label: 'Email', cell: (i) => i.email, class: 'wide' },
          { label: 'Role', cell: (i) => i.role },
          { label: 'Expires', cell: (i) => <Time at={i.expiresAt} /> },
          {
            label: 'Actions',
            cell: (i) => (
              <Action
                done="Invitation withdrawn."
                run={async () => {
                  await api.del(`/dashboard/v1/invitations/${i.id}`);
                  await load();
                }}
              >
                Withdraw
              </Action>
            ),
          },
        ]}
      />
      {inviting && (
        <Invite
          onClose={() => setInviting(false)}
          onMade={(url) => {
            setInviting(false);
            setLink({ label: 'Invitation link (works once, 7 days): pass it on', url });
            void load();
          }}
        />
      )}
    </Page>
  );
}
