import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { KubeClient } from './client.js';
import type { CoreEvent } from './event-types.js';
import { EventRecorder } from './events.js';

describe('EventRecorder', () => {
  it(
    'two recorders naming an event about the same object alike (same millisecond) both write theirs',
    // the three image-pull agents fail one job's pull together; before, the second create met AlreadyExists and
    // that node's PullImageFailed event on the job was lost (imagepull-jobs.int.test.ts in CI, 2026-12-05)
    { timeout: 60_000 },
    async () => {
      const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
      const ns = `ev-${randomBytes(3).toString('hex')}`;
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const job = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'job', namespace: ns } };
      const at = new Date('2026-12-05T10:00:00.123Z');
      const errors: unknown[] = [];
      const recorders = ['node-a', 'node-b'].map(
        (host) =>
          new EventRecorder(client, {
            component: 'agent',
            host,
            now: () => at,
            correlator: { nameOffset: 0 },
            onError: (e) => errors.push(e),
          }),
      );
      for (const r of recorders) await r.warning(job, 'PullImageFailed', 'Image nginx:broken failed');
      const events = (await client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items;
      expect(errors).toEqual([]);
      expect(events.map((e) => e.source.host).sort()).toEqual(['node-a', 'node-b']);
      // the renamed one is still patched on its next occurrence
      await recorders[1]!.warning(job, 'PullImageFailed', 'Image nginx:broken failed');
      const again = (await client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items;
      expect(again.map((e) => `${e.source.host}:${e.count}`).sort()).toEqual(['node-a:1', 'node-b:2']);
      await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    },
  );

  it(
    'one object writes 25 Normal events at once, then is held back (client-go spam filter); Warnings have their own 25',
    { timeout: 60_000 },
    async () => {
      const client = KubeClient.fromKubeconfigFile(inject('cluster').kubeconfig);
      const ns = `ev-${randomBytes(3).toString('hex')}`;
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const cs = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: ns, uid: 'u1' } };
      const errors: unknown[] = [];
      const recorder = new EventRecorder(client, {
        component: 'cloneset-controller',
        onError: (e) => errors.push(e),
      });
      // distinct reasons, so nothing is combined as similar: 30 Events asked for
      for (let i = 0; i < 30; i++) void recorder.normal(cs, `Step${i}`, `step ${i}`);
      void recorder.warning(cs, 'FailedStep', 'step failed');
      await recorder.flush();
      const events = (await client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items;
      expect(errors).toEqual([]);
      expect(
        events
          .filter((e) => e.type === 'Normal')
          .map((e) => e.reason)
          .sort(),
      ).toEqual(Array.from({ length: 25 }, (_, i) => `Step${i}`).sort());
      expect(events.filter((e) => e.type === 'Warning').map((e) => e.reason)).toEqual(['FailedStep']);
      await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    },
  );
});
