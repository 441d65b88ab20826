import { RolloutUsageError } from './errors.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go-style duration as kubectl takes it (`90s`, `5m`, `1h30m`, `0` for none) in milliseconds. */
export function parseDuration(v: string): number {
  if (v === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < v.length) {
    re.lastIndex = at;
    const m = re.exec(v);
    if (!m) throw new RolloutUsageError(`invalid duration ${JSON.stringify(v)}: use e.g. 30s, 5m, 1h30m`);
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = re.lastIndex;
  }
  if (v.length === 0) throw new RolloutUsageError('invalid duration "": use e.g. 30s, 5m, 1h30m');
  return Math.round(total);
}
