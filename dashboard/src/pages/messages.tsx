import type { ComponentChildren } from 'preact';
import { SearchForm, useSearch } from '../search';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useCursorList } from '../cursor-list';
import { useLive } from '../live';
import { navigate, queryParam } from '../router';
import { useMe } from '../session';
import { MESSAGE_STATUSES } from '../../../src/messages/status.ts';
import type { Device, Message } from '../server-types';
import { Badge, Field, Page, Pager, Table, Time } from '../ui';

const columns: { label: string; cell: (m: Message) => ComponentChildren; class?: string }[] = [
  { label: 'To', cell: (m) => <a href={`/messages/${m.id}`}>{m.to}</a> },
  { label: 'Status', cell: (m) => <Badge value={m.status} /> },
  { label: 'Message', cell: (m) => <span class="clip">{m.body}</span>, class: 'wide' },
  { label: 'Created', cell: (m) => <Time at={m.createdAt} /> },
];

export function Messages(p: { search: string }) {
  const filters = { status: queryParam(p.search, 'status'), deviceId: queryParam(p.search, 'deviceId'), to: queryParam(p.search, 'to') };
  const list = useCursorList<Message>('/v1/messages', 'messages', filters);
  const q = queryParam(p.search, 'q');
  const [reloads, setReloads] = useState(0);
  const found = useSearch<Message>('/dashboard/v1/search/messages', 'messages', q, reloads);
  const [devices, setDevices] = useState<Pick<Device, 'id' | 'name'>[]>([]);
  useEffect(
    () =>
      void api.get<{ devices: Device[] }>('/v1/devices').then(
        (d) => setDevices(d.devices),
        () => undefined,
      ),
    [],
  );
  useLive('messages', () => {
    void list.reload();
    if (q) setReloads((n) => n + 1);
  });
  const setFilter = (name: string, value: string) => {
    const q = new URLSearchParams(p.search);
    if (value) q.set(name, value);
    else q.delete(name);
    navigate(`/messages${q.size ? `?${q}` : ''}`);
  };
  const { can } = useMe();
  return (
    <Page
      title="Messages"
      actions={
        can('admin') && (
          <a class="button primary" href="/send">
            Send messages
          </a>
        )
      }
    >
      <SearchForm
        q={q}
        label="Search"
        hint="A whole number or a message id (every message); part of a number or words of the text (the newest 100,000 messages)."
        onSearch={(text) => setFilter('q', text)}
      />
      {q ? (
        <>
          <p>
            {found === null ? 'Searching…' : `${found.length === 50 ? 'The newest 50' : found.length} message${found.length === 1 ? '' : 's'} match “${q}”.`} <a href="/messages">Clear the search</a>
          </p>
          <Table caption={`Messages matching ${q}, newest first`} rows={found} rowKey={(m) => m.id} empty={<p>No message matches “{q}”.</p>} columns={columns} />
        </>
      ) : (
        <>
          <form
            class="filters"
            onSubmit={(e) => {
              e.preventDefault();
              setFilter('to', String(new FormData(e.currentTarget).get('to') ?? ''));
            }}
          >
            <Field label="Status">
              {(id) => (
                <select id={id} value={filters.status} onChange={(e) => setFilter('status', e.currentTarget.value)}>
                  <option value="">Any status</option>
                  {MESSAGE_STATUSES.map((s) => (
                    <option value={s}>{s}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Phone">
              {(id) => (
                <select id={id} value={filters.deviceId} onChange={(e) => setFilter('deviceId', e.currentTarget.value)}>
                  <option value="">Any phone</option>
                  {devices.map((d) => (
                    <option value={d.id}>{d.name}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Recipient">{(id) => <input id={id} name="to" type="search" defaultValue={filters.to} placeholder="034 12 345 67" />}</Field>
            <button type="submit">Filter</button>
          </form>
          <Table
            caption="Messages, newest first"
            rows={list.rows}
            rowKey={(m) => m.id}
            empty={
              filters.status || filters.deviceId || filters.to ? (
                <p>
                  No message matches these filters. <a href="/messages">Clear the filters</a>.
                </p>
              ) : (
                <p>No message yet. {can('admin') ? <a href="/send">Send your first message</a> : 'Messages sent by the organization appear here.'}</p>
              )
            }
            columns={columns}
          />
          <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
        </>
      )}
    </Page>
  );
}
