// Image pre-warming through a bus outage: this file runs on a nats-server of its own (the run's bus is shared by
// every file), killed while the agents pull and started again on the same port and store. The job still completes
// with the right counts, and no node pulls the image a second time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_PULL_JOB_API_VERSION } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import {
  alive,
  freePorts,
  ManagedProcess,
  natsConfig,
  startNatsServer,
  waitFor,
} from '@regatta/local-cluster';
import { createNamespace } from '@regatta/testing';
import { IMAGEPULL_SCOPE_LABEL, useImagePullController } from './testing/private-nodes.js';

interface Job extends KubeObject {
  status?: { desired: number; succeeded?: number; failed?: number; completionTime?: string };
}
interface CoreEvent extends KubeObject {
  reason: string;
  message: string;
  count?: number;
  involvedObject: { kind: string; name: string };
}
interface NodeImage extends KubeObject {
  status?: { imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> };
}

let natsDir = '';
let ports: [number, number] = [0, 0];
let nats: ManagedProcess | undefined;

async function startNats(): Promise<void> {
  const [port, monitorPort] = ports;
  const config = natsConfig({ port, monitorPort, storeDir: join(natsDir, 'js') });
  nats = await startNatsServer({ dir: natsDir, config, monitorPort });
}

// registered before the layer's: the file's programs get this bus
beforeAll(async () => {
  natsDir = await mkdtemp(join(tmpdir(), 'regatta-ipj-nats-'));
  ports = (await freePorts(2)) as [number, number];
  await startNats();
});
afterAll(async () => {
  await nats?.stop();
  if (natsDir) await rm(natsDir, { recursive: true, force: true });
});

const scopeLabel = IMAGEPULL_SCOPE_LABEL;
const t = useImagePullController({
  short: 'ipn',
  nodes: 3,
  // long enough that the bus goes down and comes back while every node pulls
  imagePullMs: 15_000,
  env: () => ({ NATS_URL: `nats://127.0.0.1:${ports[0]}` }),
});

const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: 'ImagePullJob' };
const phaseOn = async (node: string, tag: string) =>
  (
    await t.client.get<NodeImage>({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node })
  ).status?.imageStatuses?.['nginx']?.tags.find((x) => x.tag === tag)?.phase;

describe('nats-server killed mid-pull', () => {
  it('the job completes with succeeded 3, failed 0, and each node pulled the image once', async () => {
    const ns = await createNamespace(t.client, 'ipn', { [scopeLabel]: t.id });
    const tag = `1.27-${t.id}`;
    await t.client.create({
      ...JOB,
      metadata: { namespace: ns, name: 'warm' },
      spec: {
        image: `nginx:${tag}`,
        selector: { names: t.nodes() },
        parallelism: 3,
        completionPolicy: { type: 'Always' },
      },
    });
    // every node pulling
    for (const node of t.nodes())
      await expect.poll(() => phaseOn(node, tag), { timeout: 60_000, interval: 250 }).toBe('Pulling');

    const pid = nats!.record.pid;
    nats!.killNow();
    await waitFor('nats-server to exit', () => !alive(pid), { timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 3000));
    await startNats();

    await expect
      .poll(async () => (await t.client.get<Job>({ ...JOB, namespace: ns, name: 'warm' })).status, {
        timeout: 180_000,
        interval: 1000,
      })
      .toMatchObject({ desired: 3, succeeded: 3, failed: 0, completionTime: expect.any(String) });
    for (const node of t.nodes()) expect(await phaseOn(node, tag)).toBe('Succeeded');
    // one PullImageSucceed per node: a second pull would report (and be recorded) again
    await expect
      .poll(
        async () => {
          const events = (
            await t.client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: 'default' })
          ).items;
          return t
            .nodes()
            .map((node) =>
              events
                .filter(
                  (e) =>
                    e.involvedObject.kind === 'NodeImage' &&
                    e.involvedObject.name === node &&
                    e.reason === 'PullImageSucceed' &&
                    e.message.includes(`nginx:${tag}`),
                )
                .reduce((n, e) => n + (e.count ?? 1), 0),
            );
        },
        { timeout: 20_000 },
      )
      .toEqual([1, 1, 1]);
  });
});
