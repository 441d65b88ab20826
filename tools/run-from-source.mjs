// Runs a tool's TypeScript entry from sources (no build) the way the sandbox runs programs: Node with the
// `@regatta/source` export condition and tsx as the loader, the arguments passed on. Ctrl-C reaches both processes
// (same process group); the tool stops what it started and exits, and its exit code is this process'.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `entry`: a URL relative to the caller (`new URL('./bench/main.ts', import.meta.url)`). */
export function runFromSource(entry) {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@regatta/source',
      '--import',
      import.meta.resolve('tsx'),
      fileURLToPath(entry),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}
