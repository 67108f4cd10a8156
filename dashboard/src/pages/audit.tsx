import { useCursorList } from '../cursor-list';
import { Page, Pager, Table, Time } from '../ui';

interface Entry {
  id: string;
  at: string;
  member: { email: string } | null;
  action: string;
  target: string | null;
  address: string | null;
  detail: Record<string, unknown>;
}

export function Audit() {
  const list = useCursorList<Entry>('/dashboard/v1/audit', 'entries', {});
  return (
    <Page title="Audit log">
      <Table
        caption="Member actions, newest first"
        rows={list.rows}
        rowKey={(e) => e.id}
        empty={<p>No action recorded yet.</p>}
        columns={[
          { label: 'When', cell: (e) => <Time at={e.at} /> },
          { label: 'Who', cell: (e) => e.member?.email ?? 'the server (CLI)' },
          { label: 'What', cell: (e) => <code>{e.action}</code> },
          { label: 'On', cell: (e) => e.target ?? '—', class: 'wide' },
          { label: 'From', cell: (e) => e.address ?? '—' },
        ]}
      />
      <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
    </Page>
  );
}
