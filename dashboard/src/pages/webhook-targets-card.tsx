import { api } from '../api';
import { Field, notify, useSubmit } from '../ui';

import type { OrganizationView } from '../server-types';

type WebhookTargets = Pick<OrganizationView, 'webhookPrivateTargets' | 'webhookPlainHttp'>;

/**
 * Settings: the private webhook targets an owner opens (a `hafatra webhook listen` on this
 * machine, a service on the LAN) and whether plain http may reach the LAN ones. Everything not
 * listed stays refused by the public-address rule.
 */
export function WebhookTargetsCard<T extends WebhookTargets>({ org, readOnly, onSaved }: { org: T; readOnly: boolean; onSaved: (org: T) => void }) {
  const save = useSubmit(async (f) => {
    const targets = String(f.get('webhookPrivateTargets'))
      .split(/[\s,]+/)
      .filter(Boolean);
    onSaved(await api.patch<T>('/dashboard/v1/organization', { webhookPrivateTargets: targets, webhookPlainHttp: f.get('webhookPlainHttp') === 'on' }));
    notify.success(targets.length === 0 ? 'Webhooks now reach public addresses only.' : 'Private webhook targets saved.');
  });
  return (
    <form class="card" onSubmit={save.onSubmit} key={`${org.webhookPrivateTargets.join(',')}|${org.webhookPlainHttp}`}>
      <h2>Private webhook targets</h2>
      <p class="muted">
        Webhooks only reach public addresses, unless listed here: the machine's own loopback (localhost, for <code>hafatra webhook listen</code>) or services on your network. Checked when an endpoint
        is made and before every delivery, so a change applies at once. Cloud metadata addresses are never reached.
      </p>
      <fieldset disabled={readOnly}>
        <Field label="Allowed private targets" hint="Host names, IP addresses or ranges, separated by commas: localhost, 192.168.1.20, 192.168.1.0/24. Empty: none.">
          {(id) => <input id={id} name="webhookPrivateTargets" defaultValue={org.webhookPrivateTargets.join(', ')} placeholder="localhost" />}
        </Field>
        <label class="check">
          <input type="checkbox" name="webhookPlainHttp" defaultChecked={org.webhookPlainHttp} /> Allow plain http (no TLS) to the targets above on the network. Loopback targets never need TLS; anyone
          on the network path can read and change a plain-http delivery's body (its signature still proves where it came from).
        </label>
        {!readOnly && (
          <button class="primary" type="submit" disabled={save.busy}>
            Save private targets
          </button>
        )}
      </fieldset>
    </form>
  );
}
