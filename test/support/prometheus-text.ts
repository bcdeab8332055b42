// A line parser of the Prometheus text exposition format (0.0.4) for tests: `name{label="v",...} value` per sample;
// # HELP / # TYPE lines skipped. Label values here never hold an escaped quote or a comma inside quotes.
export type Sample = { name: string; labels: Record<string, string>; value: number };

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (m[2] ?? '').match(/[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"/g) ?? []) {
      const eq = pair.indexOf('=');
      labels[pair.slice(0, eq)] = pair.slice(eq + 2, -1);
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels`; 0 when absent (a series not yet born). */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${hits.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return hits[0]?.value ?? 0;
}
