// Benchmark 3's table of programs follows what each program declares: the field set of a row is the one its
// apps/<key>/src/main.ts gives as `project`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as bus from '@regatta/bus';
import * as deletionprotection from '@regatta/deletionprotection';
import { describe, expect, it } from 'vitest';
import { PROJECTING_PROGRAMS, PROJECTING_PROGRAM_NAMES } from './memory-programs.js';

describe('PROJECTING_PROGRAMS', () => {
  it.each(PROJECTING_PROGRAM_NAMES)(
    "%s: the field set is the one the program's main.ts projects with",
    (program) => {
      // the field sets live in libs/bus, or (newer programs) in the program's own lib
      const exported = Object.entries({ ...bus, ...deletionprotection }).find(([, v]) => v === PROJECTING_PROGRAMS[program].fields)?.[0];
      expect(exported).toMatch(/_POD_FIELDS$/);
      const main = readFileSync(new URL(`../../apps/${program}/src/main.ts`, import.meta.url), 'utf8');
      expect(main).toContain(`project: ${exported}`);
    },
  );

  it('names every program that projects its pods', () => {
    const apps = new URL('../../apps/', import.meta.url);
    const main = (app: string) => new URL(`${app}/src/main.ts`, apps);
    const projecting = readdirSync(apps).filter(
      (app) => existsSync(main(app)) && /project: \w+_POD_FIELDS/.test(readFileSync(main(app), 'utf8')),
    );
    expect(projecting.sort()).toEqual([...PROJECTING_PROGRAM_NAMES].sort());
  });
});
