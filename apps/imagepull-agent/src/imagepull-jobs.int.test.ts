// Image pre-warming end to end: the imagepull program (ImagePullJob and NodeImage controllers, webhooks) and one
// agent per simulated node. A user creates ImagePullJobs and reads their status and events.
import { describe, expect, it } from 'vitest';
import { IMAGE_PULL_JOB_API_VERSION, ImagePullJobMessages } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { createNamespace, traceSpans } from '@regatta/testing';
import { IMAGEPULL_SCOPE_LABEL, useImagePullController } from './testing/private-nodes.js';

interface Job extends KubeObject {
  status?: {
    desired: number;
    active?: number;
    succeeded?: number;
    failed?: number;
    failedNodes?: string[];
    completionTime?: string;
    message?: string;
  };
}
interface CoreEvent extends KubeObject {
  reason: string;
  message: string;
  type: string;
  source?: { component?: string; host?: string };
  involvedObject: { kind: string; name: string; namespace?: string };
}

const scopeLabel = IMAGEPULL_SCOPE_LABEL;
const t = useImagePullController({ short: 'ipj', nodes: 3, imagePullMs: 1000 });

const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: 'ImagePullJob' };

async function createJob(
  ns: string,
  name: string,
  image: string,
  spec: Record<string, unknown> = {},
): Promise<void> {
  await t.client.create({
    ...JOB,
    metadata: { namespace: ns, name },
    spec: {
      image,
      selector: { names: t.nodes() },
      parallelism: 2,
      completionPolicy: { type: 'Always' },
      ...spec,
    },
  });
}

const jobStatus = async (ns: string, name: string) =>
  (await t.client.get<Job>({ ...JOB, namespace: ns, name })).status;

