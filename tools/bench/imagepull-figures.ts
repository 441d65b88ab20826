// Benchmark 9 (issue 15), pure figures: the bound of an ImagePullJob over N nodes at parallelism p with a pull time
// t, the duration's ratio to it, the excess the agent's status cadence explains (docs/adr/0041-node-image-status-
// rate-limit.md), and the per-agent summaries (median RSS).

/** The earliest a tag's final phase is written after its spec change (libs/image-puller rate-limit.ts, ADR 0041). */
export const FINAL_REPORT_MIN_MS = 3000;

/** A job of N nodes at parallelism p runs in ceil(N/p) waves of one pull each. */
export function pullWaves(nodes: number, parallelism: number): number {
  if (nodes <= 0) return 0;
  return Math.ceil(nodes / Math.max(1, parallelism));
}

/** ceil(N/p)·t in seconds: the job's duration if every pull took exactly t and was seen at once. */
export function pullBoundS(nodes: number, parallelism: number, pullMs: number): number {
  return (pullWaves(nodes, parallelism) * pullMs) / 1000;
}

/** duration / bound; undefined when either is missing or the bound is 0. */
export function overBound(durationS: number | undefined, boundS: number): number | undefined {
  if (durationS === undefined || !Number.isFinite(durationS) || !(boundS > 0)) return undefined;
  return durationS / boundS;
}

/**
 * The wait the agent's status cadence adds to each wave (ADR 0041): a finished pull is written by the next sync, 3–5 s
 * after the previous one, so a wave is seen between 0 and 5 s late (about `meanMs`, 4 s by the ADR's reckoning).
 * Returns [low, mean, high] seconds over the whole job.
 */
export function cadenceExcessS(
  nodes: number,
  parallelism: number,
  sync = { lowMs: 0, meanMs: 4000, highMs: 5000 },
): [number, number, number] {
  const w = pullWaves(nodes, parallelism);
  return [(w * sync.lowMs) / 1000, (w * sync.meanMs) / 1000, (w * sync.highMs) / 1000];
}

/** Median of finite samples (the mean of the two middle ones for an even count); NaN for none. */
export function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  const at = (i: number) => s[i] ?? NaN;
  return s.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/** Sum of finite samples and how many there were (an agent gone has NaN). */
export function sumFinite(xs: number[]): { sum: number; n: number } {
  const f = xs.filter((x) => Number.isFinite(x));
  return { sum: f.reduce((a, b) => a + b, 0), n: f.length };
}
