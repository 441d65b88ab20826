// How the simulated kubelet stops a container (termination.ts): the preStop hook, then SIGTERM, then SIGKILL at the
// end of the grace period for a process that ignores SIGTERM (container-command.ts), on deletion and on an in-place
// image change.
import { describe, expect, it } from 'vitest';
import { rfc3339 } from './pod-status.js';
import { deletionGraceMs, restartGraceMs, stopOf } from './termination.js';
import { cs, pod, PodSim, T0 } from './test-support.js';

describe('stopOf', () => {
  const base = { preStopMs: 0, exitMs: 200 };
  it.each([
    // a process that exits on SIGTERM stops after its exit time
    [
      { ...base, graceMs: 30_000, exitsOnSigterm: true },
      { afterMs: 200, exitCode: 0 },
    ],
    // one that ignores it runs the whole grace period, then SIGKILL
    [
      { ...base, graceMs: 30_000, exitsOnSigterm: false },
      { afterMs: 30_000, exitCode: 137 },
    ],
    [
      { ...base, graceMs: 3000, exitsOnSigterm: false },
      { afterMs: 3000, exitCode: 137 },
    ],
    // kubelet's minimum window between SIGTERM and SIGKILL: 2 s
    [
      { ...base, graceMs: 0, exitsOnSigterm: false },
      { afterMs: 2000, exitCode: 137 },
    ],
    [
      { ...base, graceMs: 1000, exitsOnSigterm: false },
      { afterMs: 2000, exitCode: 137 },
    ],
    // the preStop hook runs first and uses up the grace period; the window is never under 2 s
    [
      { ...base, graceMs: 30_000, preStopMs: 5000, exitsOnSigterm: false },
      { afterMs: 30_000, exitCode: 137 },
    ],
    [
      { ...base, graceMs: 30_000, preStopMs: 5000, exitsOnSigterm: true },
      { afterMs: 5200, exitCode: 0 },
    ],
    [
      { ...base, graceMs: 3000, preStopMs: 5000, exitsOnSigterm: false },
      { afterMs: 5000, exitCode: 137 },
    ],
    [
      { ...base, graceMs: 3000, preStopMs: 5000, exitsOnSigterm: true },
      { afterMs: 3200, exitCode: 0 },
    ],
    // a process slower to exit than the window is killed
    [
      { ...base, graceMs: 1000, exitMs: 2500, exitsOnSigterm: true },
      { afterMs: 2000, exitCode: 137 },
    ],
    // a process that ends by itself before it is stopped keeps its own exit code
    [
      { ...base, graceMs: 30_000, exitsOnSigterm: false, endsInMs: 4000 },
      { afterMs: 4000, exitCode: undefined },
    ],
    [
      { ...base, graceMs: 30_000, exitsOnSigterm: false, endsInMs: null },
      { afterMs: 30_000, exitCode: 137 },
    ],
  ])('%j → %j', (input, stop) => expect(stopOf(input)).toEqual(stop));

  it.each([
    [undefined, undefined, 30_000],
    [undefined, 5, 5000],
    [2, 5, 2000],
    // kubelet's pod workers: at least 1 s
    [0, 5, 1000],
  ])('deletion grace (deletion %s, spec %s) → %s ms', (d, sp, ms) => expect(deletionGraceMs(d, sp)).toBe(ms));

  it.each([
    [undefined, 30_000],
    [3, 3000],
    [0, 0],
  ])('restart grace (spec %s) → %s ms', (sp, ms) => expect(restartGraceMs(sp)).toBe(ms));
});

/** A running pod whose `sidecar` runs `command` (image busybox:1.36, busybox:1.37 on the node too). */
function running(command: string[], grace?: number) {
  const s = new PodSim(
    pod({
      ...(grace === undefined ? {} : { terminationGracePeriodSeconds: grace }),
      containers: [
        { name: 'app', image: 'nginx:1.25' },
        { name: 'sidecar', image: 'busybox:1.36', command },
      ],
    }),
  );
  s.images.add('docker.io/library/busybox:1.37');
  s.at(0);
  s.at(1000);
  return s;
}

describe('an in-place image change of a container that ignores SIGTERM', () => {
  it('keeps the old container running and ready until the grace period ends, then SIGKILL and the new image', () => {
    const s = running(['tail', '-f', '/dev/null']);
    s.setImage('sidecar', 'busybox:1.37');
    s.at(2000);
    expect(s.events('Killing')).toEqual(['Killing: Container sidecar definition changed, will be restarted']);
    const stopping = s.at(31_900);
    expect(cs(stopping, 'sidecar')).toMatchObject({ image: 'busybox:1.36', restartCount: 0, ready: true });
    expect(cs(stopping, 'sidecar')?.state?.running).toBeDefined();
    s.at(32_000);
    const st = s.at(32_500);
    expect(cs(st, 'sidecar')).toMatchObject({ image: 'busybox:1.37', restartCount: 1 });
    expect(cs(st, 'sidecar')?.lastState?.terminated).toMatchObject({
      exitCode: 137,
      reason: 'Error',
      finishedAt: rfc3339(T0 + 32_000),
    });
  });

  it("honours the pod's terminationGracePeriodSeconds, and never less than kubelet's 2 s window", () => {
    const three = running(['sleep', '999'], 3);
    three.setImage('sidecar', 'busybox:1.37');
    three.at(2000);
    expect(cs(three.at(4900), 'sidecar')).toMatchObject({ image: 'busybox:1.36', restartCount: 0 });
    three.at(5000);
    expect(cs(three.at(5000), 'sidecar')).toMatchObject({ image: 'busybox:1.37', restartCount: 1 });
    const zero = running(['sleep', 'infinity'], 0);
    zero.setImage('sidecar', 'busybox:1.37');
    zero.at(2000);
    expect(cs(zero.at(3900), 'sidecar')?.restartCount).toBe(0);
    zero.at(4000);
    expect(cs(zero.at(4000), 'sidecar')?.restartCount).toBe(1);
  });

  it('a shell that traps TERM while it waits stops at once', () => {
    const s = running(['sh', '-c', "trap 'exit 0' TERM; sleep infinity & wait"]);
    s.setImage('sidecar', 'busybox:1.37');
    s.at(2000);
    const st = s.at(2000);
    expect(cs(st, 'sidecar')).toMatchObject({ image: 'busybox:1.37', restartCount: 1 });
    expect(cs(st, 'sidecar')?.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});

describe('deleting a pod with a container that ignores SIGTERM', () => {
  it('the server stops after podStopMs, the sleeping sidecar at the end of the grace period (137)', () => {
    const s = running(['/bin/sh', '-c', 'sleep 10000000'], 5);
    s.pod = {
      ...s.pod,
      metadata: { ...s.pod.metadata, deletionTimestamp: rfc3339(T0 + 7000), deletionGracePeriodSeconds: 5 },
    };
    s.at(2000);
    const early = s.at(2200);
    expect(cs(early, 'app')?.state?.terminated).toMatchObject({ exitCode: 0 });
    expect(cs(early, 'sidecar')?.state?.running).toBeDefined();
    expect(s.rt?.terminal).toBe(false);
    const st = s.at(7000);
    expect(cs(st, 'sidecar')?.state?.terminated).toMatchObject({
      exitCode: 137,
      reason: 'Error',
      finishedAt: rfc3339(T0 + 7000),
    });
    expect(s.rt?.terminal).toBe(true);
  });
});
