import { fileURLToPath } from 'node:url';
import { ManagedProcess } from './process.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The entry point of a workspace app (`apps/<app>/src/main.ts`). */
export function appEntryPath(app: string): string {
  return `${repoRoot}apps/${app}/src/main.ts`;
}

/**
 * The command line that runs a TypeScript entry point of this workspace with the current Node:
 * tsx as the loader, workspace libraries resolved to their sources.
 */
export function tsEntryCommand(entry: string, args: string[] = []): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), entry, ...args],
  };
}

/** Starts a workspace program (a Regatta app, or any TypeScript entry) as a managed process. */
export function startProgram(o: {
  name: string;
  entry: string;
  args?: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  keepAfterExit?: boolean;
}): ManagedProcess {
  const cmd = tsEntryCommand(o.entry, o.args);
  return ManagedProcess.start(
    {
      name: o.name,
      command: cmd.command,
      args: cmd.args,
      logFile: o.logFile,
      env: { ...process.env, ...o.env },
    },
    { keepAfterExit: o.keepAfterExit ?? false },
  );
}
