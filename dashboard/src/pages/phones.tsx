import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useLive } from '../live';
import { useMe } from '../session';
import { FieldError } from '../form-errors';
import { Action, Badge, Dialog, Empty, Field, Form, Loading, Page, Time, notify, useSubmit } from '../ui';
import { formatSendWindowsText } from '../../../src/send-windows/text.ts';
import { readSendWindows, SendWindowsEditor } from '../send-windows-editor';
import type { Device, Pacing, PhoneWindows } from '../server-types';

interface Pairing {
  code: string;
  expiresAt: string;
  /** False when `server` is a loopback name no phone can reach. */
  serverReachable: boolean;
  qrPayload: string;
  server: string;
  /** SMS Gateway for Android's "API URL". */
  mobileApiUrl: string;
  /** With HAFATRA_HTTPS: the local CA the phone installs before it can reach the server. */
  ca: { url: string; sha256: string } | null;
}

/** A QR code of a text (a URL, a code), rendered once the QR module is loaded. */
function Qr(p: { text: string; label: string }) {
  const [svg, setSvg] = useState('');
  useEffect(() => {
    void import('uqr').then(({ renderSVG }) => setSvg(renderSVG(p.text, { border: 2 })));
  }, [p.text]);
  return <div class="qr" role="img" aria-label={p.label} dangerouslySetInnerHTML={{ __html: svg }} />;
}

/** Pairing SMS Gateway for Android (docs/android-app.md): its CA first on a LAN, then its cloud-server settings. */
function SmsGatewaySteps(p: { pairing: Pairing }) {
  const { ca, mobileApiUrl, code } = p.pairing;
  return (
    <ol class="steps">
      {ca && (
        <li>
          <p>
            Install Hafatra's certificate on the phone: open <a href={ca.url}>{ca.url}</a> in the phone's browser (or scan the code). The browser warns that the connection is not private until the
            certificate is installed: choose Advanced, then Proceed. Then, in Android's Settings, open Security (or Security &amp; privacy) → Encryption &amp; credentials → Install a certificate → CA
            certificate, and pick <code>hafatra-ca.crt</code> from Downloads.
          </p>
          <Qr text={ca.url} label="QR code of the certificate's address" />
          <p class="muted">
            Its SHA-256 fingerprint, as Android shows it under Trusted credentials → User: <code class="fingerprint">{ca.sha256}</code>
          </p>
        </li>
      )}
      <li>
        <p>
          In SMS Gateway for Android, open Settings → Cloud server and set the API URL to <code data-testid="mobile-api-url">{mobileApiUrl}</code>, the Private Token to the code <code>{code}</code>,
          and the notification channel to SSE only.
        </p>
        <div class="qr-row">
          <Qr text={mobileApiUrl} label="QR code of the API URL" />
          <Qr text={code} label="QR code of the pairing code" />
        </div>
      </li>
      <li>
        <p>On the app's Home screen, turn on Cloud server and restart the app. It appears here as soon as it registers.</p>
      </li>
    </ol>
  );
}

const INBOUND_REASON: Record<string, string> = {
  revoked: 'the phone is revoked',
  not_reported: 'the app has not said whether it is the default SMS app',
  not_default_sms_app: 'Hafatra is not the default SMS app on the phone',
  stale: 'the phone has not confirmed it recently',
};

function Countdown(p: { until: string; onEnd: () => void }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.round((new Date(p.until).getTime() - now) / 1000));
  useEffect(() => {
    if (left === 0) p.onEnd();
  }, [left === 0]);
  return (
    <span role="timer" aria-live="off">
      {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}
    </span>
  );
}

/** A name no phone of the organization bears yet: "Phone 3" beside Phone 1 and Phone 2. */
function suggestedName(devices: Device[]): string {
  const taken = new Set(devices.filter((d) => d.status !== 'revoked').map((d) => d.name));
  let n = taken.size + 1;
  while (taken.has(`Phone ${n}`)) n++;
  return `Phone ${n}`;
}

