import { useEffect, useState } from 'preact/hooks';

/** A small history router: paths are pages, the query string is a page's filters. */
export function navigate(to: string, replace = false) {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  dispatchEvent(new Event('hafatra:navigate'));
}

export function useLocation() {
  const [loc, setLoc] = useState(() => ({ path: location.pathname, search: location.search }));
  useEffect(() => {
    const update = () => setLoc({ path: location.pathname, search: location.search });
    addEventListener('popstate', update);
    addEventListener('hafatra:navigate', update);
    return () => {
      removeEventListener('popstate', update);
      removeEventListener('hafatra:navigate', update);
    };
  }, []);
  return loc;
}

export const queryParam = (search: string, name: string) => new URLSearchParams(search).get(name) ?? '';

/** Same-origin links go through the router; the browser handles modified clicks (new tab). */
export function onLinkClick(e: MouseEvent) {
  const a = (e.target as HTMLElement).closest('a');
  if (!a || a.target || a.hasAttribute('download') || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}
