import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useLive } from '../live';
import { useMe } from '../session';
import { Action, Badge, Dialog, Empty, Field, Form, Loading, Page, Time, notify, useSubmit, SubmitOrCancel } from '../ui';
import { formatSendWindowsText } from '../../../src/send-windows/text.ts';
import { readSendWindows, SendWindowsEditor } from '../send-windows-editor';
import type { Device, Pacing, PhoneWindows } from '../server-types';
import { PairPanel } from './phone-pairing';

const INBOUND_REASON: Record<string, string> = {
  revoked: 'the phone is revoked',
  not_reported: 'the app has not said whether it is the default SMS app',
  not_default_sms_app: 'Hafatra is not the default SMS app on the phone',
  stale: 'the phone has not confirmed it recently',
};

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
        <SubmitOrCancel label="Save" busy={submit.busy || !pacing || !windows} onCancel={p.onClose} />
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
