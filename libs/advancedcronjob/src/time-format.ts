/** Times as the API writes them. */
import { wallClockAt } from './schedule/wall-clock.js';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** A `metav1.Time`: RFC 3339 in UTC, whole seconds (`2026-12-07T12:00:00Z`). */
export function toMetaTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * RFC 3339 in the schedule's zone, whole seconds, as Go's `time.Format(time.RFC3339)` writes a time of that zone
 * (`2026-12-07T20:00:00+08:00`; `Z` at offset zero): the `apps.kruise.io/scheduled-at` annotation.
 */
export function toRfc3339InZone(ms: number, zone: string): string {
  const s = Math.floor(ms / 1000) * 1000;
  const w = wallClockAt(s, zone);
  const seconds = new Date(s).getUTCSeconds();
  const offsetMin = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - (s - seconds * 1000)) / 60_000);
  const date = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(seconds)}`;
  if (offsetMin === 0) return `${date}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${date}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
