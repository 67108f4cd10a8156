import { useEffect, useRef, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { api } from '../api';
import { useLive } from '../live';
import { Loading, Page, notify } from '../ui';
import { MESSAGE_STATUSES, TERMINAL_STATUSES, type MessageStatus } from '../../../src/messages/status.ts';
import type { MessageStats, OverviewFigures } from '../server-types';

const SERIES: [MessageStatus, string][] = [
  ['delivered', '#1a7f37'],
  ['sent', '#2f81f7'],
  ['queued', '#8250df'],
  ['failed', '#cf222e'],
  ['expired', '#bc4c00'],
  ['cancelled', '#6e7781'],
];

/** Statuses of a message not settled yet: any it may still leave (`sent` waits for its delivery report). */
const UNSETTLED = MESSAGE_STATUSES.filter((s) => !TERMINAL_STATUSES.has(s));

const LIMITS: Record<string, string> = {
  organization: 'requests past what this server handles at once for one organization',
  device: "phones' HTTP requests past what one phone may have in progress",
  phone_frames: 'phone socket frames past their budget',
};

/** Said only when something was refused: a sender or a phone of this organization asks more than its share. */
function Limited(p: { limited: Record<string, number> }) {
  const rows = Object.entries(p.limited).filter(([limit, n]) => n > 0 && LIMITS[limit]);
  if (rows.length === 0) return null;
  return (
    <section class="card" aria-labelledby="limited-title">
      <h2 id="limited-title">Refused by the server's limits today</h2>
      <ul>
        {rows.map(([limit, n]) => (
          <li>
            <strong>{n}</strong> {LIMITS[limit]}
          </li>
        ))}
      </ul>
      <p class="muted">They were answered 429 with a time to retry; a client that retries later loses nothing. Send fewer requests at once, or ask the server's operator about its limits.</p>
    </section>
  );
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
const axis = () => ({ stroke: cssVar('--fg'), grid: { stroke: cssVar('--line') }, ticks: { stroke: cssVar('--line') } });

function Chart(p: { stats: MessageStats }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const x = p.stats.buckets.map((b) => new Date(b.start).getTime() / 1000);
    const data = [x, ...SERIES.map(([s]) => p.stats.buckets.map((b) => b.byStatus[s] ?? 0))] as uPlot.AlignedData;
    let plot: uPlot | undefined;
    let gone = false;
    // The chart library loads with the first chart, not with the sign-in page.
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (gone || !el.current) return;
      const width = Math.min(el.current.clientWidth || 600, 1000);
      plot = new UPlot(
        {
          width,
          height: 220,
          // The legend names each series with its total over the range: uPlot's live values read "--" until the pointer is on the chart.
          series: [{}, ...SERIES.map(([label, stroke], i) => ({ label: `${label} (${(data[i + 1] as number[]).reduce((a, b) => a + b, 0)})`, stroke, width: 2 }))],
          legend: { live: false },
          // Canvas text takes no CSS: the axes are given the scheme's colours (dark mode included).
          axes: [axis(), { ...axis(), size: 40 }],
        },
        data,
        el.current,
      );
    });
    return () => {
      gone = true;
      plot?.destroy();
    };
  }, [p.stats]);
  return <div ref={el} class="chart" role="img" aria-label="Messages per hour by status" />;
}

export function Overview() {
  const [o, setO] = useState<OverviewFigures | null>(null);
  const [range, setRange] = useState<'24h' | '7d'>('24h');
  const [stats, setStats] = useState<MessageStats | null>(null);
  const load = () => {
    api.get<OverviewFigures>('/dashboard/v1/overview').then(setO, notify.error);
    api.get<MessageStats>('/dashboard/v1/stats/messages', { range }).then(setStats, notify.error);
  };
  useEffect(() => {
    load();
    // Phones turn stale by time alone, which no live frame announces.
    const timer = setInterval(load, 15_000);
    return () => clearInterval(timer);
  }, [range]);
  useLive('messages', load);
  useLive('device', load);
  if (!o)
    return (
      <Page title="Overview">
        <Loading />
      </Page>
    );
  const t = o.today;
  // Delivered out of everything sent today: a message still `sent` (no delivery report yet) is not counted as delivered.
  const delivered = t.byStatus.delivered ?? 0;
  const counted = t.total - (t.byStatus.cancelled ?? 0);
  const waiting = UNSETTLED.reduce((a, s) => a + (t.byStatus[s] ?? 0), 0);
  const rate = counted === 0 ? '—' : `${Math.floor((delivered / counted) * 100)} %`;
  return (
    <Page title="Overview">
      <div class="figures">
        <a class="figure" href="/messages">
          <span class="big" data-testid="today-total">
            {t.total}
          </span>{' '}
          messages today <span class="muted">of {t.dailyLimit} allowed</span>
          <meter min={0} max={t.dailyLimit} value={t.total} aria-label="Share of the daily limit used" />
        </a>
        <a class="figure" href="/messages?status=delivered">
          <span class="big" data-testid="delivered-rate">
            {rate}
          </span>{' '}
          delivered today{' '}
          <span class="muted" data-testid="delivered-detail">
            {delivered} of {counted}
            {waiting > 0 && `, ${waiting} not yet delivered (sent or on its way)`}
          </span>
        </a>
        <a class="figure" href="/phones">
          <span class="big">{o.devices.online}</span> phones online{' '}
          <span class="muted">
            {o.devices.stale} stale, {o.devices.neverSeen} never seen
          </span>
        </a>
        <a class="figure" href="/webhooks">
          <span class={`big ${o.webhooks.failing ? 'bad' : ''}`}>{o.webhooks.failing}</span> webhook endpoints failing <span class="muted">of {o.webhooks.endpoints}</span>
        </a>
      </div>
      <Limited limited={o.limited} />
      <h2>Today by status</h2>
      <ul class="chips">
        {Object.entries(t.byStatus).map(([s, n]) => (
          <li>
            <a href={`/messages?status=${s}`}>
              {s}: <strong>{n}</strong>
            </a>
          </li>
        ))}
        {t.total === 0 && (
          <li class="muted">
            No message yet today. <a href="/send">Send one</a> or post to /v1/messages with an API key.
          </li>
        )}
      </ul>
      <h2>Messages per hour</h2>
      <fieldset aria-label="Range" class="actions toggles">
        <button type="button" aria-pressed={range === '24h'} onClick={() => setRange('24h')}>
          Last 24 hours
        </button>
        <button type="button" aria-pressed={range === '7d'} onClick={() => setRange('7d')}>
          Last 7 days
        </button>
      </fieldset>
      {stats ? <Chart stats={stats} /> : <Loading />}
    </Page>
  );
}
