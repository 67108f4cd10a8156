import { api } from '../api';
import { useMe } from '../session';
import { Field, Form, Page, notify, useSubmit } from '../ui';
import { FieldError } from '../form-errors';

export function Account() {
  const { me } = useMe();
  const submit = useSubmit(async (f) => {
    if (f.get('newPassword') !== f.get('repeat')) throw new FieldError('repeat', 'The two new passwords differ.');
    await api.post('/dashboard/v1/password', { currentPassword: f.get('currentPassword'), newPassword: f.get('newPassword') });
    notify.success('Password changed. Your other sessions are signed out.');
  });
  return (
    <Page title="Your account">
      <p>
        Signed in as <strong>{me.member.email}</strong>, {me.role} of {me.organization.name}.
      </p>
      <Form class="card" submit={submit}>
        <h2>Change your password</h2>
        <Field label="Current password">{(id) => <input id={id} name="currentPassword" type="password" autoComplete="current-password" required />}</Field>
        <Field label="New password" hint="At least 10 characters.">
          {(id) => <input id={id} name="newPassword" type="password" autoComplete="new-password" minLength={10} required />}
        </Field>
        <Field label="Repeat the new password">{(id) => <input id={id} name="repeat" type="password" autoComplete="new-password" required />}</Field>
        <button class="primary" type="submit" disabled={submit.busy}>
          Change the password
        </button>
      </Form>
    </Page>
  );
}
