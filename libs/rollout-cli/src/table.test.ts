import { describe, expect, it } from 'vitest';
import { columnWidths, formatTable, tableLine } from './table.js';

describe('the table printer', () => {
  it('aligns columns two spaces apart and drops trailing blanks', () => {
    expect(
      formatTable([
        ['NAME', 'READY', ''],
        ['web-abc', '1/1', 'current'],
        ['w', '0/1', ''],
      ]),
    ).toBe(['NAME     READY', 'web-abc  1/1    current', 'w        0/1'].join('\n'));
  });

  it('indents every line and measures short rows', () => {
    expect(columnWidths([['a', 'bbb'], ['cc']])).toEqual([2, 3]);
    expect(tableLine(['x'], [3, 2], '  ')).toBe('  x');
    expect(formatTable([['A', 'B'], ['1', '2']], '    ')).toBe('    A  B\n    1  2');
  });
});
