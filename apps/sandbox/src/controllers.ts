import { existsSync } from 'node:fs';
import { appEntryPath, BUS_CONTROLLERS } from '@regatta/local-cluster';

/** Every controller program Regatta has a name for, in the order the sandbox starts them. */
export const CONTROLLER_NAMES = BUS_CONTROLLERS;
export type ControllerName = (typeof CONTROLLER_NAMES)[number];

/** The entry point of an app in this workspace, or undefined when that app is not part of this build. */
export function appEntry(app: string): string | undefined {
  const entry = appEntryPath(app);
  return existsSync(entry) ? entry : undefined;
}

export class UsageError extends Error {
  readonly code = 'REGATTA_USAGE';
}

/**
 * Resolves `--controllers`: `all` (every controller this build has), `none` (the cluster only), or a
 * comma list of names. The watcher is added whenever at least one controller runs.
 */
export function resolveControllers(value: string): { controllers: ControllerName[]; watcher: boolean } {
  const v = value.trim();
  if (v === 'none') return { controllers: [], watcher: false };
  if (v === 'all') {
    const controllers = CONTROLLER_NAMES.filter((c) => appEntry(c) !== undefined);
    return { controllers, watcher: controllers.length > 0 || appEntry('watcher') !== undefined };
  }
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UsageError(
      `--controllers needs 'all', 'none' or a comma list of: ${CONTROLLER_NAMES.join(', ')}`,
    );
  const controllers: ControllerName[] = [];
  for (const n of names) {
    if (!(CONTROLLER_NAMES as readonly string[]).includes(n)) {
      throw new UsageError(
        `unknown controller '${n}' in --controllers; known: ${CONTROLLER_NAMES.join(', ')}`,
      );
    }
    if (appEntry(n) === undefined) throw new UsageError(`controller '${n}' is not part of this build yet`);
    if (!controllers.includes(n as ControllerName)) controllers.push(n as ControllerName);
  }
  return { controllers, watcher: true };
}
