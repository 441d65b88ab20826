// `regatta status bcj/NAME` as a user runs it (docs/rollout-cli.md "Jobs"): the CLI, a child process with the
// file's kubeconfig, follows a BroadcastJob with --watch to its end — exit 0 and the counts when it completes, exit 1
// and the reason when it fails — and without --watch prints it once (-o json: the state as data).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jobFor, useBroadcastJobScenarios } from './testing/harness.js';

const h = useBroadcastJobScenarios();
/** The `regatta` command (apps/sandbox/bin), run from source as a user runs it. */
const REGATTA = fileURLToPath(new URL('../../sandbox/bin/regatta.mjs', import.meta.url));

const regatta = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [REGATTA, ...args, '--kubeconfig', h.layer.kubeconfig],
      { timeout: 240_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });

describe('regatta status of a BroadcastJob', () => {
  it('--watch follows a job to completion (exit 0) and to failure (exit 1, with the reason)', async () => {
    const ns = await h.namespace();
    await h.addNode('cli');
    await h.addNode('cli');
    await h.create(jobFor(ns, 'ok', 'cli', 'sleep 2', { parallelism: 1 }));
    await h.create(
      jobFor(ns, 'bad', 'cli', 'sleep 1; exit 1', { parallelism: 1, failurePolicy: { type: 'FailFast' } }),
    );

    const [ok, bad] = await Promise.all([
      regatta('status', 'bcj/ok', '-n', ns, '--watch', '--interval', '500ms', '--timeout', '2m'),
      regatta('status', 'broadcastjob/bad', '-n', ns, '--watch', '--interval', '500ms', '--timeout', '2m'),
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`BroadcastJob "ok" in namespace "${ns}": completed`);
    expect(ok.stdout).toContain('completed: 2 of 2 pods succeeded, 0 active, 0 failed');
    expect(ok.stdout).toMatch(/took \d+s/);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`BroadcastJob "bad" in namespace "${ns}": failed`);
    expect(bad.stdout).toMatch(/failed: 0 of 2 pods succeeded, \d active, 1 failed/);

    // once, as data
    const once = await regatta('status', 'bcj/ok', '-n', ns, '-o', 'json');
    expect(once.code).toBe(0);
    expect(JSON.parse(once.stdout)).toMatchObject({
      kind: 'BroadcastJob',
      name: 'ok',
      namespace: ns,
      phase: 'completed',
      done: true,
      failed: false,
    });

    // a job that is not there: exit 1 and a message that names it
    const missing = await regatta('status', 'bcj/nope', '-n', ns);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`BroadcastJob "nope" not found in namespace "${ns}"`);
  }, 400_000);
});
