import { createLogger, type Logger } from '@regatta/telemetry';
import { describe, expect, it } from 'vitest';
import { defectsLogged } from './r2-requests.js';

/** What the programs' own logger (libs/telemetry `createLogger`) writes for each call, as one log. */
function logOf(write: (log: Logger) => void): string {
  const lines: string[] = [];
  write(
    createLogger({
      name: 'r2-test',
      level: 'info',
      destination: { write: (s: string) => void lines.push(s) },
    }),
  );
  return lines.join('');
}

describe('defectsLogged (R2: an error only a defect in the code throws)', () => {
  it('finds a TypeError logged at error level, once per message with its count', () => {
    const log = logOf((l) => {
      for (let i = 0; i < 3; i++)
        l.error({ err: new TypeError('Cannot read properties of undefined') }, 'reconciler error; retrying');
      l.error({ err: new RangeError('Invalid array length') }, 'reconciler error; retrying');
    });
    expect(defectsLogged(log)).toEqual([
      { error: 'TypeError: Cannot read properties of undefined', lines: 3 },
      { error: 'RangeError: Invalid array length', lines: 1 },
    ]);
  });

  it('finds a defect that caused the error logged (pino appends causes to the stack)', () => {
    const log = logOf((l) =>
      l.error(
        { err: new Error('sync failed', { cause: new TypeError('x is not a function') }) },
        'reconciler error',
      ),
    );
    expect(defectsLogged(log)).toEqual([{ error: 'TypeError: x is not a function', lines: 1 }]);
  });

  it('leaves out errors the input or the cluster cause, and defects logged below error level', () => {
    const conflict = Object.assign(new Error('the object has been modified'), { code: 'KUBE_CONFLICT' });
    const log = logOf((l) => {
      l.error({ err: conflict }, 'reconciler error; retrying with back-off');
      l.warn({ err: new TypeError('tolerated') }, 'a warning');
      l.error('no error object');
    });
    expect(defectsLogged(`${log}not json at all\n{"level":50,"err":`)).toEqual([]);
  });
});
