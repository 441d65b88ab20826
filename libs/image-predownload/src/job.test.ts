import { describe, expect, it } from 'vitest';
import type { ControllerRevision } from '@regatta/revision';
import { preDownloadJob } from './job.js';

const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { namespace: 'ns', name: 'demo', uid: 'cs-uid' },
};
const rev: ControllerRevision = {
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { namespace: 'ns', name: 'demo-5d9f', labels: { 'controller.kubernetes.io/hash': '5d9f' } },
  revision: 2,
};

describe('preDownloadJob (CreateJobForWorkload)', () => {
  it('builds the job OpenKruise creates for one container', () => {
    const job = preDownloadJob({
      owner,
      ownerKind: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
      selector: { matchLabels: { app: 'demo' } },
      template: {
        metadata: { labels: { app: 'demo' }, annotations: { note: 'x' } },
        spec: { containers: [{ name: 'main', image: 'nginx:2' }], imagePullSecrets: [{ name: 'regcred' }] },
      },
      updateRevision: rev,
      container: 'main',
      image: 'nginx:2',
      settings: { parallelism: 5, timeoutSeconds: 300 },
    });
    expect(job).toEqual({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImagePullJob',
      metadata: {
        namespace: 'ns',
        name: 'demo-5d9f-main',
        labels: { app: 'demo', 'controller.kubernetes.io/hash': '5d9f' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            name: 'demo',
            uid: 'cs-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        image: 'nginx:2',
        pullSecrets: ['regcred'],
        podSelector: {
          matchLabels: { app: 'demo' },
          matchExpressions: [
            { key: 'controller-revision-hash', operator: 'NotIn', values: ['demo-5d9f', '5d9f'] },
          ],
        },
        parallelism: 5,
        pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 },
        completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
        sandboxConfig: { labels: { app: 'demo', 'controller.kubernetes.io/hash': '5d9f' }, annotations: { note: 'x' } },
      },
    });
  });

  it('keeps the selector’s expressions and adds none of the secrets when the template has none', () => {
    const job = preDownloadJob({
      owner,
      ownerKind: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
      selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a'] }] },
      template: { spec: { containers: [] } },
      updateRevision: rev,
      container: 'side',
      image: 'busybox:1',
      settings: { parallelism: 1, timeoutSeconds: 60 },
    });
    expect(job.spec.pullSecrets).toBeUndefined();
    expect(job.spec.podSelector).toEqual({
      matchExpressions: [
        { key: 'app', operator: 'In', values: ['a'] },
        { key: 'controller-revision-hash', operator: 'NotIn', values: ['demo-5d9f', '5d9f'] },
      ],
    });
    expect(job.metadata?.name).toBe('demo-5d9f-side');
    expect(job.metadata?.labels).toEqual({ 'controller.kubernetes.io/hash': '5d9f' });
    expect(job.metadata?.ownerReferences?.[0]?.kind).toBe('StatefulSet');
  });
});
