// The simulated runtime running what a container spec says: commands that exit, busybox's own command, postStart
// and preStop hooks with their delays, image tags that share one imageID (container-command.ts, image-catalogue.ts).
import { describe, expect, it } from 'vitest';
import { rfc3339 } from './pod-status.js';
import { nextDeadline } from './runtime.js';
import { cs, pod, PodSim, T0 } from './test-support.js';

describe('what the container spec says it runs', () => {
  it('busybox without a command exits at once and crash-loops (Completed, then CrashLoopBackOff)', () => {
    const s = new PodSim(pod({ containers: [{ name: 'b', image: 'busybox' }] }));
    s.at(0);
    const st = s.at(1000);
    expect(cs(st, 'b')?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(cs(st, 'b')?.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cs(st, 'b')?.ready).toBe(false);
    expect(cs(s.at(2000), 'b')?.restartCount).toBe(1);
    expect(cs(s.at(4000), 'b')?.restartCount).toBe(2);
    expect(s.events('BackOff').length).toBeGreaterThanOrEqual(2);
  });

  it('a command that sleeps exits when the sleep ends, then restarts under restartPolicy Always', () => {
    const s = new PodSim(pod({ containers: [{ name: 'b', image: 'busybox', command: ['sleep', '2'] }] }));
    s.at(0);
    expect(cs(s.at(2900), 'b')?.state?.running).toBeDefined();
    const st = s.at(3100);
    expect(cs(st, 'b')?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(cs(st, 'b')?.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(s.rt && nextDeadline(s.rt, T0 + 3100)).toBe(T0 + 4000);
  });

  it('a postStart hook that sleeps delays started and ready; Started is reported at the start', () => {
    const s = new PodSim(
      pod({
        containers: [
          {
            name: 'app',
            image: 'redis',
            lifecycle: { postStart: { exec: { command: ['sleep', '10'] } } },
          },
        ],
      }),
    );
    s.at(0);
    const hooked = s.at(1000);
    expect(cs(hooked, 'app')).toMatchObject({ started: false, ready: false });
    expect(cs(hooked, 'app')?.state?.running?.startedAt).toBe(rfc3339(T0 + 1000));
    expect(s.events('Started')).toHaveLength(1);
    expect(s.rt && nextDeadline(s.rt, T0 + 1000)).toBe(T0 + 11_000);
    expect(cs(s.at(10_900), 'app')?.ready).toBe(false);
    expect(cs(s.at(11_000), 'app')).toMatchObject({ started: true, ready: true });
  });

  it('the postStart hook runs again for a restarted container (in-place image change)', () => {
    const s = new PodSim(
      pod({
        containers: [
          { name: 'app', image: 'redis:7', lifecycle: { postStart: { exec: { command: ['sleep', '10'] } } } },
        ],
      }),
    );
    s.images.add('docker.io/library/redis:8');
    s.at(0);
    s.at(11_000);
    s.setImage('app', 'redis:8');
    const restarted = s.at(12_000);
    expect(cs(restarted, 'app')).toMatchObject({ restartCount: 1, started: false, ready: false });
    // ready after the hook (10 s) and containerRestartMs
    expect(cs(s.at(22_400), 'app')?.ready).toBe(false);
    expect(cs(s.at(22_500), 'app')).toMatchObject({ started: true, ready: true });
  });

  it('a preStop hook delays the stop on deletion, within the grace period', () => {
    const make = (grace: number) => {
      const s = new PodSim(
        pod({
          terminationGracePeriodSeconds: grace,
          containers: [{ name: 'app', image: 'nginx', lifecycle: { preStop: { sleep: { seconds: 5 } } } }],
        }),
      );
      s.at(0);
      s.at(1000);
      s.pod = {
        ...s.pod,
        metadata: {
          ...s.pod.metadata,
          deletionTimestamp: rfc3339(T0 + 2000),
          deletionGracePeriodSeconds: grace,
        },
      };
      s.at(2000);
      return s;
    };
    const s = make(30);
    expect(cs(s.at(7100), 'app')?.state?.running).toBeDefined(); // 5 s hook + podStopMs (200 ms)
    expect(cs(s.at(7200), 'app')?.state?.terminated).toMatchObject({ exitCode: 0 });
    // the hook is cut at the grace period (3 s); SIGTERM still comes, with kubelet's 2 s minimum window: nginx exits
    const short = make(3);
    expect(cs(short.at(5100), 'app')?.state?.running).toBeDefined();
    expect(cs(short.at(5200), 'app')?.state?.terminated).toMatchObject({ exitCode: 0 });
  });

  it('a preStop hook runs before an in-place restart: the old container stops after it', () => {
    const s = new PodSim(
      pod({
        containers: [{ name: 'app', image: 'nginx:1.25', lifecycle: { preStop: { sleep: { seconds: 3 } } } }],
      }),
    );
    s.images.add('docker.io/library/nginx:1.26');
    s.at(0);
    s.at(1000);
    s.setImage('app', 'nginx:1.26');
    const stopping = s.at(2000);
    expect(cs(stopping, 'app')).toMatchObject({ restartCount: 0, image: 'nginx:1.25' });
    expect(cs(stopping, 'app')?.state?.running).toBeDefined();
    const st = s.at(5000);
    expect(cs(st, 'app')).toMatchObject({ restartCount: 1, image: 'nginx:1.26' });
    expect(cs(st, 'app')?.lastState?.terminated?.finishedAt).toBe(rfc3339(T0 + 5000));
  });

  it('tags of one image keep the imageID across an in-place change; the container ID changes', () => {
    const s = new PodSim(pod({ containers: [{ name: 'app', image: 'nginx:alpine' }] }));
    s.images.add('docker.io/library/nginx:mainline-alpine');
    s.at(0);
    const before = cs(s.at(1000), 'app');
    s.setImage('app', 'nginx:mainline-alpine');
    const after = cs(s.at(2000), 'app');
    expect(after).toMatchObject({ image: 'nginx:mainline-alpine', restartCount: 1 });
    expect(after?.imageID).toBe(before?.imageID);
    expect(after?.containerID).not.toBe(before?.containerID);
  });
});
