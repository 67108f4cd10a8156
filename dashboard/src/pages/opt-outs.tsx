import { useState } from 'preact/hooks';
import { api } from '../api';
import { useCursorList } from '../cursor-list';
import { useMe } from '../session';
import { Action, Field, Form, Page, Pager, Table, Time, notify, useSubmit } from '../ui';
import type { OptOut } from '../server-types';

const SOURCE: Record<OptOut['source'], string> = { sms: 'Their SMS', api: 'API', member: 'A member' };

/** The numbers no send of the organization reaches: their messages are created failed (opted_out). */
export function OptOuts() {
  const { can } = useMe();
  const [number, setNumber] = useState('');
  const list = useCursorList<OptOut>('/v1/opt-outs', 'optOuts', number ? { number } : {});
  const add = useSubmit(async (f) => {
    const reason = String(f.get('reason') ?? '').trim();
    const made = await api.post<OptOut>('/v1/opt-outs', { number: String(f.get('number')), ...(reason ? { reason } : {}) });
    notify.success(`${made.number} will receive no message.`);
    (document.getElementById('opt-out-add') as HTMLFormElement | null)?.reset();
    await list.reload();
  });
  return (
    <Page title="Opt-outs">
      <p class="muted">
        No message of the organization reaches these numbers: a send to one of them creates its message failed, with the code opted_out, and does not count against the daily limit. A number is added
        when it sends a stop word (STOP, ARRET…) and removed when it sends a start word (START); the words are in Settings.
      </p>
      {can('admin') && (
        <Form class="card" id="opt-out-add" submit={add}>
          <h2>Add a number</h2>
          <Field label="Number" hint="International (+261…) or national in the organization's country.">
            {(id) => <input id={id} name="number" required maxLength={32} inputMode="tel" autoComplete="off" />}
          </Field>
          <Field label="Reason (optional)">{(id) => <input id={id} name="reason" maxLength={200} />}</Field>
          <button class="primary" type="submit" disabled={add.busy}>
            Add to the opt-outs
          </button>
        </Form>
      )}
      <div class="filters">
        <Field label="Find a number">{(id) => <input id={id} type="search" value={number} maxLength={32} onChange={(e) => setNumber(e.currentTarget.value.trim())} />}</Field>
      </div>
      <Table
        caption="Opted-out numbers, newest first"
        rows={list.rows}
        rowKey={(o) => o.id}
        empty={<p>No opted-out number{number ? ' matches' : ' yet'}.</p>}
        columns={[
          { label: 'Number', cell: (o) => o.number },
          { label: 'By', cell: (o) => (o.source === 'sms' && o.incomingMessageId ? <span title={o.incomingMessageId}>{SOURCE.sms}</span> : SOURCE[o.source]) },
          { label: 'Reason', cell: (o) => o.reason ?? '—', class: 'wide' },
          { label: 'Since', cell: (o) => <Time at={o.createdAt} /> },
          {
            label: 'Actions',
            cell: (o) =>
              can('admin') ? (
                <Action
                  kind="danger"
                  confirm={`Send to ${o.number} again? Only do this if its owner asked for it.`}
                  done={`${o.number} removed from the opt-outs.`}
                  run={async () => {
                    await api.del(`/v1/opt-outs/${o.id}`);
                    await list.reload();
                  }}
                >
                  Remove {o.number}
                </Action>
              ) : (
                '—'
              ),
          },
        ]}
      />
      <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
    </Page>
  );
}