function PairPanel(p: { before: Set<string>; onClose: () => void; devices: Device[] }) {
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [name, setName] = useState<string | null>(null);
  const [app, setApp] = useState<'hafatra' | 'sms-gateway'>('hafatra');
  const [expired, setExpired] = useState(false);
  const make = async (phoneName: string) => {
    setPairing(await api.post<Pairing>('/dashboard/v1/pairings', { name: phoneName }));
    setExpired(false);
  };
  const fresh = () => void make(name!).catch(notify.error);
  // The phone is named before it pairs: the list tells it from the others at once.
  const naming = useSubmit(async (f) => {
    const chosen = String(f.get('name') ?? '').trim();
    if (!chosen) throw new FieldError('name', 'Give the phone a name.');
    await make(chosen);
    setName(chosen);
  });
  const paired = p.devices.find((d) => !p.before.has(d.id));
  return (
    <Dialog title="Pair a phone" onClose={p.onClose}>
      {paired ? (
        <p role="status">
          <strong>{paired.name}</strong> is paired.{' '}
          <button type="button" class="primary" onClick={p.onClose}>
            Done
          </button>
        </p>
      ) : !pairing ? (
        <Form submit={naming}>
          <Field label="Name of the phone" hint="How the phone is shown on every page: where it is, or whose it is.">
            {(id) => <input id={id} name="name" required maxLength={128} defaultValue={suggestedName(p.devices)} autoComplete="off" />}
          </Field>
          <div class="actions">
            <button class="primary" type="submit" disabled={naming.busy}>
              Make a pairing code
            </button>
            <button type="button" onClick={p.onClose}>
              Cancel
            </button>
          </div>
        </Form>
      ) : expired ? (
        <p>
          The code expired.{' '}
          <button type="button" class="primary" onClick={fresh}>
            Make a new code
          </button>
        </p>
      ) : (
        <>
          <fieldset class="choice">
            <legend>The app on the phone</legend>
            <label>
              <input type="radio" name="pair-app" checked={app === 'hafatra'} onChange={() => setApp('hafatra')} /> Hafatra
            </label>
            <label>
              <input type="radio" name="pair-app" checked={app === 'sms-gateway'} onChange={() => setApp('sms-gateway')} /> SMS Gateway for Android
            </label>
          </fieldset>
          {app === 'hafatra' ? (
            <>
              <p>In the Hafatra app on the phone, scan this code, or type the server address and the code.</p>
              <Qr text={pairing.qrPayload} label="QR code to pair a phone" />
              <p>
                Server: <code data-testid="pairing-server">{pairing.server}</code>
              </p>
              {!pairing.serverReachable && (
                <p class="form-error" role="alert">
                  This address names this computer only: a phone cannot reach it. Start the server listening on the network (HOST=0.0.0.0, the default) or set HAFATRA_PUBLIC_URL, or for a phone on a
                  USB cable run adb reverse tcp:{new URL(pairing.server).port || '80'} tcp:{new URL(pairing.server).port || '80'}.
                </p>
              )}
            </>
          ) : (
            <SmsGatewaySteps pairing={pairing} />
          )}
          <p>
            Code:{' '}
            <code class="pairing-code" data-testid="pairing-code">
              {pairing.code}
            </code>
          </p>
          <p class="muted">
            Valid for <Countdown until={pairing.expiresAt} onEnd={() => setExpired(true)} />. This page shows the phone the moment it pairs.
          </p>
          <button type="button" onClick={p.onClose}>
            Close
          </button>
        </>
      )}
    </Dialog>
  );
}

