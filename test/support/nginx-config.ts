/**
 * The nginx configuration that puts several `hafatra api` processes behind one address. One
 * renderer serves the tests (loopback ports, every path in a temp dir) and the examples shipped
 * in docs/deploy/ (test/deploy/nginx-examples.test.ts checks those files are its output), so the
 * config a newcomer copies is the one the many-nodes test runs.
 */

/** Where nginx keeps its pid, logs and buffers when it runs outside /etc/nginx (the tests). */
export interface NginxRuntime {
  dir: string;
  /** `user root;` when the master runs as root (CI): its workers must read the temp dir. */
  root: boolean;
}

export interface NginxConfigOptions {
  /** The `listen` argument: `80`, `127.0.0.1:8080`. */
  listen: string;
  /**
   * The API processes: `host:port` each, in a static upstream block (failed ones skipped for
   * fail_timeout), or `{ service, resolver }` for a name resolved again at request time (Docker's
   * `api:3000` through 127.0.0.11, so replicas added by `--scale` are found without a reload).
   */
  upstream: string[] | { service: string; resolver: string };
  /** Absent: the system's paths (an installed nginx). */
  runtime?: NginxRuntime;
  /** nginx worker processes; default `auto`. */
  workers?: number | 'auto';
}

/** How long a connect may take before nginx tries the next API process. */
const CONNECT_TIMEOUT = '2s';
/**
 * How long a phone socket may stay silent towards nginx: above Hafatra's own 120 s socket idle
 * timeout (it pings well within it), so the API, not the balancer, decides when a phone is gone.
 */
const SOCKET_TIMEOUT = '300s';
/**
 * How long the event stream of an SMS Gateway for Android phone may stay silent towards nginx:
 * Hafatra writes a keepalive every 15 s, the app's own read timeout is 1 h.
 */
const EVENT_STREAM_TIMEOUT = '3600s';
/** A node that refused or timed out a connection is left out this long before it is tried again. */
const FAIL_TIMEOUT = '5s';

function mainSection(o: NginxConfigOptions): string[] {
  const r = o.runtime;
  return [
    ...(r?.root ? ['user root;'] : []),
    `worker_processes ${o.workers ?? 'auto'};`,
    r ? `pid ${r.dir}/nginx.pid;` : 'pid /run/nginx.pid;',
    r ? `error_log ${r.dir}/error.log warn;` : 'error_log /var/log/nginx/error.log warn;',
    '',
    '# Each phone holds one socket open for as long as it is online: size this for the fleet.',
    'events { worker_connections 4096; }',
  ];
}

function upstreamSection(o: NginxConfigOptions): string[] {
  if (!Array.isArray(o.upstream)) {
    return [`    # ${o.upstream.service} names every replica; a lookup is kept 5 s, so a new one takes work within seconds.`, `    resolver ${o.upstream.resolver} valid=5s ipv6=off;`];
  }
  return [
    '    # One line per `hafatra api` process. After one refused or timed-out connection a node is',
    `    # skipped for ${FAIL_TIMEOUT} (the request goes on to the next one), then tried again.`,
    '    upstream hafatra_api {',
    ...o.upstream.map((hostPort) => `        server ${hostPort} max_fails=1 fail_timeout=${FAIL_TIMEOUT};`),
    '        # Idle connections kept open to the API processes: no new TCP connect per request.',
    '        keepalive 32;',
    "        # Under uWebSockets.js's 10 s idle timeout on HTTP connections: nginx never reuses one the",
    '        # API is closing (a POST sent on it would fail with 502: nginx does not send it again).',
    '        keepalive_timeout 5s;',
    '    }',
  ];
}

function proxyTarget(o: NginxConfigOptions): string[] {
  if (Array.isArray(o.upstream)) return ['            proxy_pass http://hafatra_api;'];
  // A variable makes nginx resolve the name per request instead of once at start.
  return [`            set $hafatra_api ${o.upstream.service};`, '            proxy_pass http://$hafatra_api;'];
}

