// kubectl from the binary cache against a scenario's cluster, as a user runs it: its exit code and both streams.
import { spawn } from 'node:child_process';
import { locateBinaries } from '@regatta/local-cluster';

export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `kubectl --kubeconfig <kubeconfig> <args>` with `input` on its stdin (none: an empty stdin). */
export function runKubectl(kubeconfig: string, args: readonly string[], input?: string): Promise<KubectlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(locateBinaries().kubectl, ['--kubeconfig', kubeconfig, ...args], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
