/**
 * The pod table under the `rollout status --watch` summary, and the terminal frame it is redrawn in. Bounded: at most
 * `limit` rows per group, the rest counted.
 */
import type { PodGroup, ViewRow } from './pod-groups.js';
import { rowAge } from './pod-rows.js';
import { columnWidths, tableLine } from './table.js';

export interface PodViewOptions {
  /** Rows per group; the rest are counted. */
  limit: number;
  /** DaemonSet: one row per node, the node first. */
  nodeFirst?: boolean;
  /** Print `namespace/name` (a SidecarSet's pods may live in several namespaces). */
  withNamespace?: boolean;
  /** Leave the AGE column out (the text compared to decide whether a new frame is printed). */
  noAge?: boolean;
}

export const DEFAULT_PODS_PER_GROUP = 20;

const MARK_TEXT: Record<ViewRow['mark'], string> = { '': '', 'not updated': '◦ not updated', partition: '‖ partition' };

function cells(r: ViewRow, o: PodViewOptions): string[] {
  const name = o.withNamespace && r.namespace ? `${r.namespace}/${r.name}` : r.name;
  const node = r.node || '<none>';
  return [
    ...(o.nodeFirst ? [node, name] : [name]),
    r.status,
    r.ready,
    String(r.restarts),
    r.update || '-',
    r.lifecycle || '-',
    ...(o.nodeFirst ? [] : [node]),
    ...(o.noAge ? [] : [rowAge(r)]),
    MARK_TEXT[r.mark],
  ];
}

/** The table lines (indented, no trailing newline); [] when there are no groups. */
export function formatPodView(groups: readonly PodGroup[], o: PodViewOptions): string[] {
  if (groups.length === 0) return [];
  const header = [
    ...(o.nodeFirst ? ['NODE', 'POD'] : ['NAME']),
    'STATUS',
    'READY',
    'RESTARTS',
    'UPDATE',
    'LIFECYCLE',
    ...(o.nodeFirst ? [] : ['NODE']),
    ...(o.noAge ? [] : ['AGE']),
    '',
  ];
  const shown = groups.map((g) => g.rows.slice(0, Math.max(0, o.limit)));
  const table = [header, ...shown.flat().map((r) => cells(r, o))];
  const widths = columnWidths(table);
  const line = (row: string[]) => tableLine(row, widths, '    ');
  const out = [line(header)];
  groups.forEach((g, i) => {
    out.push(`  ${g.title}`);
    for (const r of shown[i]!) out.push(line(cells(r, o)));
    const hidden = g.rows.length - shown[i]!.length;
    if (hidden > 0) {
      const notReady = g.rows.slice(shown[i]!.length).filter((r) => !r.podReady).length;
      out.push(`    … and ${hidden} more${notReady > 0 ? ` (${notReady} of them not ready)` : ''}`);
    }
  });
  return out;
}

/** A terminal's size, for the redrawn frame. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/**
 * The bytes that replace the previous frame (`previousLines` lines, the cursor on the line after it) with `text` on
 * a terminal: cursor up and erase to the end of the screen (ECMA-48 CUU, ED), or home and erase the screen when
 * the previous frame was taller than the terminal. Lines are cut to the width so none wraps (a wrapped line would
 * throw the count off), and the frame to the height, its last line saying how many were left out.
 */
export function redrawFrame(previousLines: number, text: string, size: TerminalSize): { bytes: string; lines: number } {
  const width = Math.max(10, size.columns - 1);
  let lines = text.split('\n').map((l) => ([...l].length > width ? `${[...l].slice(0, width - 1).join('')}…` : l));
  const height = Math.max(3, size.rows - 1);
  if (lines.length > height) {
    const cut = lines.length - (height - 1);
    lines = [...lines.slice(0, height - 1), `  … ${cut} more lines (a taller terminal shows them)`];
  }
  const clear =
    previousLines <= 0 ? '' : previousLines < size.rows ? `\x1b[${previousLines}A\r\x1b[J` : '\x1b[H\x1b[2J';
  return { bytes: `${clear}${lines.join('\n')}\n`, lines: lines.length };
}