describe('ImagePullJob over agents pulling through CRI', () => {
  it('a job over three nodes completes: succeeded 3, NodeImages and nodes hold the image', async () => {
    const ns = await createNamespace(t.client, 'ipj', { [scopeLabel]: t.id });
    await createJob(ns, 'warm', 'nginx:1.25');
    await expect
      .poll(() => jobStatus(ns, 'warm'), { timeout: 120_000, interval: 1000 })
      .toMatchObject({
        desired: 3,
        succeeded: 3,
        failed: 0,
        completionTime: expect.any(String),
        message: ImagePullJobMessages.Completed,
      });
    // a span per node's pull, in the job's trace (its uid is the trace id; docs/adr/0041)
    const uid = (await t.client.get({ ...JOB, namespace: ns, name: 'warm' })).metadata?.uid ?? '';
    await expect
      .poll(
        async () =>
          (await traceSpans(t.jaegerQuery, uid.replace(/-/g, '')))
            .filter((sp) => sp.operationName === 'pull image' && sp.tags['regatta.phase'] === 'Succeeded')
            .map((sp) => sp.tags['k8s.node.name'])
            .sort(),
        { timeout: 60_000, interval: 1000 },
      )
      .toEqual([...t.nodes()].sort());
    // under the job's root span (docs/adr/0046): `imagepulljob` of regatta-imagepull, creation → completionTime, with
    // the span id the uid gives; every pull span is its child
    const traceId = uid.replace(/-/g, '');
    await expect
      .poll(
        async () =>
          (await traceSpans(t.jaegerQuery, traceId)).filter((sp) => sp.operationName === 'imagepulljob'),
        {
          timeout: 60_000,
          interval: 1000,
        },
      )
      .toEqual([
        expect.objectContaining({
          spanId: traceId.slice(16),
          parentSpanIds: [],
          service: 'regatta-imagepull',
          tags: expect.objectContaining({
            'regatta.outcome': 'completed',
            'regatta.succeeded': 3,
            'regatta.imagepulljob': 'warm',
          }),
        }),
      ]);
    const pulls = (await traceSpans(t.jaegerQuery, traceId)).filter(
      (sp) => sp.operationName === 'pull image',
    );
    expect(pulls.map((sp) => sp.parentSpanIds)).toEqual(pulls.map(() => [traceId.slice(16)]));
    expect(new Set(pulls.map((sp) => sp.service))).toEqual(new Set(['regatta-imagepull-agent']));
    for (const node of t.nodes()) {
      const ni = await t.client.get<
        KubeObject & {
          status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> };
        }
      >({
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'NodeImage',
        name: node,
      });
      expect(ni.status?.imageStatuses?.['nginx']?.tags).toContainEqual(
        expect.objectContaining({ tag: '1.25', phase: 'Succeeded' }),
      );
      const n = await t.client.get<KubeObject & { status?: { images?: { names: string[] }[] } }>({
        apiVersion: 'v1',
        kind: 'Node',
        name: node,
      });
      expect(n.status?.images?.flatMap((i) => i.names)).toContain('docker.io/library/nginx:1.25');
    }
  });

  it('a job with a pull secret completes: the agents read the copy in kruise-daemon-config, where alone they may', async () => {
    const ns = await createNamespace(t.client, 'ipj', { [scopeLabel]: t.id });
    const auth = Buffer.from('user:password').toString('base64');
    await t.client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: ns, name: 'regcred' },
      type: 'kubernetes.io/dockerconfigjson',
      data: {
        '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { 'docker.io': { auth } } })).toString(
          'base64',
        ),
      },
    });
    await createJob(ns, 'private', 'nginx:1.27-private', { pullSecrets: ['regcred'], parallelism: 3 });
    await expect
      .poll(() => jobStatus(ns, 'private'), { timeout: 120_000, interval: 1000 })
      .toMatchObject({
        desired: 3,
        succeeded: 3,
        failed: 0,
      });
    // each NodeImage names the copy, never the job's own Secret (the agents' ServiceAccount gets Secrets nowhere else)
    const ni = await t.client.get<
      KubeObject & { spec?: { images?: Record<string, { pullSecrets?: { namespace?: string }[] }> } }
    >({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'NodeImage',
      name: t.nodes()[0]!,
    });
    expect(ni.spec?.images?.['nginx']?.pullSecrets?.map((r) => r.namespace)).toEqual([
      'kruise-daemon-config',
    ]);
  });

  it('a job whose image cannot be pulled ends with every node failed and PullImageFailed events on the job', async () => {
    t.sim.setFaults({ failPullImages: ['nginx:broken*'] });
    const ns = await createNamespace(t.client, 'ipj', { [scopeLabel]: t.id });
    await createJob(ns, 'broken', 'nginx:broken-2', {
      pullPolicy: { backoffLimit: 1, timeoutSeconds: 30 },
      parallelism: 3,
    });
    await expect
      .poll(() => jobStatus(ns, 'broken'), { timeout: 120_000, interval: 1000 })
      .toMatchObject({
        desired: 3,
        succeeded: 0,
        failed: 3,
        failedNodes: [...t.nodes()].sort(),
        completionTime: expect.any(String),
      });
    await expect
      .poll(
        async () =>
          (await t.client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items.filter(
            (e) =>
              e.involvedObject.name === 'broken' &&
              e.reason === 'PullImageFailed' &&
              e.source?.component === 'kruise-daemon-imagepuller',
          ).length,
        { timeout: 20_000 },
      )
      .toBe(3);
  });
});

describe('a node that joins after the start', () => {
  it('gets its NodeImage and an agent (tainted, as the DaemonSet gives it one); a job selecting it completes on it', async () => {
    const node = await t.addNode('late');
    // the NodeImage controller creates the joining node's NodeImage (creation delay 1 s in this file)
    await expect
      .poll(
        () =>
          t.client.get({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node }).then(
            () => true,
            () => false,
          ),
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    const ns = await createNamespace(t.client, 'ipj', { [scopeLabel]: t.id });
    await createJob(ns, 'late', 'nginx:1.26-late', { selector: { names: [node] } });
    await expect
      .poll(() => jobStatus(ns, 'late'), { timeout: 120_000, interval: 1000 })
      .toMatchObject({
        desired: 1,
        succeeded: 1,
        failed: 0,
        completionTime: expect.any(String),
      });
    await expect
      .poll(
        async () =>
          (
            await t.client.get<KubeObject & { status?: { images?: { names: string[] }[] } }>({
              apiVersion: 'v1',
              kind: 'Node',
              name: node,
            })
          ).status?.images?.flatMap((i) => i.names) ?? [],
        { timeout: 20_000 },
      )
      .toContain('docker.io/library/nginx:1.26-late');
  });
});
