import { useEffect, useState } from 'preact/hooks';
import { api, describeError } from '../api';
import type { Me } from '../session';
import { Field, useSubmit } from '../ui';

interface LinkInfo {
  kind: 'setup' | 'invitation' | 'reset';
  email: string | null;
  role: string | null;
  organization: { id: string; name: string } | null;
  existingMember: boolean;
  expiresAt: string;
}

const TITLES = { setup: 'Create the first owner', invitation: 'Join the organization', reset: 'Choose a new password' };

/** /link#<token>: setup, invitation or password reset. The token never leaves the fragment but for our API. */
export function LinkPage(p: { onSignedIn: (m: Me) => void }) {
  const token = location.hash.slice(1);
  const [info, setInfo] = useState<LinkInfo | null | string>(null);
  useEffect(() => {
    api.post<LinkInfo>('/dashboard/v1/links/inspect', { token }).then(setInfo, (err) => setInfo(describeError(err)));
  }, [token]);
  const { busy, onSubmit } = useSubmit(async (f) => {
    if (f.get('password') !== f.get('repeat') && !(typeof info === 'object' && info?.existingMember)) throw new Error('The two passwords differ.');
    const body: Record<string, unknown> = { token, password: f.get('password') };
    if (f.get('email')) body.email = f.get('email');
    p.onSignedIn(await api.post<Me>('/dashboard/v1/links/accept', body));
  });
  if (info === null)
    return (
      <main class="narrow" id="main">
        <p aria-busy="true">Opening the link…</p>
      </main>
    );
  if (typeof info === 'string') {
    return (
      <main class="narrow" id="main">
        <h1 tabIndex={-1} id="page-title">
          This link cannot be used
        </h1>
        <p>{info} A link works once, for a limited time. Ask an owner for a new one.</p>
        <p>
          <a href="/">Go to sign-in</a>
        </p>
      </main>
    );
  }
  return (
    <main class="narrow" id="main">
      <h1 tabIndex={-1} id="page-title">
        {TITLES[info.kind]}
      </h1>
      {info.organization && info.kind !== 'reset' && (
        <p>
          You will be <strong>{info.role}</strong> of <strong>{info.organization.name}</strong>.
        </p>
      )}
      <form class="card" onSubmit={onSubmit}>
        {info.email ? (
          <p>
            Email: <strong>{info.email}</strong>
          </p>
        ) : (
          <Field label="Your email">{(id) => <input id={id} name="email" type="email" autoComplete="username" required />}</Field>
        )}
        {info.existingMember && info.kind !== 'reset' ? (
          <Field label="Your current password" hint="You already have an account: sign in with it to join.">
            {(id) => <input id={id} name="password" type="password" autoComplete="current-password" required />}
          </Field>
        ) : (
          <>
            <Field label="New password" hint="At least 10 characters.">
              {(id) => <input id={id} name="password" type="password" autoComplete="new-password" minLength={10} required />}
            </Field>
            <Field label="Repeat the password">{(id) => <input id={id} name="repeat" type="password" autoComplete="new-password" required />}</Field>
          </>
        )}
        <button class="primary" type="submit" disabled={busy}>
          {info.kind === 'reset' ? 'Set the password' : info.existingMember ? 'Join' : 'Create my account'}
        </button>
      </form>
    </main>
  );
}
