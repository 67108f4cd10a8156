import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useCursorList } from '../cursor-list';
import { downloadCsv } from '../csv';
import { useLive } from '../live';
import { navigate, queryParam } from '../router';
import { useMe } from '../session';
import { Action, Badge, Dialog, Field, Form, Loading, Page, Pager, Table, Time, notify, useSubmit } from '../ui';
import { allPages } from './received';
import { ambiguityReasons, providerName, providerTime } from '../money-reading';
import type { IncomingMessage, MobileMoneyEvent } from '../server-types';

const money = (minor: number | null, currency: string | null) => (minor === null ? '—' : `${(minor / 100).toLocaleString(undefined, { minimumFractionDigits: 2 })} ${currency ?? ''}`);

/** The provider's own date as a time, the text it was read from beside it. */
function ProviderTime(p: { raw: string | null }) {
  if (!p.raw) return <span class="muted">—</span>;
  const at = providerTime(p.raw);
  if (!at) return <span>{p.raw}</span>;
  return (
    <span data-testid="provider-time">
      <time dateTime={at.toISOString()}>{at.toLocaleString()}</time> <span class="muted">(“{p.raw}” in the SMS)</span>
    </span>
  );
}

function Record(p: { id: string; onClose: () => void; onReviewed: () => void }) {
  const [e, setE] = useState<MobileMoneyEvent | null>(null);
  const [sms, setSms] = useState<{ from: string; body: string | null } | null>(null);
  const { can } = useMe();
  useEffect(() => {
    api
      .get<MobileMoneyEvent>(`/v1/mobile-money/${p.id}`)
      .then((ev) => {
        setE(ev);
        return api.get<IncomingMessage>(`/v1/incoming/${ev.incomingMessageId}`).then(setSms);
      })
      .catch(notify.error);
  }, [p.id]);
  const submit = useSubmit(async (f) => {
    setE(await api.post<MobileMoneyEvent>(`/dashboard/v1/mobile-money/${p.id}/review`, { note: String(f.get('note') ?? '') }));
    notify.success('Marked as reviewed. The record stays unverified: check the amount in the provider’s own records.');
    p.onReviewed();
  });
  return (
    <Dialog title="Mobile-money record" onClose={p.onClose}>
      {!e ? (
        <Loading />
      ) : (
        <>
          <p class="warning">
            <strong>Unverified.</strong> Read from an SMS; an SMS can be forged. Confirm with the provider before acting on it.
          </p>
          <div class="side-by-side">
            <div>
              <h3>The SMS</h3>
              <p class="muted">From {sms?.from ?? '…'}</p>
              <blockquote class="body">{sms?.body ?? 'removed after the retention period'}</blockquote>
            </div>
            <div>
              <h3>What was read</h3>
              <dl class="facts">
                <dt>Provider</dt>
                <dd>
                  {providerName(e.provider)}{' '}
                  <span class="muted" title="The API names providers neutrally: provider_a is MVola, provider_b Orange Money, provider_c Airtel Money (docs/mobile-money.md).">
                    (<code>{e.provider}</code> in the API)
                  </span>
                </dd>
                <dt>Reading</dt>
                <dd>
                  <Badge value={e.classification} /> {e.parsingStatus}
                  {e.classification === 'ambiguous' && sms && (
                    <ul class="reasons" data-testid="ambiguity-reasons">
                      {ambiguityReasons(e, sms.from).map((r) => (
                        <li>{r}</li>
                      ))}
                    </ul>
                  )}
                </dd>
                <dt>Provider's time</dt>
                <dd>
                  <ProviderTime raw={e.providerTimestamp} />
                </dd>
                <dt>Direction</dt>
                <dd>{e.direction ?? '—'}</dd>
                <dt>Amount</dt>
                <dd>{money(e.amountMinor, e.currency)}</dd>
                <dt>Fees</dt>
                <dd>{money(e.feesMinor, e.currency)}</dd>
                <dt>Balance</dt>
                <dd>{money(e.balanceMinor, e.currency)}</dd>
                <dt>Counterparty</dt>
                <dd>
                  {e.counterpartyName ?? '—'} {e.counterpartyPhoneMasked ?? ''}
                </dd>
                <dt>Reference</dt>
                <dd>{e.reference ?? '—'}</dd>
                <dt>Review</dt>
                <dd>
                  <Badge value={e.review.status} /> {e.review.note}
                </dd>
              </dl>
            </div>
          </div>
          {can('admin') && (
            <Form submit={submit}>
              <Field label="Review note">{(id) => <textarea id={id} name="note" rows={2} required maxLength={2000} defaultValue={e.review.note ?? ''} />}</Field>
              <button class="primary" type="submit" disabled={submit.busy}>
                Mark as reviewed
              </button>
            </Form>
          )}
          <p>
            <button type="button" onClick={p.onClose}>
              Close
            </button>
          </p>
        </>
      )}
    </Dialog>
  );
}

