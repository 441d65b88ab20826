// Runs the CLI as a user does (a child process), for the CLI's scenario tests.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `regatta` script (apps/sandbox/bin), run from source. */
export const REGATTA = fileURLToPath(new URL('../../bin/regatta.mjs', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(file: string, args: string[], env: Record<string, string>, timeoutMs = 240_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env }, timeout: timeoutMs }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
