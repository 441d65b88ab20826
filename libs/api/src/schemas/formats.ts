import { FormatRegistry } from '@sinclair/typebox';

/** RFC 3339 date-time as metav1.Time serializes it (`2025-01-02T03:04:05Z`, optional fraction and offset). */
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Registers the string formats the schemas use (`date-time`) with TypeBox, so `Value.Check` / `Value.Errors` work on
 * these schemas. Idempotent; call it once before checking values (the CRDs do not need it).
 */
export function registerSchemaFormats(): void {
  if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => RFC3339_RE.test(v) && !Number.isNaN(Date.parse(v)));
}
