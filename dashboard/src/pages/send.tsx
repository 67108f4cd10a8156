import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { measureSms } from '../../../src/messages/encoding.ts';
import { api } from '../api';
import { parseCsv } from '../csv';
import { useLive } from '../live';
import { Badge, Field, Page, notify } from '../ui';
import { TERMINAL_STATUSES } from '../../../src/messages/status.ts';
import type { Device, Message } from '../server-types';

interface Checked {
  input: string;
  number: string | null;
  error: string | null;
}
/** A message of the batch as its progress shows it. */
type Sent = Pick<Message, 'id' | 'to' | 'status'>;

const CHUNK = 500;

/** Paste or upload recipients, see each one as the server reads it, then send and follow the batch. */
export function Send() {
  const [text, setText] = useState('');
  const [csv, setCsv] = useState<string[][] | null>(null);
  const [column, setColumn] = useState(0);
  const [checked, setChecked] = useState<{ for: string; recipients: Checked[] }>({ for: '[]', recipients: [] });
  const [body, setBody] = useState('');
  const [devices, setDevices] = useState<Device[]>([]);
  const [deviceId, setDeviceId] = useState('');
  const [sim, setSim] = useState('');
  // Empty: now. A datetime-local value is the browser's local time, sent as an instant.
  const [sendAt, setSendAt] = useState('');
  const [validFor, setValidFor] = useState('');
  const [sent, setSent] = useState<Sent[] | null>(null);
  // The batch's messages as soon as their answers come, before the list is drawn again: the live
  // feed's changes read their statuses from here.
  const sentNow = useRef<Sent[] | null>(null);
  const [busy, setBusy] = useState(false);
  // Off: each number once, however many lines name it; refused lines stop the send until left out.
  const [keepDuplicates, setKeepDuplicates] = useState(false);
  const [skipRefused, setSkipRefused] = useState(false);

  useEffect(() => void api.get<{ devices: Device[] }>('/v1/devices').then((d) => setDevices(d.devices.filter((x) => x.status !== 'revoked')), notify.error), []);

  const lines = useMemo(() => {
    const raw = csv ? csv.slice(1).map((r) => r[column] ?? '') : text.split(/[\n,;]+/);
    return raw.map((l) => l.trim()).filter(Boolean);
  }, [text, csv, column]);

  const linesKey = JSON.stringify(lines);
  useEffect(() => {
    if (lines.length === 0) return setChecked({ for: linesKey, recipients: [] });
    const t = setTimeout(() => {
      api
        .post<{ recipients: Checked[] }>('/dashboard/v1/recipients/check', { to: lines.slice(0, 10_000) })
        // An answer to an older list (the user kept typing) is dropped.
        .then((r) => setChecked((c) => (JSON.stringify(lines) === linesKey ? { for: linesKey, recipients: r.recipients } : c)), notify.error);
    }, 300);
    return () => clearTimeout(t);
  }, [linesKey]);
  const checking = checked.for !== linesKey;

  const measure = measureSms(body);
  const good = checking ? [] : checked.recipients.filter((c) => c.number);
  const bad = checking ? [] : checked.recipients.filter((c) => !c.number);
  // Lines naming one number (034 12 345 67 and +261341234567), as the server reads them.
  const byNumber = new Map<string, Checked[]>();
  for (const c of good) byNumber.set(c.number!, [...(byNumber.get(c.number!) ?? []), c]);
  const duplicates = [...byNumber.values()].filter((g) => g.length > 1);
  const toSend = keepDuplicates ? good : [...byNumber.values()].map((g) => g[0]!);
  const blocked = bad.length > 0 && !skipRefused;
  const device = devices.find((d) => d.id === deviceId);

  // The statuses of these messages, read again; a message in a final status changes no more, so
  // only the others are asked, and an answer read before another never takes one back from final.
  const refreshOf = async (list: Sent[]) => {
    const open = list.filter((s) => !TERMINAL_STATUSES.has(s.status));
    const latest = new Map<string, Message['status']>();
    for (let i = 0; i < open.length; i += CHUNK) {
      const ids = open
        .slice(i, i + CHUNK)
        .map((s) => s.id)
        .join(',');
      const r = await api.get<{ messages: Pick<Message, 'id' | 'status'>[] }>('/dashboard/v1/messages/statuses', { ids });
      for (const m of r.messages) latest.set(m.id, m.status);
    }
    setSent((current) => {
      const next = current?.map((s) => (TERMINAL_STATUSES.has(s.status) || !latest.has(s.id) ? s : { ...s, status: latest.get(s.id)! })) ?? current;
      sentNow.current = next;
      return next;
    });
  };
  useLive('messages', () => void (sentNow.current && refreshOf(sentNow.current).catch(() => undefined)));

  const send = async (e: Event) => {
    e.preventDefault();
    if (blocked) return notify.error(`${bad.length} recipient${bad.length > 1 ? 's are' : ' is'} not a phone number: fix or remove ${bad.length > 1 ? 'them' : 'it'} first.`);
    setBusy(true);
    setSent([]);
    sentNow.current = [];
    const batch = `dash-${crypto.randomUUID()}`;
    const out: Sent[] = [];
    try {
      for (let i = 0; i < toSend.length; i += CHUNK) {
        const to = toSend.slice(i, i + CHUNK).map((c) => c.number!);
        const req: Record<string, unknown> = { to, body };
        if (deviceId) req.deviceId = deviceId;
        if (deviceId && sim) req.simSubscriptionId = Number(sim);
        if (sendAt) req.sendAt = new Date(sendAt).toISOString();
        if (validFor) req.validFor = Number(validFor) * 60;
        const r = await api.post<{ messages: Sent[] }>('/v1/messages', req, { 'idempotency-key': `${batch}-${i / CHUNK}` });
        out.push(...r.messages);
        setSent([...out]);
        sentNow.current = [...out];
      }
      // Read once now: on a fast phone the live feed's changes can all come before the answers
      // above are shown, and none would come after to move the list on.
      void refreshOf(out).catch(() => undefined);
      notify.success(`${out.length} message${out.length > 1 ? 's' : ''} ${sendAt ? `scheduled for ${new Date(sendAt).toLocaleString()}` : 'accepted for sending'}.`);
    } catch (err) {
      notify.error(err);
    } finally {
      setBusy(false);
    }
  };

  const counts: Record<string, number> = {};
  for (const s of sent ?? []) counts[s.status] = (counts[s.status] ?? 0) + 1;
  return (
    <Page title="Send messages">
      <form onSubmit={send} class="card">
        <Field label="Recipients" hint="One per line (or separated by commas). National numbers use the organization's default country.">
          {(id) => <textarea id={id} rows={5} value={text} disabled={!!csv} onInput={(e) => setText(e.currentTarget.value)} />}
        </Field>
        <Field label="Or upload a CSV file">
          {(id) => (
            <input
              id={id}
              type="file"
              accept=".csv,text/csv"
              onChange={async (e) => {
                const file = e.currentTarget.files?.[0];
                setCsv(file ? parseCsv(await file.text()) : null);
                setColumn(0);
              }}
            />
          )}
        </Field>
        {csv?.[0] && (
          <Field label="Column holding the numbers">
            {(id) => (
              <select id={id} value={column} onChange={(e) => setColumn(Number(e.currentTarget.value))}>
                {csv[0]!.map((h, i) => (
                  <option value={i}>{h || `Column ${i + 1}`}</option>
                ))}
              </select>
            )}
          </Field>
        )}
        {checking && lines.length > 0 && (
          <p class="muted" aria-live="polite">
            Checking {lines.length} recipient{lines.length === 1 ? '' : 's'}…
          </p>
        )}
        {!checking && checked.recipients.length > 0 && (
          <details open={bad.length > 0} class="preview">
            <summary>
              <strong data-testid="recipients-ok">{byNumber.size}</strong> number{byNumber.size === 1 ? '' : 's'} ready, <strong class={bad.length ? 'bad' : ''}>{bad.length}</strong> refused
              {duplicates.length > 0 && (
                <>
                  , <strong data-testid="recipients-duplicated">{good.length - byNumber.size}</strong> duplicate line{good.length - byNumber.size === 1 ? '' : 's'}
                </>
              )}
            </summary>
            <ul>
              {checked.recipients.slice(0, 200).map((c) => (
                <li class={c.number ? '' : 'bad'}>
                  {c.input} → {c.number ?? c.error}
                </li>
              ))}
              {checked.recipients.length > 200 && <li class="muted">and {checked.recipients.length - 200} more</li>}
            </ul>
          </details>
        )}
        {!checking && duplicates.length > 0 && (
          <div class="card notice-inline" data-testid="duplicates">
            <p>{duplicates.length === 1 ? 'One number is' : `${duplicates.length} numbers are`} on more than one line (the same number written differently):</p>
            <ul>
              {duplicates.slice(0, 20).map((g) => (
                <li>
                  <strong>{g[0]!.number}</strong>: {g.map((c) => c.input).join(', ')}
                </li>
              ))}
              {duplicates.length > 20 && <li class="muted">and {duplicates.length - 20} more</li>}
            </ul>
            <label class="check">
              <input type="checkbox" checked={keepDuplicates} onChange={(e) => setKeepDuplicates(e.currentTarget.checked)} /> Send to each line, duplicates included (otherwise each number gets one
              message)
            </label>
          </div>
        )}
        {!checking && bad.length > 0 && (
          <label class="check">
            <input type="checkbox" checked={skipRefused} onChange={(e) => setSkipRefused(e.currentTarget.checked)} /> Leave out the {bad.length} refused line{bad.length === 1 ? '' : 's'} and send to
            the others
          </label>
        )}
        <Field label="Message">{(id) => <textarea id={id} rows={4} maxLength={1600} value={body} onInput={(e) => setBody(e.currentTarget.value)} required />}</Field>
        <p class="counter" aria-live="polite" data-testid="segment-counter">
          {[...body].length} characters · {measure.encoding === 'gsm7' ? 'GSM-7' : 'UCS-2 (a character outside GSM-7 halves the room per SMS)'} · {measure.segments} SMS per recipient
          {toSend.length > 0 && <> · {measure.segments * toSend.length} SMS in all</>}
        </p>
        <div class="row">
          <Field label="Phone">
            {(id) => (
              <select
                id={id}
                value={deviceId}
                onChange={(e) => {
                  setDeviceId(e.currentTarget.value);
                  setSim('');
                }}
              >
                <option value="">Any available phone</option>
                {devices.map((d) => (
                  <option value={d.id}>
                    {d.name} ({d.status.replace('_', ' ')})
                  </option>
                ))}
              </select>
            )}
          </Field>
          {device && device.sims.length > 0 && (
            <Field label="SIM">
              {(id) => (
                <select id={id} value={sim} onChange={(e) => setSim(e.currentTarget.value)}>
                  <option value="">The phone's default SIM</option>
                  {device.sims
                    .filter((s) => !s.removedAt)
                    .map((s) => (
                      <option value={s.subscriptionId}>{s.displayName ?? s.carrierName ?? `SIM ${s.subscriptionId}`}</option>
                    ))}
                </select>
              )}
            </Field>
          )}
        </div>
        <div class="row">
          <Field label="Send at" hint="Empty: now. Up to 30 days ahead; the messages wait as accepted until then, and can be cancelled.">
            {(id) => <input id={id} type="datetime-local" value={sendAt} onInput={(e) => setSendAt(e.currentTarget.value)} />}
          </Field>
          <Field label="Valid for (minutes)" hint="Empty: 24 hours. A message no phone could send in this time expires (one-time codes).">
            {(id) => <input id={id} type="number" min={1} max={1440} step={1} value={validFor} onInput={(e) => setValidFor(e.currentTarget.value)} />}
          </Field>
        </div>
        <button class="primary" type="submit" disabled={busy || checking || toSend.length === 0 || blocked || !body}>
          {blocked ? `Fix or leave out the ${bad.length} refused line${bad.length === 1 ? '' : 's'} first` : `Send to ${toSend.length} recipient${toSend.length === 1 ? '' : 's'}`}
        </button>
      </form>
      {sent && (
        <section aria-labelledby="progress">
          <h2 id="progress">Progress</h2>
          <p>
            {Object.entries(counts).map(([s, n]) => (
              <span class="chip">
                {s}: {n}{' '}
              </span>
            ))}
          </p>
          <ul class="progress-list">
            {sent.slice(0, 100).map((s) => (
              <li>
                <a href={`/messages/${s.id}`}>{s.to}</a> <Badge value={s.status} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}
