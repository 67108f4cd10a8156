import { api } from '../api';
import type { Me } from '../session';
import { Field, useSubmit } from '../ui';

export function SignIn(p: { onSignedIn: (m: Me) => void; title?: string }) {
  const { busy, onSubmit } = useSubmit(async (f) => {
    p.onSignedIn(await api.post<Me>('/dashboard/v1/session', { email: f.get('email'), password: f.get('password') }));
  });
  return (
    <main class="narrow" id="main">
      <h1 tabIndex={-1} id="page-title">
        {p.title ?? 'Sign in to Hafatra'}
      </h1>
      <form onSubmit={onSubmit} class="card">
        <Field label="Email">{(id) => <input id={id} name="email" type="email" autoComplete="username" required />}</Field>
        <Field label="Password">{(id) => <input id={id} name="password" type="password" autoComplete="current-password" required />}</Field>
        <button class="primary" type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p class="muted">
        Forgot your password? Ask an owner of your organization for a reset link, or run <code>hafatra member reset-password --email you@example.org</code> on the server.
      </p>
    </main>
  );
}
