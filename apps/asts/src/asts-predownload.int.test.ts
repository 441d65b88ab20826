// Image pre-download (docs/asts.md "Image pre-download"): with PreDownloadImageForInPlaceUpdate on, an in-place
// rollout held by a partition gets the ImagePullJob OpenKruise creates for its new image, controlled by the set;
// once the rollout is over the job is deleted. (The job itself is run by the imagepull program: see
// apps/cloneset/src/cloneset-predownload.int.test.ts for the whole chain.)
import { describe, expect, it } from 'vitest';
import { IMAGE_PULL_JOB_API_VERSION, type ImagePullJob } from '@regatta/api';
import { demo, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios({ env: { REGATTA_FEATURE_GATES: 'PreDownloadImageForInPlaceUpdate=true' } });
const { namespace, settled, events } = h;

const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: 'ImagePullJob' } as const;
const liveJobs = async (ns: string) =>
  (await h.client.list<ImagePullJob>({ ...JOB, namespace: ns })).items.filter((j) => !j.metadata?.deletionTimestamp);

describe('Advanced StatefulSet image pre-download (PreDownloadImageForInPlaceUpdate)', () => {
  it('an in-place rollout held by a partition creates the ImagePullJob of its new image; the job goes when the rollout is over', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web', 'nginx:1.25');
    sts.metadata!.annotations = { 'apps.kruise.io/image-predownload-parallelism': '3' };
    sts.spec.replicas = 4;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1, partition: 2 },
    };
    sts.spec['template'] = {
      metadata: { labels: { app: 'web' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [{ name: 'nginx', image: 'nginx:1.25' }],
      },
    };
    const created = await h.create(sts);
    await settled(ns, 'web', 4);
    expect(await liveJobs(ns)).toEqual([]);

    await h.setImage(ns, 'web', 'nginx:1.27');
    const first = created.metadata!.generation;
    // the job is named after the update revision the status reports once it has seen the change
    let updateRevision = '';
    await expect
      .poll(
        async () => {
          const cur = await h.get(ns, 'web');
          updateRevision = cur.status?.updateRevision ?? '';
          const seen = (cur.status?.observedGeneration ?? 0) > (first ?? 0);
          const names = (await liveJobs(ns)).map((j) => j.metadata?.name);
          return seen && names.length === 1 && names[0] === `${updateRevision}-nginx`;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    const job = (await liveJobs(ns))[0]!;
    expect(job.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'StatefulSet', name: 'web', uid: created.metadata!.uid, controller: true }),
    ]);
    expect(job.spec).toMatchObject({
      image: 'nginx:1.27',
      parallelism: 3,
      pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      podSelector: {
        matchLabels: { app: 'web' },
        matchExpressions: [expect.objectContaining({ key: 'controller-revision-hash', operator: 'NotIn' })],
      },
    });
    await expect
      .poll(async () => (await events(ns, 'CreatedImagePullJob')).map((e) => e.message), { timeout: 30_000, interval: 500 })
      .toEqual([`created ImagePullJob ${updateRevision}-nginx for image: nginx:1.27`]);

    await h.patch(ns, 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await settled(ns, 'web', 4, 90_000);
    await expect.poll(async () => (await liveJobs(ns)).length, { timeout: 60_000, interval: 500 }).toBe(0);
  });
});
