/** metav1.Time serializes as RFC 3339 with whole seconds in UTC: `2024-05-01T12:00:00Z`. */
export function toRfc3339(t: Date | number | string): string {
  const d = t instanceof Date ? t : new Date(t);
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a valid time: ${String(t)}`);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime (Event `eventTime`): RFC 3339 with microseconds. */
export function toRfc3339Micro(t: Date | number): string {
  const d = t instanceof Date ? t : new Date(t);
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
