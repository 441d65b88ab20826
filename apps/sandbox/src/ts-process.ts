/**
 * The command line that runs a TypeScript entry point of this workspace with the current Node:
 * tsx as the loader, workspace libraries resolved to their sources.
 */
export function tsEntryCommand(entry: string, args: string[]): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), entry, ...args],
  };
}