function EditPhone(p: { device: Device; onClose: () => void; onSaved: (d: Device) => void }) {
  const d = p.device;
  const [pacing, setPacing] = useState<Pacing | null>(null);
  const [windows, setWindows] = useState<PhoneWindows | null>(null);
  useEffect(() => void api.get<Pacing>(`/dashboard/v1/devices/${d.id}/pacing`).then(setPacing, notify.error), [d.id]);
  useEffect(() => void api.get<PhoneWindows>(`/v1/devices/${d.id}/send-windows`).then(setWindows, notify.error), [d.id]);
  const submit = useSubmit(async (f) => {
    const num = (name: string) => (String(f.get(name) ?? '').trim() === '' ? null : Number(f.get(name)));
    const ownWindows = readSendWindows(f, 'sendWindows');
    await api.patch(`/dashboard/v1/devices/${d.id}/pacing`, { pacingPerMinute: num('pacingPerMinute'), simDailyCap: num('simDailyCap') });
    if (formatSendWindowsText(ownWindows) !== formatSendWindowsText(windows?.sendWindows ?? null)) await api.put(`/v1/devices/${d.id}/send-windows`, { sendWindows: ownWindows });
    const sim = String(f.get('sim') ?? '');
    const saved = await api.patch<Device>(`/v1/devices/${d.id}`, {
      name: String(f.get('name')),
      draining: f.get('draining') === 'on',
      outboundEnabled: f.get('outbound') === 'on',
      defaultSimSubscriptionId: sim === '' ? null : Number(sim),
    });
    notify.success(`${saved.name} saved.`);
    p.onSaved(saved);
  });
  return (
    <Dialog title={`Edit ${d.name}`} onClose={p.onClose}>
      <Form submit={submit}>
        <Field label="Name">{(id) => <input id={id} name="name" defaultValue={d.name} maxLength={128} required />}</Field>
        <label class="check">
          <input type="checkbox" name="outbound" defaultChecked={d.outboundEnabled} /> Sends messages (off: paired and receiving, sends nothing)
        </label>
        <label class="check">
          <input type="checkbox" name="draining" defaultChecked={d.draining} /> Draining (finishes what it holds, takes nothing new)
        </label>
        <Field label="Default SIM">
          {(id) => (
            <select id={id} name="sim" defaultValue={d.defaultSimSubscriptionId === null ? '' : String(d.defaultSimSubscriptionId)}>
              <option value="">None: the phone decides</option>
              {d.sims
                .filter((s) => !s.removedAt)
                .map((s) => (
                  <option value={s.subscriptionId}>{s.displayName ?? s.carrierName ?? `SIM ${s.subscriptionId}`}</option>
                ))}
            </select>
          )}
        </Field>
        {pacing && (
          <div class="row">
            <Field label="SMS per minute per SIM" hint={`Empty: the server's default, ${pacing.defaultPacingPerMinute}. Android itself refuses more than about 30.`}>
              {(id) => <input id={id} name="pacingPerMinute" type="number" min={1} max={10000} defaultValue={pacing.pacingPerMinute === null ? '' : String(pacing.pacingPerMinute)} />}
            </Field>
            <Field label="SMS per day per SIM" hint="Empty: no cap (set your plan's limit).">
              {(id) => <input id={id} name="simDailyCap" type="number" min={1} max={1000000} defaultValue={pacing.simDailyCap === null ? '' : String(pacing.simDailyCap)} />}
            </Field>
          </div>
        )}
        {windows && (
          <Field
            label="Own send windows"
            hint={`Within the organization's (Settings): the phone sends only when both are open${windows.openNow ? '' : ', which they are not now'}. Off: the organization's alone.`}
          >
            {(id) => <SendWindowsEditor id={id} name="sendWindows" value={windows.sendWindows} legend="This phone has hours of its own" />}
          </Field>
        )}
        <div class="actions">
          <button class="primary" type="submit" disabled={submit.busy || !pacing || !windows}>
            Save
          </button>
          <button type="button" onClick={p.onClose}>
            Cancel
          </button>
        </div>
      </Form>
    </Dialog>
  );
}

