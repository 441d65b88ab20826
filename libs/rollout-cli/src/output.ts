/** `-o json|yaml`: the structured form of what a command would print as a table (kubectl's `--output`). */
import { stringify } from 'yaml';
import { RolloutUsageError } from './errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The `-o` value as a format; no value is the table. */
export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined || value === '' || value === 'table') return 'table';
  if (value === 'json' || value === 'yaml') return value;
  throw new RolloutUsageError(`-o must be json or yaml (or left out for a table), got ${JSON.stringify(value)}`);
}

/** `value` as JSON (two-space indent) or YAML, ending in a newline. */
export function formatStructured(format: 'json' | 'yaml', value: unknown): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value);
}
