/**
 * The controller's clock (upstream's `Clock` interface in `pkg/controller/advancedcronjob`): the program wires the
 * system clock. A test drives time instead of waiting for minutes with {@link fileClock}: the instant is read from a
 * file the test writes (`REGATTA_ADVANCEDCRONJOB_CLOCK_FILE`, docs/advancedcronjob.md), and the controller looks at
 * it again at least every {@link FILE_CLOCK_POLL_MS}, since a jump of a driven clock is not an event it hears of.
 */
import { readFileSync } from 'node:fs';
import { ClockFileError } from './errors.js';

export interface Clock {
  now(): Date;
  /** The longest a reconcile waits before reading the clock again (undefined: until the next scheduled time). */
  readonly maxWaitMs?: number;
}

export const systemClock: Clock = { now: () => new Date() };

export const FILE_CLOCK_POLL_MS = 250;

/** A clock whose time is the RFC 3339 instant in `path` (read on every call). */
export function fileClock(path: string): Clock {
  return {
    maxWaitMs: FILE_CLOCK_POLL_MS,
    now() {
      const text = readFileSync(path, 'utf8').trim();
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) throw new ClockFileError(path, text);
      return new Date(ms);
    },
  };
}

/** The system clock, or the file clock when `REGATTA_ADVANCEDCRONJOB_CLOCK_FILE` names a file (tests only). */
export function clockFromEnv(env: Readonly<Record<string, string | undefined>>): Clock {
  const path = env['REGATTA_ADVANCEDCRONJOB_CLOCK_FILE'];
  return path ? fileClock(path) : systemClock;
}
