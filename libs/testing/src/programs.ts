// Regatta programs started for one scenario file: on port 0 (the address they got is read back, docs/adr/0015),
// each on its own ServiceAccount with the chart's RBAC (libs/local-cluster program-identities.ts, docs/adr/0054), stopped after the file.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { appEntryPath, startServingProgram, type ServingProgram } from '@regatta/local-cluster';
import { leaseNamespaceOf, programKubeconfig } from '@regatta/local-cluster';

export type { ServingProgram } from '@regatta/local-cluster';

/** Where the programs' logs go: `$TMPDIR/regatta-test-logs/<name>.log`. */
export const PROGRAM_LOGS = join(tmpdir(), 'regatta-test-logs');

export interface StartOptions {
  /** Serves admission webhooks (on port 0). */
  webhook?: boolean;
  probe?: '/readyz' | '/healthz';
  /**
   * Runs the program with `env.KUBECONFIG` as given (the run's admin) instead of its own ServiceAccount. Only for a
   * test that needs a program with more rights than the chart gives it: say why in a comment where it is set.
   */
  admin?: boolean;
}

export interface ScenarioPrograms {
  /**
   * Starts `apps/<app>/src/main.ts` as `name` with `env`, its servers on port 0 (webhooks too with `webhook`),
   * and waits for its `/readyz`. Stopped after the file. `env.KUBECONFIG` is the run's admin kubeconfig: the program
   * gets one of its own ServiceAccount `regatta-<app>` instead (unless `admin`, or REGATTA_TEST_PROGRAMS_ADMIN=1).
   */
  start(app: string, name: string, env: NodeJS.ProcessEnv, options?: StartOptions): Promise<ServingProgram>;
  /** Stops, newest first, every program started so far (the afterAll does the same for any left). */
  stopAll(): Promise<void>;
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
  const stopAll = async () => {
    for (const p of started.splice(0).reverse()) await p.process.stop().catch(() => undefined);
  };
  afterAll(stopAll);
  return {
    stopAll,
    async start(app, name, env, { admin, ...options } = {}) {
      mkdirSync(PROGRAM_LOGS, { recursive: true });
      const adminKubeconfig = env['KUBECONFIG'];
      const own =
        adminKubeconfig && !admin
          ? {
              KUBECONFIG: await programKubeconfig({
                app,
                adminKubeconfig,
                leaseNamespace: leaseNamespaceOf(env),
              }),
            }
          : {};
      const program = await startServingProgram({
        name,
        entry: appEntryPath(app),
        logFile: join(PROGRAM_LOGS, `${name}.log`),
        env: { ...env, ...own },
        ...options,
      });
      started.push(program);
      return program;
    },
  };
}
