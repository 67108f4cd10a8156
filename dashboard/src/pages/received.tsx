import type { ComponentChildren } from 'preact';
import { SearchForm, useSearch } from '../search';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useCursorList } from '../cursor-list';
import { downloadCsv } from '../csv';
import { useLive } from '../live';
import { navigate, queryParam } from '../router';
import { Action, Badge, Field, Page, Pager, Table, Time } from '../ui';
import type { IncomingMessage } from '../server-types';

/** Every page of a filtered list, for an export (bounded: at most `max` rows). */
export async function allPages<T>(path: string, field: string, filters: Record<string, string>, max = 50_000): Promise<T[]> {
  const out: T[] = [];
  let before: string | undefined;
  do {
    const page = await api.get<Record<string, unknown>>(path, { ...filters, limit: 100, before });
    out.push(...(page[field] as T[]));
    before = (page.nextCursor as string | null) ?? undefined;
  } while (before && out.length < max);
  return out;
}

const columns: { label: string; cell: (m: IncomingMessage) => ComponentChildren; class?: string }[] = [
  { label: 'From', cell: (m) => (/^\+\d+$/.test(m.from) ? <a href={`/conversations/${encodeURIComponent(m.from)}`}>{m.from}</a> : m.from) },
  { label: 'Message', cell: (m) => m.body ?? <span class="muted">removed after the retention period</span>, class: 'wide' },
  {
    label: 'Mobile money',
    cell: (m) =>
      m.mobileMoney ? (
        <a href={`/mobile-money?open=${m.mobileMoney.id}`}>
          <Badge value={m.mobileMoney.classification} />
        </a>
      ) : (
        '—'
      ),
  },
  { label: 'Received', cell: (m) => <Time at={m.receivedAt} /> },
];

export function Received(p: { search: string }) {
  const filters = { deviceId: queryParam(p.search, 'deviceId') };
  const list = useCursorList<IncomingMessage>('/v1/incoming', 'messages', filters);
  const q = queryParam(p.search, 'q');
  const [reloads, setReloads] = useState(0);
  const found = useSearch<IncomingMessage>('/dashboard/v1/search/incoming', 'incoming', q, reloads);
  const [devices, setDevices] = useState<{ id: string; name: string }[]>([]);
  useEffect(
    () =>
      void api.get<{ devices: { id: string; name: string }[] }>('/v1/devices').then(
        (d) => setDevices(d.devices),
        () => undefined,
      ),
    [],
  );
  useLive('received', () => {
    void list.reload();
    if (q) setReloads((n) => n + 1);
  });
  return (
    <Page
      title="Received SMS"
      actions={
        <Action
          done="The CSV file is downloaded."
          run={async () => {
            const rows = await allPages<IncomingMessage>('/v1/incoming', 'messages', filters);
            downloadCsv(
              'received-sms.csv',
              ['id', 'receivedAt', 'deviceId', 'from', 'body'],
              rows.map((r) => [r.id, r.receivedAt, r.deviceId, r.from, r.body]),
            );
          }}
        >
          Export CSV
        </Action>
      }
    >
      <SearchForm
        q={q}
        label="Search"
        hint="A sender (number in part, or a name such as MVola), words of the text, or an id."
        onSearch={(text) => navigate(text ? `/received?q=${encodeURIComponent(text)}` : '/received')}
      />
      {q ? (
        <>
          <p>
            {found === null ? 'Searching…' : `${found.length === 50 ? 'The newest 50' : found.length} SMS match “${q}”.`} <a href="/received">Clear the search</a>
          </p>
          <Table caption={`Received SMS matching ${q}, newest first`} rows={found} rowKey={(m) => m.id} empty={<p>No received SMS matches “{q}”.</p>} columns={columns} />
        </>
      ) : (
        <>
          <div class="filters">
            <Field label="Phone">
              {(id) => (
                <select id={id} value={filters.deviceId} onChange={(e) => navigate(e.currentTarget.value ? `/received?deviceId=${e.currentTarget.value}` : '/received')}>
                  <option value="">Any phone</option>
                  {devices.map((d) => (
                    <option value={d.id}>{d.name}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Table
            caption="Received SMS, newest first"
            rows={list.rows}
            rowKey={(m) => m.id}
            empty={<p>No SMS received yet. Phones forward what they receive once Hafatra is their default SMS app (see Phones).</p>}
            columns={columns}
          />
          <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
        </>
      )}
    </Page>
  );
}
