import { render, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, whenSignedOut } from './api';
import { MeContext } from './session';
import type { Me } from './server-types';
import { Notices, notify } from './ui';
import { navigate, onLinkClick, useLocation } from './router';
import { Layout } from './layout';
import { SignIn } from './pages/sign-in';
import { LinkPage } from './pages/link';
import './styles.css';

function App() {
  const loc = useLocation();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => setMe(null));
    api.get<Me>('/dashboard/v1/me').then(setMe, () => setMe(null));
  }, []);
  useEffect(() => {
    // Errors were about the page left behind.
    notify.clearErrors();
    // Focus follows navigation, for keyboard and screen-reader users.
    requestAnimationFrame(() => document.getElementById('page-title')?.focus());
  }, [loc.path]);

  let body: ComponentChildren;
  if (loc.path === '/link')
    body = (
      <LinkPage
        me={me}
        onSignedIn={setMe}
        onSignedOut={() => setMe(null)}
        onJoined={(m) => {
          setMe(m);
          navigate('/', true);
        }}
      />
    );
  else if (me === undefined) body = <p class="muted center">Loading…</p>;
  else if (me === null)
    body = (
      <SignIn
        onSignedIn={(m) => {
          notify.clear();
          setMe(m);
        }}
      />
    );
  else
    body = (
      <MeContext.Provider value={{ me, setMe }}>
        <Layout path={loc.path} search={loc.search} />
      </MeContext.Provider>
    );
  return (
    <div onClick={onLinkClick}>
      {body}
      <Notices />
    </div>
  );
}

render(<App />, document.getElementById('app')!);
