// Image pre-download (docs/ads.md "Image pre-download"): with PreDownloadImageForDaemonSetUpdate on, a rollout held
// by a partition gets the ImagePullJob OpenKruise creates for its new image, controlled by the DaemonSet; once
// every node runs the new hash the job is deleted. (The job itself is run by the imagepull program: see
// apps/cloneset/src/cloneset-predownload.int.test.ts for the whole chain.)
import { describe, expect, it } from 'vitest';
import { IMAGE_PULL_JOB_API_VERSION, type ImagePullJob } from '@regatta/api';
import { nginxDaemonSet, useDaemonSetScenarios } from './testing/scenario-harness.js';

const h = useDaemonSetScenarios({ env: { REGATTA_FEATURE_GATES: 'PreDownloadImageForDaemonSetUpdate=true' } });
const { namespace, settled, events } = h;

const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: 'ImagePullJob' } as const;
const liveJobs = async (ns: string) =>
  (await h.client.list<ImagePullJob>({ ...JOB, namespace: ns })).items.filter((j) => !j.metadata?.deletionTimestamp);

describe('Advanced DaemonSet image pre-download (PreDownloadImageForDaemonSetUpdate)', () => {
  it('a rollout held by a partition creates the ImagePullJob of its new image; the job goes once every node is updated', async () => {
    const ns = await namespace();
    const created = await h.create(
      nginxDaemonSet(ns, 'predl', (ds) => {
        ds.spec['updateStrategy'] = {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 },
        };
      }),
    );
    await settled(ns, 'predl', h.nodes.length);
    // created without a partition: its first revision had nothing to pull ahead of (one batch over no node yet)
    expect(await liveJobs(ns)).toEqual([]);
    // every node held at the old revision
    await h.patch(ns, 'predl', { spec: { updateStrategy: { rollingUpdate: { partition: 1000 } } } });

    await h.setImage(ns, 'predl', 'nginx:1.29.0');
    await expect.poll(async () => (await liveJobs(ns)).length, { timeout: 60_000, interval: 500 }).toBe(1);
    const job = (await liveJobs(ns))[0]!;
    expect(job.metadata?.name).toMatch(/^predl-[a-z0-9]+-nginx$/);
    expect(job.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'DaemonSet', name: 'predl', uid: created.metadata!.uid, controller: true }),
    ]);
    expect(job.spec).toMatchObject({
      image: 'nginx:1.29.0',
      parallelism: 1,
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
    });
    await expect
      .poll(async () => (await events(ns, 'CreatedImagePullJob')).map((e) => e.message), { timeout: 30_000, interval: 500 })
      .toEqual([`created ImagePullJob ${job.metadata!.name} for image: nginx:1.29.0`]);

    await h.patch(ns, 'predl', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await settled(ns, 'predl', h.nodes.length, 120_000);
    await expect.poll(async () => (await liveJobs(ns)).length, { timeout: 60_000, interval: 500 }).toBe(0);
  });
});
