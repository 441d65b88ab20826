// The chaos suite's output: one result per check, printed as a table (the figures docs/reliability.md publishes)
// followed by every violation and note. Pure.
import { fmt, summarize } from '../bench/common.js';
import type { Violation } from './checker.js';

export type CheckId = 'R0' | 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6' | 'R7' | 'R8' | 'R9';

export interface CheckResult {
  id: CheckId;
  title: string;
  /** The figures, in order: name → value as printed. */
  figures: [string, string][];
  violations: Violation[];
  /** Programs that exited without being killed by the suite (a crash). */
  crashes: number;
  notes: string[];
}

/** A check passes with no violation and no crash. */
export const passed = (r: CheckResult) => r.violations.length === 0 && r.crashes === 0;

/** `median / max` of durations in ms, printed in seconds; `n/a` with none. */
export function medianMax(ms: number[]): string {
  if (ms.length === 0) return 'n/a';
  const s = summarize(ms);
  return `${fmt(s.p50 / 1000)} s / ${fmt(s.max / 1000)} s`;
}

/** `kill-watcher 3, kill-nats 1`: how many of each, in first-seen order. */
export function countBy(xs: readonly string[]): string {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m.size === 0 ? 'none' : [...m].map(([k, n]) => `${k} ${n}`).join(', ');
}

export function renderResults(results: CheckResult[]): string {
  const rows: string[][] = [['check', 'result', 'figure', 'value']];
  for (const r of results) {
    const verdict = passed(r) ? 'pass' : `FAIL (${r.violations.length} violation(s), ${r.crashes} crash(es))`;
    const figures: [string, string][] = [
      ...r.figures,
      ['violations', String(r.violations.length)],
      ['crashes', String(r.crashes)],
    ];
    figures.forEach(([k, v], i) =>
      rows.push(i === 0 ? [`${r.id} ${r.title}`, verdict, k, v] : ['', '', k, v]),
    );
  }
  const lines = [leftTable(rows)];
  for (const r of results) {
    for (const v of r.violations)
      lines.push(`${r.id} violation ${v.kind} (×${v.count}, first at ${fmt(v.at / 1000)} s): ${v.detail}`);
    for (const n of r.notes) lines.push(`${r.id} note: ${n}`);
  }
  return lines.join('\n');
}

/** `table` with every column left-aligned (values here are words as often as numbers). */
function leftTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
