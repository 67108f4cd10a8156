import { useState } from 'preact/hooks';
import { api } from './api';
import { useMe } from './session';
import type { Me, Role } from './server-types';
import { navigate } from './router';
import { notify } from './ui';
import { Overview } from './pages/overview';
import { Messages, MessageDetail } from './pages/messages';
import { Send } from './pages/send';
import { Phones } from './pages/phones';
import { Received } from './pages/received';
import { MobileMoney } from './pages/mobile-money';
import { Webhooks, WebhookDetail } from './pages/webhooks';
import { Keys } from './pages/keys';
import { Members } from './pages/members';
import { Settings } from './pages/settings';
import { Audit } from './pages/audit';
import { OptOuts } from './pages/opt-outs';
import { Account } from './pages/account';
import { Conversation } from './pages/conversation';

const NAV: { path: string; label: string; role: Role }[] = [
  { path: '/', label: 'Overview', role: 'viewer' },
  { path: '/messages', label: 'Messages', role: 'viewer' },
  { path: '/send', label: 'Send', role: 'admin' },
  { path: '/phones', label: 'Phones', role: 'viewer' },
  { path: '/received', label: 'Received SMS', role: 'viewer' },
  { path: '/mobile-money', label: 'Mobile money', role: 'viewer' },
  { path: '/opt-outs', label: 'Opt-outs', role: 'viewer' },
  { path: '/webhooks', label: 'Webhooks', role: 'viewer' },
  { path: '/keys', label: 'API keys', role: 'viewer' },
  { path: '/members', label: 'Members', role: 'owner' },
  { path: '/settings', label: 'Settings', role: 'viewer' },
  { path: '/audit', label: 'Audit log', role: 'owner' },
];

function pageFor(path: string, search: string) {
  const [, first, id] = path.split('/');
  switch (first) {
    case '':
      return <Overview />;
    case 'messages':
      return id ? <MessageDetail id={id} /> : <Messages search={search} />;
    case 'send':
      return <Send />;
    case 'phones':
      return <Phones />;
    case 'received':
      return <Received search={search} />;
    case 'mobile-money':
      return <MobileMoney search={search} />;
    case 'webhooks':
      return id ? <WebhookDetail id={id} search={search} /> : <Webhooks />;
    case 'keys':
      return <Keys />;
    case 'members':
      return <Members />;
    case 'opt-outs':
      return <OptOuts />;
    case 'settings':
      return <Settings />;
    case 'audit':
      return <Audit />;
    case 'account':
      return <Account />;
    case 'conversations':
      return id ? <Conversation number={decodeURIComponent(id)} /> : <Messages search={search} />;
    default:
      return (
        <section class="page">
          <h1 tabIndex={-1} id="page-title">
            Page not found
          </h1>
          <p>
            <a href="/">Go to the overview</a>
          </p>
        </section>
      );
  }
}

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
          {NAV.filter((n) => can(n.role)).map((n) => (
            <li>
              <a href={n.path} aria-current={current(n.path) ? 'page' : undefined}>
                {n.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">{pageFor(p.path, p.search)}</main>
    </div>
  );
}
