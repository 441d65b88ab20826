import { describe, expect, it } from 'vitest';
import { formatPodView, redrawFrame } from './pod-view.js';

describe('redrawFrame', () => {
  it.each([
    ['first frame: nothing to clear', 0, 'a\nb', { columns: 80, rows: 24 }, 'a\nb\n', 2],
    ['next frame: cursor up over the previous one, erase below', 2, 'a\nb\nc', { columns: 80, rows: 24 }, '\x1b[2A\r\x1b[Ja\nb\nc\n', 3],
    ['previous frame as tall as the terminal: home and clear', 24, 'a', { columns: 80, rows: 24 }, '\x1b[H\x1b[2Ja\n', 1],
    ['long lines are cut to the width', 0, 'x'.repeat(30), { columns: 21, rows: 24 }, `${'x'.repeat(19)}…\n`, 1],
    ['a frame taller than the terminal is cut, saying so', 0, 'a\nb\nc\nd\ne\nf', { columns: 80, rows: 5 }, 'a\nb\nc\n  … 3 more lines (a taller terminal shows them)\n', 4],
  ] as const)('%s', (_name, previous, text, size, bytes, lines) => {
    expect(redrawFrame(previous, text, size)).toEqual({ bytes, lines });
  });
});

describe('formatPodView', () => {
  it('prints nothing without groups', () => {
    expect(formatPodView([], { limit: 20 })).toEqual([]);
  });
});
