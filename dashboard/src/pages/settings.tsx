import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useMe } from '../session';
import { Action, Field, Form, Loading, Page, notify, useSubmit } from '../ui';
import { formatCarriers, parseCarriers } from '../carriers';
import { formatSendWindowsText } from '../../../src/send-windows/text.ts';
import { readSendWindows, SendWindowsEditor } from '../send-windows-editor';
import type { OrganizationView as Org } from '../server-types';
import { WebhookTargetsCard } from './webhook-targets-card';

/** The codes as typed (commas or spaces between them); empty brings back the shipped list. */
const codesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export function Settings() {
  const [org, setOrg] = useState<Org | null>(null);
  const { can } = useMe();
  useEffect(() => void api.get<Org>('/dashboard/v1/organization').then(setOrg, notify.error), []);
  // The list is sent only when changed, so that an organization on the shipped list stays on it as it improves.
  const resendCodes = (text: string) => {
    const codes = codesOf(text);
    if (codes.join(',') === org?.autoResend.failureCodes.join(',')) return {};
    return { failureCodes: codes.length === 0 ? null : codes };
  };
  const submit = useSubmit(async (f) => {
    setOrg(
      await api.patch<Org>('/dashboard/v1/organization', {
        name: String(f.get('name')),
        defaultCountry: String(f.get('defaultCountry')).toUpperCase(),
        dailyLimit: Number(f.get('dailyLimit')),
        retentionDays: Number(f.get('retentionDays')),
        aiConsent: f.get('aiConsent') === 'on',
        autoResend: { attempts: Number(f.get('autoResendAttempts')), ...resendCodes(String(f.get('autoResendCodes'))) },
      }),
    );
    notify.success('Settings saved.');
  });
  const networks = useSubmit(async (f) => {
    setOrg(await api.patch<Org>('/dashboard/v1/organization', { carriers: parseCarriers(String(f.get('carriers'))) }));
    notify.success('Networks saved.');
  });
  const optOut = useSubmit(async (f) => {
    // Words may hold spaces ("STOP ALL"); a list is sent only when changed, so the shipped lists stay shipped.
    const words = (name: 'stopWords' | 'startWords') => {
      const list = String(f.get(name))
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean);
      return list.join(',') === org?.optOut[name].join(',') ? {} : { [name]: list };
    };
    const reply = (name: string) => String(f.get(name)).trim() || null;
    setOrg(
      await api.patch<Org>('/dashboard/v1/organization', {
        optOut: { ...words('stopWords'), ...words('startWords'), stopReply: reply('stopReply'), startReply: reply('startReply') },
      }),
    );
    notify.success('Opt-out words saved.');
  });
  const windows = useSubmit(async (f) => {
    const sendWindows = readSendWindows(f, 'sendWindows');
    setOrg(await api.patch<Org>('/dashboard/v1/organization', { sendWindows }));
    notify.success(sendWindows === null ? 'Phones now send at any hour.' : 'Send windows saved.');
  });
  if (!org)
    return (
      <Page title="Settings">
        <Loading />
      </Page>
    );
  const ro = !can('owner');
  return (
    <Page title="Settings">
      {ro && <p class="muted">Only owners change these settings.</p>}
      <Form class="card" submit={submit}>
        <fieldset disabled={ro}>
          <Field label="Organization name">{(id) => <input id={id} name="name" defaultValue={org.name} required maxLength={128} />}</Field>
          <Field label="Default country" hint="Two letters (MG for Madagascar): how national numbers like 034 12 345 67 are read.">
            {(id) => <input id={id} name="defaultCountry" defaultValue={org.defaultCountry} required pattern="[A-Za-z]{2}" maxLength={2} />}
          </Field>
          <Field label="Daily limit" hint="Messages the organization may send per day (UTC).">
            {(id) => <input id={id} name="dailyLimit" type="number" min={1} max={100000} defaultValue={String(org.dailyLimit)} required />}
          </Field>
          <Field label="Keep received SMS for (days)" hint="After this, the text of a received SMS is removed.">
            {(id) => <input id={id} name="retentionDays" type="number" min={1} max={3650} defaultValue={String(org.retentionDays)} required />}
          </Field>
          <Field
            label="Automatic resends"
            hint="A message that fails for a passing reason (no service, radio off…) is sent again as a new message, from another phone first, up to this many times. 0: off. A send may ask otherwise."
          >
            {(id) => <input id={id} name="autoResendAttempts" type="number" min={0} max={5} defaultValue={String(org.autoResend.attempts)} required />}
          </Field>
          <Field label="Failure codes resent" hint="The phone's failure codes worth another try, separated by commas. Empty: the shipped list.">
            {(id) => <input id={id} name="autoResendCodes" defaultValue={org.autoResend.failureCodes.join(', ')} />}
          </Field>
          <label class="check">
            <input type="checkbox" name="aiConsent" defaultChecked={org.aiConsent} /> Allow an AI reader for mobile-money SMS the templates cannot read (sends those SMS to the configured AI provider)
          </label>
          {!ro && (
            <button class="primary" type="submit" disabled={submit.busy}>
              Save
            </button>
          )}
        </fieldset>
      </Form>
      <Form class="card" submit={optOut} key={JSON.stringify(org.optOut)}>
        <h2>Opt-out words</h2>
        <p class="muted">
          A received SMS that is only one of these words (any case, accents and punctuation aside) adds its sender to the <a href="/opt-outs">opt-outs</a>, or takes it off.
          {org.optOut.wordsAreDefault && ' These are the shipped words.'}
        </p>
        <fieldset disabled={ro}>
          <Field label="Stop words" hint="Separated by commas.">
            {(id) => <input id={id} name="stopWords" required defaultValue={org.optOut.stopWords.join(', ')} />}
          </Field>
          <Field label="Start words" hint="Separated by commas.">
            {(id) => <input id={id} name="startWords" required defaultValue={org.optOut.startWords.join(', ')} />}
          </Field>
          <Field label="Reply to a stop word" hint="Sent once to the number that opted out, through your phones (counts against the daily limit). Empty: no reply.">
            {(id) => <textarea id={id} name="stopReply" rows={2} maxLength={480} defaultValue={org.optOut.stopReply ?? ''} />}
          </Field>
          <Field label="Reply to a start word" hint="Empty: no reply.">
            {(id) => <textarea id={id} name="startReply" rows={2} maxLength={480} defaultValue={org.optOut.startReply ?? ''} />}
          </Field>
          {!ro && (
            <div class="actions">
              <button class="primary" type="submit" disabled={optOut.busy}>
                Save opt-out words
              </button>
              {!org.optOut.wordsAreDefault && (
                <Action run={async () => setOrg(await api.patch<Org>('/dashboard/v1/organization', { optOut: { stopWords: null, startWords: null } }))} done="Shipped words restored.">
                  Restore the shipped words
                </Action>
              )}
            </div>
          )}
        </fieldset>
      </Form>
      <Form class="card" submit={networks} key={formatCarriers(org.carriers)}>
        <h2>Mobile networks</h2>
        <p class="muted">
          A message goes out from a SIM on the recipient's network when a phone has one (on-net SMS cost less). A recipient is on a network when their number starts with one of its prefixes; a SIM is,
          when the carrier name its phone reports contains one of its SIM names.{org.carriersAreDefault && " These are the defaults (Madagascar's networks)."}
        </p>
        <fieldset disabled={ro}>
          <Field label="Networks" hint="One a line: name: +26132 +26137 (SIM: orange). Leave empty to route without networks.">
            {(id) => <textarea id={id} name="carriers" rows={Math.max(3, org.carriers.length + 1)} defaultValue={formatCarriers(org.carriers)} />}
          </Field>
          {!ro && (
            <div class="actions">
              <button class="primary" type="submit" disabled={networks.busy}>
                Save networks
              </button>
              {!org.carriersAreDefault && (
                <Action run={async () => setOrg(await api.patch<Org>('/dashboard/v1/organization', { carriers: null }))} done="Default networks restored.">
                  Restore the defaults
                </Action>
              )}
            </div>
          )}
        </fieldset>
      </Form>
      <Form class="card" submit={windows} key={formatSendWindowsText(org.sendWindows)}>
        <h2>Send windows</h2>
        <p class="muted">
          Quiet hours: outside these windows messages wait queued and go out, oldest first, when the window opens. A send with ignoreSendWindows (one-time codes) goes at once; every message still
          expires at its time. {org.sendWindows === null ? 'Now: phones send at any hour.' : `Now: ${formatSendWindowsText(org.sendWindows)}.`}
        </p>
        <fieldset disabled={ro}>
          <Field label="Windows" hint="A range whose end is at or before its start (22:00 to 06:00) runs past midnight. Off: any hour.">
            {(id) => <SendWindowsEditor id={id} name="sendWindows" value={org.sendWindows} disabled={ro} legend="Send only within these hours" />}
          </Field>
          {!ro && (
            <button class="primary" type="submit" disabled={windows.busy}>
              Save send windows
            </button>
          )}
        </fieldset>
      </Form>
      <WebhookTargetsCard org={org} readOnly={ro} onSaved={setOrg} />
    </Page>
  );
}
