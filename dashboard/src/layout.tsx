import { useState } from 'preact/hooks';
import { api } from './api';
import { useMe } from './session';
import type { Me } from './server-types';
import { navigate } from './router';
import { notify } from './ui';
import { pageAt, ROUTES } from './routes';

export function Layout(p: { path: string; search: string }) {
  const { me, setMe, can } = useMe();
  const [open, setOpen] = useState(false);
  const current = (path: string) => (path === '/' ? p.path === '/' : p.path.startsWith(path));
  const switchTo = async (orgId: string) => {
    try {
      setMe(await api.post<Me>('/dashboard/v1/session/organization', { organizationId: orgId }));
      navigate('/');
      notify.success('Switched organization.');
    } catch (err) {
      notify.error(err);
    }
  };
  const signOut = async () => {
    try {
      await api.del('/dashboard/v1/session');
    } finally {
      setMe(null);
      navigate('/', true);
    }
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <button type="button" class="menu" aria-expanded={open} aria-controls="nav" onClick={() => setOpen(!open)}>
          Menu
        </button>
        <a class="brand" href="/">
          Hafatra
        </a>
        {me.organizations.length > 1 ? (
          <select aria-label="Organization" value={me.organization.id} onChange={(e) => switchTo(e.currentTarget.value)}>
            {me.organizations.map((o) => (
              <option value={o.id}>{o.name}</option>
            ))}
          </select>
        ) : (
          <span class="org">{me.organization.name}</span>
        )}
        <span class="who">
          <a href="/account">{me.member.email}</a> · {me.role}
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav id="nav" class={open ? 'open' : ''} aria-label="Main" onClick={() => setOpen(false)}>
        <ul>
          {ROUTES.filter((r) => r.label && can(r.role)).map((r) => (
            <li>
              <a href={r.path} aria-current={current(r.path) ? 'page' : undefined}>
                {r.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">{pageAt(p.path, p.search)}</main>
    </div>
  );
}