export function MobileMoney(p: { search: string }) {
  const filters = { classification: queryParam(p.search, 'classification') };
  const open = queryParam(p.search, 'open');
  const list = useCursorList<MobileMoneyEvent>('/v1/mobile-money', 'events', filters);
  useLive('received', () => void list.reload());
  const setOpen = (id: string) => {
    const q = new URLSearchParams(p.search);
    if (id) q.set('open', id);
    else q.delete('open');
    navigate(`/mobile-money${q.size ? `?${q}` : ''}`);
  };
  return (
    <Page
      title="Mobile money"
      actions={
        <Action
          done="The CSV file is downloaded."
          run={async () => {
            const rows = await allPages<MobileMoneyEvent>('/v1/mobile-money', 'events', filters);
            downloadCsv(
              'mobile-money.csv',
              ['id', 'createdAt', 'provider', 'classification', 'verification', 'direction', 'amount', 'currency', 'reference', 'counterparty', 'review'],
              rows.map((r) => [
                r.id,
                r.createdAt,
                providerName(r.provider),
                r.classification,
                r.verification,
                r.direction,
                r.amountMinor === null ? '' : r.amountMinor / 100,
                r.currency,
                r.reference,
                r.counterpartyName,
                r.review.status,
              ]),
            );
          }}
        >
          Export CSV
        </Action>
      }
    >
      <p class="muted">Readings of received SMS that look like MVola, Orange Money or Airtel Money notifications. All are unverified.</p>
      <div class="filters">
        <Field label="Reading">
          {(id) => (
            <select id={id} value={filters.classification} onChange={(e) => navigate(e.currentTarget.value ? `/mobile-money?classification=${e.currentTarget.value}` : '/mobile-money')}>
              <option value="">Any</option>
              <option value="matched">matched</option>
              <option value="ambiguous">ambiguous</option>
              <option value="unknown">unknown</option>
            </select>
          )}
        </Field>
      </div>
      <Table
        caption="Mobile-money records, newest first"
        rows={list.rows}
        rowKey={(e) => e.id}
        empty={<p>No mobile-money SMS yet. They appear when a paired phone receives a notification from MVola, Orange Money or Airtel Money.</p>}
        columns={[
          {
            label: 'Provider',
            cell: (e) => (
              <button type="button" class="link" onClick={() => setOpen(e.id)}>
                {providerName(e.provider)}
              </button>
            ),
          },
          { label: 'Amount', cell: (e) => money(e.amountMinor, e.currency) },
          { label: 'Reading', cell: (e) => <Badge value={e.classification} /> },
          { label: 'Review', cell: (e) => <Badge value={e.review.status} /> },
          { label: 'Received', cell: (e) => <Time at={e.createdAt} /> },
        ]}
      />
      <Pager hasPrevious={list.hasPrevious} next={list.next} onPrevious={list.goPrevious} onNext={list.goNext} />
      {open && <Record id={open} onClose={() => setOpen('')} onReviewed={() => void list.reload()} />}
    </Page>
  );
}
