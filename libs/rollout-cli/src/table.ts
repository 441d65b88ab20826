/**
 * The one table printer of the CLI (kubectl's look: upper-case header, columns two spaces apart, left-aligned, no
 * trailing blanks). `columnWidths` is for tables whose rows are printed in between other lines (the pod view's
 * groups, the waterfall's bars).
 */

/** The width of each column: the longest cell of that column in any row. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  return Array.from({ length: columns }, (_, i) => Math.max(0, ...rows.map((r) => (r[i] ?? '').length)));
}

/** One row padded to `widths`, cells two spaces apart, trailing blanks dropped. */
export function tableLine(row: readonly string[], widths: readonly number[], indent = ''): string {
  return `${indent}${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd();
}

/** A whole table: the header and every row, aligned to the widest cell of each column. */
export function formatTable(rows: readonly (readonly string[])[], indent = ''): string {
  const widths = columnWidths(rows);
  return rows.map((r) => tableLine(r, widths, indent)).join('\n');
}