export function Phones() {
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [pairFrom, setPairFrom] = useState<Set<string> | null>(null);
  const [editing, setEditing] = useState<Device | null>(null);
  const { can } = useMe();
  const load = () => api.get<{ devices: Device[] }>('/v1/devices').then((r) => setDevices(r.devices), notify.error);
  useEffect(() => {
    void load();
    // A phone that stops calling turns stale by time alone, which no live frame announces.
    const timer = setInterval(() => void load(), 15_000);
    return () => clearInterval(timer);
  }, []);
  useLive('device', () => void load());
  const live = devices?.filter((d) => d.status !== 'revoked') ?? [];
  const revoked = devices?.filter((d) => d.status === 'revoked') ?? [];
  return (
    <Page
      title="Phones"
      actions={
        can('admin') && (
          <button type="button" class="primary" onClick={() => setPairFrom(new Set(devices?.map((d) => d.id)))}>
            Pair a phone
          </button>
        )
      }
    >
      {devices === null ? (
        <Loading />
      ) : live.length === 0 ? (
        <Empty>
          <p>No phone is paired yet. {can('admin') ? 'Choose “Pair a phone” and scan the code with the Hafatra app.' : 'An admin can pair one.'}</p>
        </Empty>
      ) : (
        <ul class="cards">
          {live.map((d) => (
            <li class="card phone" data-testid="phone">
              <h2>
                {d.name} <Badge value={d.status} />
              </h2>
              <dl class="facts">
                <dt>Last seen</dt>
                <dd>
                  <Time at={d.lastSeenAt} />
                </dd>
                <dt>Socket</dt>
                <dd>
                  {d.socket.connected ? 'connected' : 'not connected'}
                  {d.socket.lastChangedAt && (
                    <>
                      {' '}
                      (since <Time at={d.socket.lastChangedAt} />)
                    </>
                  )}
                </dd>
                <dt>Battery</dt>
                <dd>{d.battery.percent === null ? '—' : `${d.battery.percent} %${d.battery.charging ? ', charging' : ''}`}</dd>
                <dt>Network</dt>
                <dd>{d.networkType ?? '—'}</dd>
                <dt>Waiting to send</dt>
                <dd>{d.queueDepth}</dd>
                <dt>Sending</dt>
                <dd>{!d.outboundEnabled ? 'paused' : d.draining ? 'draining' : 'on'}</dd>
                <dt>Receiving</dt>
                <dd>{d.inbound.state === 'unlocked' ? 'on' : `locked: ${INBOUND_REASON[d.inbound.reason ?? ''] ?? d.inbound.reason}`}</dd>
                <dt>SIMs</dt>
                <dd>
                  {d.sims
                    .filter((s) => !s.removedAt)
                    .map((s) => s.displayName ?? s.carrierName ?? `SIM ${s.subscriptionId}`)
                    .join(', ') || '—'}
                </dd>
                <dt>App</dt>
                <dd>
                  {d.appVersion ?? '—'}
                  {d.model ? ` on ${d.model}` : ''}
                </dd>
              </dl>
              {can('admin') && (
                <div class="actions">
                  <button type="button" onClick={() => setEditing(d)}>
                    Edit
                  </button>
                  <Action
                    kind="danger"
                    done={`${d.name} is revoked.`}
                    confirm={`Revoke ${d.name}? It stops at once and must be paired again to come back. Messages it holds become “unknown” (they may or may not have left), and messages meant only for this phone fail.`}
                    run={async () => {
                      await api.del(`/v1/devices/${d.id}`);
                      await load();
                    }}
                  >
                    Revoke
                  </Action>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {revoked.length > 0 && (
        <p class="muted">
          {revoked.length} revoked phone{revoked.length > 1 ? 's' : ''} not shown.
        </p>
      )}
      {pairFrom && (
        <PairPanel
          before={pairFrom}
          devices={devices ?? []}
          onClose={() => {
            setPairFrom(null);
            void load();
          }}
        />
      )}
      {editing && (
        <EditPhone
          device={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
    </Page>
  );
}
