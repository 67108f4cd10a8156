import { api } from '../api';
import type { Me } from '../server-types';
import { Field, Form, useSubmit } from '../ui';

/** The normal sign-in (with its limits): the sign-in page's, and the link page's for a person joining with their account. */
export function SignInForm(p: { onSignedIn: (m: Me) => void }) {
  const submit = useSubmit(async (f) => {
    p.onSignedIn(await api.post<Me>('/dashboard/v1/session', { email: f.get('email'), password: f.get('password') }));
  });
  return (
    <Form submit={submit} class="card">
      <Field label="Email">{(id) => <input id={id} name="email" type="email" autoComplete="username" required />}</Field>
      <Field label="Password">{(id) => <input id={id} name="password" type="password" autoComplete="current-password" required />}</Field>
      <button class="primary" type="submit" disabled={submit.busy}>
        Sign in
      </button>
    </Form>
  );
}

export function SignIn(p: { onSignedIn: (m: Me) => void }) {
  return (
    <main class="narrow" id="main">
      <h1 tabIndex={-1} id="page-title">
        Sign in to Hafatra
      </h1>
      <SignInForm onSignedIn={p.onSignedIn} />
      <p class="muted">
        Forgot your password? Ask an owner of your organization for a reset link, or run <code>hafatra member reset-password --email you@example.org</code> on the server.
      </p>
    </main>
  );
}
