import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useCursorList } from '../cursor-list';
import { Field, Page, Pager, Table, Time } from '../ui';

interface Entry {
  id: string;
  at: string;
  member: { id: string; email: string } | null;
  apiKey: { id: string; name: string | null } | null;
  action: string;
  target: string | null;
  address: string | null;
  detail: Record<string, unknown>;
}

/** The families of actions, for the filter: the server takes one action or a family ending in a dot. */
const FAMILIES: [string, string][] = [
  ['messages.', 'Sends'],
  ['message.', 'Cancels and resends'],
  ['opt_out.', 'Opt-outs'],
  ['webhook.', 'Webhooks'],
  ['key.', 'API keys'],
  ['device.', 'Phones'],
  ['pairing.', 'Pairings'],
  ['member.', 'Members and sign-ins'],
  ['invitation.', 'Invitations'],
  ['organization.', 'Settings'],
  ['mobile_money.', 'Mobile money'],
];

/** Names for the ids the log keeps: a phone's and a key's name, a member's email. */
interface Names {
  devices: Map<string, string>;
  keys: Map<string, string>;
  members: Map<string, string>;
}

/** The "On" column: what was acted on, by name and linked where it has a page; the raw id in its title. */
function Target(p: { e: Entry; names: Names }) {
  const t = p.e.target;
  if (!t) return <span class="muted">—</span>;
  const link = (href: string, text: ComponentChildren) => (
    <a href={href} title={t}>
      {text}
    </a>
  );
  const url = typeof p.e.detail.url === 'string' ? p.e.detail.url : null;
  if (t.startsWith('msg_')) return link(`/messages/${t}`, 'a message');
  if (t.startsWith('bat_')) return <span title={t}>{`${p.e.detail.messages ?? 'some'} message${p.e.detail.messages === 1 ? '' : 's'} (batch ${t.slice(-6)})`}</span>;
  if (t.startsWith('whe_')) return link(`/webhooks/${t}`, url ?? 'a webhook endpoint');
  if (t.startsWith('dev_')) return link('/phones', p.names.devices.get(t) ?? 'a phone');
  if (t.startsWith('key_')) return link('/keys', p.names.keys.get(t) ?? 'an API key');
  if (t.startsWith('mem_')) return <span title={t}>{p.names.members.get(t) ?? 'a member'}</span>;
  if (t.startsWith('mm_')) return link(`/mobile-money?id=${t}`, 'a mobile-money record');
  if (t.startsWith('org_')) return <span title={t}>the organization</span>;
  if (t.startsWith('opt_')) return link('/opt-outs', 'an opt-out');
  return <span>{t}</span>;
}

function who(e: Entry): string {
  if (e.member) return e.member.email;
  if (e.apiKey) return `API key ${e.apiKey.name ?? e.apiKey.id}`;
  return 'the server (CLI)';
}

export function Audit() {
  const [action, setAction] = useState('');
  const [by, setBy] = useState('');
  const [names, setNames] = useState<Names>({ devices: new Map(), keys: new Map(), members: new Map() });
  const list = useCursorList<Entry>('/dashboard/v1/audit', 'entries', { ...(action ? { action } : {}), ...(by ? { by } : {}) });
  useEffect(() => {
    // Names are a nicety: the log reads without them.
    void Promise.all([
      api.get<{ devices: { id: string; name: string }[] }>('/v1/devices').catch(() => ({ devices: [] })),
      api.get<{ keys: { id: string; name: string }[] }>('/dashboard/v1/keys').catch(() => ({ keys: [] })),
      api.get<{ members: { id: string; email: string }[] }>('/dashboard/v1/members').catch(() => ({ members: [] })),
    ]).then(([d, k, m]) =>
      setNames({ devices: new Map(d.devices.map((x) => [x.id, x.name])), keys: new Map(k.keys.map((x) => [x.id, x.name])), members: new Map(m.members.map((x) => [x.id, x.email])) }),
    );
  }, []);
  return (
    <Page title="Audit log">
      <div class="filters">
        <Field label="Action">
          {(id) => (
            <select id={id} value={action} onChange={(e) => setAction(e.currentTarget.value)}>
              <option value="">All actions</option>
              {FAMILIES.map(([value, label]) => (
                <option value={value}>{label}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="By">
          {(id) => (
            <select id={id} value={by} onChange={(e) => setBy(e.currentTarget.value)}>
              <option value="">Anyone</option>
              {[...names.members].map(([memberId, email]) => (
                <option value={memberId}>{email}</option>
              ))}
              <option value="api_key">An API key</option>
              <option value="cli">The server (CLI)</option>
            </select>
          )}
        </Field>
      </div>
      <Table
        caption="Actions of members and API keys, newest first"
        rows={list.rows}
        rowKey={(e) => e.id}
        empty={<p>No action recorded{action || by ? ' matches these filters' : ' yet'}.</p>}
        columns={[
          { label: 'When', cell: (e) => <Time at={e.at} /> },
          { label: 'Who', cell: who },
          { label: 'What', cell: (e) => <code>{e.action}</code> },
          { label: 'On', cell: (e) => <Target e={e} names={names} />, class: 'wide' },
          { label: 'From', cell: (e) => e.address ?? '—' },
        ]}
      />
      <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
    </Page>
  );
}
