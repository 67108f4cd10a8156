import type { ComponentChildren } from 'preact';
import type { Role } from './server-types';
import { Overview } from './pages/overview';
import { Messages } from './pages/messages';
import { MessageDetail } from './pages/message-detail';
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

interface Route {
  /** The path's first segment; a second one is the page's `id` (`/messages/{id}`). */
  path: string;
  /** Named in the main navigation, in this order; a route without a label is reached by links. */
  label?: string;
  /** The least role whose navigation lists it: the pages themselves are for anyone signed in, and the server refuses what a role may not read. */
  role: Role;
  page: (id: string | undefined, search: string) => ComponentChildren;
}

/** Every page of the signed-in dashboard: the navigation and the router both read this table. */
export const ROUTES: Route[] = [
  { path: '/', label: 'Overview', role: 'viewer', page: () => <Overview /> },
  { path: '/messages', label: 'Messages', role: 'viewer', page: (id, search) => (id ? <MessageDetail id={id} /> : <Messages search={search} />) },
  { path: '/send', label: 'Send', role: 'admin', page: () => <Send /> },
  { path: '/phones', label: 'Phones', role: 'viewer', page: () => <Phones /> },
  { path: '/received', label: 'Received SMS', role: 'viewer', page: (_, search) => <Received search={search} /> },
  { path: '/mobile-money', label: 'Mobile money', role: 'viewer', page: (_, search) => <MobileMoney search={search} /> },
  { path: '/opt-outs', label: 'Opt-outs', role: 'viewer', page: () => <OptOuts /> },
  { path: '/webhooks', label: 'Webhooks', role: 'viewer', page: (id, search) => (id ? <WebhookDetail id={id} search={search} /> : <Webhooks />) },
  { path: '/keys', label: 'API keys', role: 'viewer', page: () => <Keys /> },
  { path: '/members', label: 'Members', role: 'owner', page: () => <Members /> },
  { path: '/settings', label: 'Settings', role: 'viewer', page: () => <Settings /> },
  { path: '/audit', label: 'Audit log', role: 'owner', page: () => <Audit /> },
  { path: '/account', role: 'viewer', page: () => <Account /> },
  { path: '/conversations', role: 'viewer', page: (id, search) => (id ? <Conversation number={decodeURIComponent(id)} /> : <Messages search={search} />) },
];

function NotFound() {
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

/** The page at a path: its first segment names the route, the second its id. */
export function pageAt(path: string, search: string): ComponentChildren {
  const [, first, id] = path.split('/');
  const route = ROUTES.find((r) => r.path === `/${first}`);
  return route ? route.page(id, search) : <NotFound />;
}
