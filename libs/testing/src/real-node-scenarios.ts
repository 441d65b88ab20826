// What the real-node scenario files share (docs/real-nodes.md "Proof"): the file's real node with its controller's
// harness, skipped together (the reason in the describe's title) where a real node cannot run, and the in-place
// update proof — the pod's container answers over HTTP at its IP with the old image, an update restarts it in place,
// the new image answers and `kubectl get pod -o yaml` shows the same UID and IP, a new container ID, restartCount 1.
import { describe, expect } from 'vitest';
import { containerStatus, type ContainerStatus, type Pod } from './pods.js';
import { answerOf, expectRestartedInPlace, useRealNode, type RealNodeScenario } from './real-node.js';

export interface RealNodeScenarios<H> {
  readonly real: RealNodeScenario;
  /** The file's harness (throws where the file is skipped); call inside a test. */
  scenarios(): H;
  /** The file's `describe`: skipped, with the reason in its title, where a real node cannot run. */
  describeOnRealNode(title: string, body: () => void): void;
}

/**
 * One real node (useRealNode: `file` names the file in the skip line, `x` the node and its taint) and the harness
 * `harness()` registers, which is not started where the file is skipped.
 */
export function useRealNodeScenarios<H>(
  file: string,
  x: string | undefined,
  harness: () => H,
): RealNodeScenarios<H> {
  const real = useRealNode(file, x);
  const h = real.skipReason ? undefined : harness();
  return {
    real,
    scenarios() {
      if (!h) throw new Error(`not started${real.skipReason ? `: ${real.skipReason}` : ''}`);
      return h;
    },
    describeOnRealNode(title, body) {
      describe.skipIf(real.skipReason !== undefined)(
        `${title}${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
        body,
      );
    },
  };
}

export interface InPlaceUpdate {
  /** What the log line names (`ads in-place update`). */
  what: string;
  /** The real node's name, which the pod runs on. */
  node: string;
  /** Reads the pod. */
  read: () => Promise<Pod>;
  container: string;
  /** Its status (a native sidecar's is among the init containers' statuses). */
  statusOf?: (p: Pod, container: string) => ContainerStatus | undefined;
  /** Where it answers on the pod IP (80). */
  port?: number;
  /** The images before and after. */
  from: string;
  to: string;
  /** The update (an image patch of the workload). */
  update: () => Promise<unknown>;
  /** How long the new image may take to answer (60 s). */
  answerTimeoutMs?: number;
  /** Waits for the workload to settle once the new image answers. */
  settled?: () => Promise<unknown>;
}

export interface InPlaceUpdateProof {
  before: Pod;
  after: Pod;
  ip: string;
  /** ms from the update to the new image's first answer. */
  answeredMs: number;
}

/** The in-place update proof on a real node (see above); prints the time from the update to the new answer. */
export async function expectInPlaceUpdate(u: InPlaceUpdate): Promise<InPlaceUpdateProof> {
  const statusOf = u.statusOf ?? containerStatus;
  const before = await u.read();
  expect(before.spec?.nodeName).toBe(u.node);
  expect(statusOf(before, u.container)?.restartCount).toBe(0);
  const ip = before.status?.podIP ?? '';
  await expect.poll(() => answerOf(ip, u.port), { timeout: 15_000 }).toContain(u.from);

  const updated = Date.now();
  await u.update();
  await expect
    .poll(() => answerOf(ip, u.port), { timeout: u.answerTimeoutMs ?? 60_000, interval: 100 })
    .toContain(u.to);
  const answeredMs = Date.now() - updated;
  await u.settled?.();
  await expect
    .poll(async () => statusOf(await u.read(), u.container)?.restartCount, { timeout: 30_000 })
    .toBe(1);
  const after = await u.read();
  expectRestartedInPlace(before, after, u.container, u.to, statusOf);
  process.stderr.write(`[real node] ${u.what} answered with ${u.to} ${answeredMs} ms after the patch\n`);
  return { before, after, ip, answeredMs };
}

/** What the workload harnesses (CloneSet, Advanced StatefulSet, Advanced DaemonSet) offer the proof. */
export interface WorkloadScenarios {
  pods(ns: string): Promise<Pod[]>;
  setImage(ns: string, name: string, image: string): Promise<unknown>;
  settled(ns: string, name: string, replicas: number, timeoutMs?: number): Promise<unknown>;
}

/** The nginx stand-in's image update the workload files prove: container `nginx`, nginx:1.27 → nginx:1.28. */
export const NGINX_UPDATE = { container: 'nginx', from: 'nginx:1.27', to: 'nginx:1.28' } as const;

/**
 * expectInPlaceUpdate of the one pod of workload `name` in `ns`: the update sets its image to `to`, and the workload
 * settles (60 s) once the new image answers.
 */
export function expectWorkloadUpdatedInPlace(
  h: WorkloadScenarios,
  o: { what: string; node: string; ns: string; name: string; container: string; from: string; to: string },
): Promise<InPlaceUpdateProof> {
  const { ns, name, ...rest } = o;
  return expectInPlaceUpdate({
    ...rest,
    read: async () => (await h.pods(ns))[0] as Pod,
    update: () => h.setImage(ns, name, o.to),
    settled: () => h.settled(ns, name, 1, 60_000),
  });
}
