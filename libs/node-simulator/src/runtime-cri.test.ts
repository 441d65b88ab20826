// A container stopped through CRI (StopContainer, as a node agent recreating it does): preStop first, the call's
// grace period, then the kubelet restarts it per restartPolicy; and how ListContainers shows the instances.
import { describe, expect, it } from 'vitest';
import { criContainerId, criContainersOfPod, matchesFilter } from './runtime-cri.js';
import { cs, pod, PodSim } from './test-support.js';

const preStop = (seconds: number) => ({ preStop: { sleep: { seconds } } });

describe('a container stopped through CRI', () => {
  it.each([
    // [grace period of the call (ms), preStop (s), still running at (ms after the stop), restarted by (ms)]
    { graceMs: 10_000, hook: 3, runningAt: 2900, restartedBy: 3600 },
    { graceMs: 2_000, hook: 30, runningAt: 1900, restartedBy: 2600 },
  ])('runs preStop first and honours the call’s grace period ($graceMs ms, preStop $hook s)', (c) => {
    const s = new PodSim(
      pod({
        containers: [{ name: 'app', image: 'nginx:1.25', lifecycle: preStop(c.hook) }],
        terminationGracePeriodSeconds: 30,
      }),
    );
    s.at(0);
    const before = cs(s.at(2000), 'app')!;
    expect(before.state?.running).toBeDefined();
    s.criStops.set('app', c.graceMs);
    s.at(3000);
    expect(cs(s.at(3000 + c.runningAt), 'app')).toMatchObject({
      containerID: before.containerID,
      restartCount: 0,
    });
    const after = cs(s.at(3000 + c.restartedBy), 'app')!;
    expect(after.restartCount).toBe(1);
    expect(after.containerID).not.toBe(before.containerID);
    expect(after.state?.running).toBeDefined();
    expect(after.lastState?.terminated?.containerID).toBe(before.containerID);
  });

  it('restartPolicy Never: the stopped container stays exited', () => {
    const s = new PodSim(pod({ restartPolicy: 'Never', containers: [{ name: 'app', image: 'nginx:1.25' }] }));
    s.at(0);
    s.at(2000);
    s.criStops.set('app', 0);
    s.at(2100);
    expect(cs(s.at(5000), 'app')).toMatchObject({ restartCount: 0 });
    expect(cs(s.at(5000), 'app')?.state?.terminated).toBeDefined();
  });

  it('only the named container is stopped; no Killing event is the kubelet’s', () => {
    const s = new PodSim(
      pod({
        containers: [
          { name: 'app', image: 'nginx:1.25' },
          { name: 'side', image: 'nginx:1.25' },
        ],
      }),
    );
    s.at(0);
    const side = cs(s.at(2000), 'side')!.containerID;
    s.criStops.set('app', 0);
    s.at(2100);
    const st = s.at(4000);
    expect(cs(st, 'app')?.restartCount).toBe(1);
    expect(cs(st, 'side')).toMatchObject({ restartCount: 0, containerID: side });
    expect(s.effects.filter((e) => e.kind === 'event' && e.reason === 'Killing')).toEqual([]);
  });
});

describe('ListContainers of a simulated pod', () => {
  it('lists the running instance and the exited one before it, with kubelet labels and attempts', () => {
    const s = new PodSim(pod({ containers: [{ name: 'app', image: 'nginx:1.25' }] }));
    s.at(0);
    const first = cs(s.at(2000), 'app')!.containerID!;
    s.criStops.set('app', 0);
    s.at(2100);
    const second = cs(s.at(4000), 'app')!.containerID!;
    const list = criContainersOfPod(s.pod as never, s.rt!);
    expect(list.map((c) => [c.id, c.state, c.metadata?.attempt])).toEqual([
      [criContainerId(first), 'CONTAINER_EXITED', 0],
      [criContainerId(second), 'CONTAINER_RUNNING', 1],
    ]);
    expect(list[1]!.labels).toEqual({
      'io.kubernetes.pod.name': 'p',
      'io.kubernetes.pod.namespace': 'ns',
      'io.kubernetes.pod.uid': 'uid-1',
      'io.kubernetes.container.name': 'app',
    });
    expect(list[1]!.startedAt).toBeGreaterThanOrEqual(list[0]!.finishedAt);
    expect(
      list.filter((c) =>
        matchesFilter(c, {
          labelSelector: { 'io.kubernetes.pod.uid': 'uid-1' },
          state: { state: 'CONTAINER_RUNNING' },
        }),
      ),
    ).toHaveLength(1);
    expect(list.filter((c) => matchesFilter(c, { podSandboxId: 'other' }))).toHaveLength(0);
    expect(criContainerId('containerd://abc')).toBe('abc');
  });
});