function runtimePaths(r: NginxRuntime | undefined): string[] {
  if (!r) return [];
  return ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${r.dir}/${kind};`);
}

export function renderNginxConfig(o: NginxConfigOptions): string {
  const accessLog = o.runtime ? `${o.runtime.dir}/access.log` : '/var/log/nginx/access.log';
  return [
    ...mainSection(o),
    '',
    'http {',
    ...runtimePaths(o.runtime),
    '    # Phones connect with a WebSocket upgrade; every other request keeps its upstream connection.',
    '    map $http_upgrade $connection_upgrade {',
    '        default upgrade;',
    "        '' '';",
    '    }',
    '',
    '    # Hafatra answers every request with its own X-Request-Id (the id in its access log and in',
    '    # error bodies): logged here too, with the node that answered, so one line finds the other.',
    '    log_format hafatra \'$remote_addr [$time_local] "$request" $status $body_bytes_sent \'',
    "                       '$request_time upstream=$upstream_addr request_id=$upstream_http_x_request_id';",
    `    access_log ${accessLog} hafatra;`,
    '',
    ...upstreamSection(o),
    '',
    '    server {',
    `        listen ${o.listen};`,
    '        # Above HAFATRA_BODY_LIMIT_BYTES (1 MiB): Hafatra answers a too-large body itself, in JSON.',
    '        client_max_body_size 2m;',
    '',
    '        location / {',
    ...proxyTarget(o),
    '            # uWebSockets.js speaks HTTP/1.1 only (nginx speaks 1.0 to backends unless told).',
    '            proxy_http_version 1.1;',
    '            proxy_set_header Host $host;',
    '            proxy_set_header Upgrade $http_upgrade;',
    '            proxy_set_header Connection $connection_upgrade;',
    '            # Appends the client address: with HAFATRA_TRUST_PROXY=true Hafatra takes the last entry.',
    '            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '            proxy_set_header X-Forwarded-Proto $scheme;',
    '',
    '            # A node that is down (killed, stopped after its drain) refuses the connect: the',
    '            # request goes to the next node. A request already sent is not sent twice unless it',
    '            # is idempotent (nginx never resends a POST): a send is retried by its client with',
    '            # the same Idempotency-Key.',
    '            proxy_next_upstream error timeout;',
    '            proxy_next_upstream_tries 3;',
    `            proxy_connect_timeout ${CONNECT_TIMEOUT};`,
    `            proxy_read_timeout ${SOCKET_TIMEOUT};`,
    `            proxy_send_timeout ${SOCKET_TIMEOUT};`,
    '        }',
    '',
    '        # The Server-Sent Events stream of SMS Gateway for Android phones (docs/android-app.md):',
    '        # passed on as each event is written (not buffered), and held open for as long as the',
    '        # phone keeps it (a keepalive every 15 s).',
    '        location /mobile/v1/events {',
    ...proxyTarget(o),
    '            proxy_http_version 1.1;',
    '            proxy_set_header Host $host;',
    "            proxy_set_header Connection '';",
    '            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '            proxy_set_header X-Forwarded-Proto $scheme;',
    '            proxy_buffering off;',
    '            proxy_cache off;',
    `            proxy_connect_timeout ${CONNECT_TIMEOUT};`,
    `            proxy_read_timeout ${EVENT_STREAM_TIMEOUT};`,
    `            proxy_send_timeout ${EVENT_STREAM_TIMEOUT};`,
    '        }',
    '    }',
    '}',
    '',
  ].join('\n');
}

/** The configurations shipped in docs/deploy/, each with the comment that opens it. */
export const NGINX_EXAMPLES: { file: string; header: string[]; options: NginxConfigOptions }[] = [
  {
    file: 'docs/deploy/nginx.conf',
    header: [
      'nginx in front of several `hafatra api` processes (docs/scaling.md).',
      'Copy it to /etc/nginx/nginx.conf, list your API processes in `upstream hafatra_api`, put',
      'TLS on the listener (listen 443 ssl; ssl_certificate …) and run `nginx -s reload`.',
      'Written by test/support/nginx-config.ts, the config test/cluster/many-nodes.test.ts runs:',
      'change it there (test/deploy/nginx-examples.test.ts checks this file is its output).',
    ],
    options: { listen: '80', upstream: ['10.0.0.11:3000', '10.0.0.12:3000', '10.0.0.13:3000'] },
  },
  {
    file: 'docs/deploy/nginx.compose.conf',
    header: [
      'The nginx of docker-compose.yml: every replica of the `api` service behind port 80',
      '(`docker compose up -d --scale api=3`). Docker answers `api` with the address of each',
      "replica at its resolver 127.0.0.11; the name is looked up again every 5 s. nginx's open",
      'source build keeps no failure count per replica here: a replica that refuses a connection',
      'is skipped for that request only (proxy_next_upstream).',
      'Written by test/support/nginx-config.ts (see docs/deploy/nginx.conf).',
    ],
    options: { listen: '80', upstream: { service: 'api:3000', resolver: '127.0.0.11' } },
  },
];

export function renderNginxExample(example: (typeof NGINX_EXAMPLES)[number]): string {
  return `${example.header.map((line) => `# ${line}`).join('\n')}\n\n${renderNginxConfig(example.options)}`;
}
