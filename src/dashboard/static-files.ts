import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packageRoot } from '../package/paths.js';
import type { Reply } from '../http/reply.js';
import type { DashboardPages } from '../http/router.js';

export const dashboardDir = join(packageRoot, 'dist', 'dashboard');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * What every dashboard response carries. No inline script or style may run (the build emits
 * none), no other site may frame the pages, and no address leaks through a Referer.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  cache: string;
}

/**
 * The built dashboard, read once at start (it is small: see README), each file kept plain and
 * gzipped: a request never touches the disk. Hashed assets are cached for a year; index.html is
 * revalidated, so a deploy is picked up at the next load.
 */
export function loadDashboard(dir = dashboardDir): Map<string, StaticFile> | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, StaticFile>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const body = readFileSync(path);
        const type = TYPES[extname(name)] ?? 'application/octet-stream';
        const zipped = /^(text|image\/svg|application\/json)/.test(type) && body.length > 512 ? gzipSync(body, { level: 9 }) : null;
        const url = `/${relative(dir, path).split('\\').join('/')}`;
        files.set(url, { body, gzip: zipped, type, cache: url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache' });
      }
    }
  };
  walk(dir);
  return files;
}

const NOT_BUILT = Buffer.from(`<!doctype html><title>Hafatra</title><p>The dashboard is not built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it), then reload.</p>`);

/** GET of a dashboard path: the file, or index.html for the app's own pages (client-side routes). */
export function dashboardReply(files: Map<string, StaticFile> | null, path: string, acceptsGzip: boolean): Reply {
  if (!files) return { status: 503, raw: { body: NOT_BUILT, contentType: TYPES['.html']! }, headers: { ...SECURITY_HEADERS, 'cache-control': 'no-store' } };
  const asset = files.get(path);
  if (!asset && path.startsWith('/assets/')) return { status: 404, raw: { body: Buffer.from('not found'), contentType: 'text/plain; charset=utf-8' }, headers: SECURITY_HEADERS };
  const f = asset ?? files.get('/index.html')!;
  const gz = acceptsGzip && f.gzip !== null;
  return {
    status: 200,
    raw: { body: gz ? f.gzip! : f.body, contentType: f.type },
    headers: { ...SECURITY_HEADERS, 'cache-control': f.cache, vary: 'accept-encoding', ...(gz ? { 'content-encoding': 'gzip' } : {}) },
  };
}

/** Paths the API owns: never answered with the dashboard. */
export const isApiPath = (path: string) =>
  path.startsWith('/v1/') || path === '/v1' || path.startsWith('/device/') || path.startsWith('/mobile/') || path.startsWith('/dashboard/') || path === '/openapi.json';

/** The dashboard as app/ hands it to the HTTP server: any GET the API does not own is one of its pages. */
export function dashboardPages(dir = dashboardDir): DashboardPages {
  const files = loadDashboard(dir);
  return { owns: (path) => !isApiPath(path), reply: (path, acceptsGzip) => dashboardReply(files, path, acceptsGzip) };
}
