import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, describeError } from '../api';
import type { LinkKind, Me, Role } from '../server-types';
import { Field, Form, notify, useSubmit } from '../ui';
import { FieldError } from '../form-errors';
import { SignInForm } from './sign-in';

/** POST /dashboard/v1/links/inspect (an answer built in its route). */
interface LinkInfo {
  kind: LinkKind;
  email: string | null;
  role: Role | null;
  organization: { id: string; name: string } | null;
  expiresAt: string;
}

const TITLES: Record<LinkKind, string> = { setup: 'Create the first owner', invitation: 'Join the organization', reset: 'Choose a new password' };

/**
 * /link#<token>: setup, invitation or password reset. The token never leaves the fragment but for
 * our API. A person who already has an account joins while signed in to it (docs/security.md):
 * this page never asks for the password of an existing account.
 */
export function LinkPage(p: { me: Me | null | undefined; onSignedIn: (m: Me) => void; onJoined: (m: Me) => void; onSignedOut: () => void }) {
  const token = location.hash.slice(1);
  const [info, setInfo] = useState<LinkInfo | null | string>(null);
  const [signingIn, setSigningIn] = useState(false);
  useEffect(() => {
    api.post<LinkInfo>('/dashboard/v1/links/inspect', { token }).then(setInfo, (err) =>
      // The server says only "not found": a link used once, expired, or cut short when copied all look alike to it.
      setInfo(err instanceof ApiError && err.status === 404 ? 'This link was already used, has expired, or was not copied whole.' : describeError(err)),
    );
  }, [token]);
  const submit = useSubmit(async (f) => {
    if (f.get('password') !== f.get('repeat')) throw new FieldError('repeat', 'The two passwords differ.');
    const body: Record<string, unknown> = { token, password: f.get('password') };
    if (f.get('email')) body.email = f.get('email');
    try {
      p.onJoined(await api.post<Me>('/dashboard/v1/links/accept', body));
    } catch (err) {
      if ((err as { status?: number }).status !== 409) throw err;
      // The form gives way to the sign-in: the reason goes in a notice, which stays.
      setSigningIn(true);
      notify.error(err);
    }
  });
  const join = useSubmit(async () => p.onJoined(await api.post<Me>('/dashboard/v1/links/accept', { token })));
  const signOut = useSubmit(async () => {
    await api.del('/dashboard/v1/session');
    p.onSignedOut();
  });

  if (info === null || p.me === undefined)
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
  const joining = info.kind !== 'reset';
  const me = joining ? p.me : null;
  return (
    <main class="narrow" id="main">
      <h1 tabIndex={-1} id="page-title">
        {signingIn && !me ? `Sign in as ${info.email ?? 'yourself'} to join` : TITLES[info.kind]}
      </h1>
      {info.organization && joining && (
        <p>
          You will be <strong>{info.role}</strong> of <strong>{info.organization.name}</strong>.
        </p>
      )}
      {me && info.email && info.email !== me.member.email ? (
        <Form class="card" submit={signOut}>
          <p>
            This link is for <strong>{info.email}</strong>, and you are signed in as <strong>{me.member.email}</strong>. Sign out, then open the link again.
          </p>
          <button type="submit" disabled={signOut.busy}>
            Sign out
          </button>
        </Form>
      ) : me ? (
        <Form class="card" submit={join}>
          <p>
            Signed in as <strong>{me.member.email}</strong>.
          </p>
          <button class="primary" type="submit" disabled={join.busy}>
            Join {info.organization?.name}
          </button>
        </Form>
      ) : signingIn ? (
        <SignInForm
          onSignedIn={(m) => {
            notify.clear();
            p.onSignedIn(m);
          }}
        />
      ) : (
        <>
          <Form class="card" submit={submit}>
            {info.email ? (
              <p>
                Email: <strong>{info.email}</strong>
              </p>
            ) : (
              <Field label="Your email">{(id) => <input id={id} name="email" type="email" autoComplete="username" required />}</Field>
            )}
            <Field label="New password" hint="At least 10 characters.">
              {(id) => <input id={id} name="password" type="password" autoComplete="new-password" minLength={10} required />}
            </Field>
            <Field label="Repeat the password">{(id) => <input id={id} name="repeat" type="password" autoComplete="new-password" required />}</Field>
            <button class="primary" type="submit" disabled={submit.busy}>
              {joining ? 'Create my account' : 'Set the password'}
            </button>
          </Form>
          {joining && (
            <p>
              Already have a Hafatra account?{' '}
              <button type="button" class="link" onClick={() => setSigningIn(true)}>
                Sign in to join with it
              </button>
            </p>
          )}
        </>
      )}
    </main>
  );
}
