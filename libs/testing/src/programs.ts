// Regatta programs started for one scenario file: on port 0 (the address they got is read back, docs/adr/0015),
// stopped after the file.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { appEntryPath, startServingProgram, type ServingProgram } from '@regatta/local-cluster';

export type { ServingProgram } from '@regatta/local-cluster';

/** Where the programs' logs go: `$TMPDIR/regatta-test-logs/<name>.log`. */
export const PROGRAM_LOGS = join(tmpdir(), 'regatta-test-logs');

export interface ScenarioPrograms {
  /**
   * Starts `apps/<app>/src/main.ts` as `name` with `env`, its servers on port 0 (webhooks too with `webhook`),
   * and waits for its `/readyz`. Stopped after the file.
   */
  start(
    app: string,
    name: string,
    env: NodeJS.ProcessEnv,
    options?: { webhook?: boolean; probe?: '/readyz' | '/healthz' },
  ): Promise<ServingProgram>;
}

/** The log a program wrote so far ('' when there is none). */
export function programLog(program: ServingProgram | undefined): string {
  try {
    return program ? readFileSync(program.logFile, 'utf8') : '';
  } catch {
    return '';
  }
}

/** Registers an afterAll that stops, newest first, every program started through the returned helper. */
export function useScenarioPrograms(): ScenarioPrograms {
  const started: ServingProgram[] = [];
  afterAll(async () => {
    for (const p of started.splice(0).reverse()) await p.process.stop().catch(() => undefined);
  });
  return {
    async start(app, name, env, options = {}) {
      mkdirSync(PROGRAM_LOGS, { recursive: true });
      const program = await startServingProgram({
        name,
        entry: appEntryPath(app),
        logFile: join(PROGRAM_LOGS, `${name}.log`),
        env,
        ...options,
      });
      started.push(program);
      return program;
    },
  };
}
