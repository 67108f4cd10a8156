/** The samples of a Prometheus text exposition: `name{a="x",b="y"}` → value. */
export function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = [...(m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => `${k}=${v}`).sort();
    samples.set(`${m[1]}{${labels.join(',')}}`, Number(m[3]));
  }
  return samples;
}

/** One sample's value (0 when the series does not exist yet); labels in any order. */
export const sampleValue = (samples: Map<string, number>, name: string, labels: Record<string, string> = {}) =>
  samples.get(
    `${name}{${Object.entries(labels)
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join(',')}}`,
  ) ?? 0;
