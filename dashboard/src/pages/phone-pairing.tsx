import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { FieldError } from '../form-errors';
import { Dialog, Field, Form, notify, useSubmit, SubmitOrCancel } from '../ui';
import type { Device } from '../server-types';

/** POST /dashboard/v1/pairings (an answer built in its route). */
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

export function PairPanel(p: { before: Set<string>; onClose: () => void; devices: Device[] }) {
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
          <SubmitOrCancel label="Make a pairing code" busy={naming.busy} onCancel={p.onClose} />
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
