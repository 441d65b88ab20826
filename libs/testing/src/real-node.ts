// One real node (a kubelet with its own containerd and runc, docs/real-nodes.md) for a scenario file: started against
// the run's cluster before the file's tests, stopped after them with nothing left on the host, tainted
// `regatta-test-<x>` like every extra test node. Where the machine cannot run one the file is skipped and the reason
// printed (issue 42 item 7: never silently). Also what the real-node scenarios read from a pod: its answer over HTTP
// and the checks of an in-place restart (docs/real-nodes.md "Proof").
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import {
  missingNodeComponents,
  NODE_KIND_LABEL,
  RealNode,
  realNodeUnavailable,
} from '@regatta/local-cluster';
import { scenarioCluster } from './context.js';
import { randomId } from './namespaces.js';
import { containerStatus, type ContainerStatus, type Pod } from './pods.js';
import { testNodeTaint, testNodeToleration } from './test-nodes.js';

/** Why this machine cannot run a real node (host, or node binaries not built), in one line; undefined when it can. */
export function realNodeSkipReason(): string | undefined {
  const missing = missingNodeComponents();
  return (
    realNodeUnavailable() ??
    (missing.length > 0
      ? `${missing.join(', ')} not built (bash tools/controlplane/build.sh node)`
      : undefined)
  );
}

export interface RealNodeScenario {
  /** Set when the file is skipped; printed once as `[real node] <file> skipped: <reason>`. */
  readonly skipReason: string | undefined;
  /** The Node's name (`real-<x>-<id>`). */
  readonly name: string;
  /** The started node (throws before beforeAll ran or when skipped). */
  readonly node: RealNode;
  /** Pins a pod spec to this node: its hostname and node kind as nodeSelector, the node's taint tolerated. */
  pin<S extends Record<string, unknown>>(spec: S): S;
  /**
   * A folder on the host under the node's own (`<node>/volumes/<sub>`, made now, gone with the run's folder): a
   * hostPath for a pod's trace file, or a local PV's storage.
   */
  hostDir(sub: string): string;
  /**
   * A PersistentVolume on this node (hostPath under `hostDir('pv-<name>')`, node affinity to it, reclaim Retain) of
   * `storageClassName`, which a claim of that class binds to: the local storage a PVC on a real node needs (the
   * simulator's provisioner makes hostPath PVs outside the node's folder; docs/real-nodes.md "Volumes").
   */
  localVolume(name: string, storageClassName: string, capacity?: string): KubeObject;
}

/** Registers the file's beforeAll/afterAll for one real node; `file` names the file in the skip line. */
export function useRealNode(file: string, x = 'real'): RealNodeScenario {
  const skipReason = realNodeSkipReason();
  if (skipReason) process.stderr.write(`[real node] ${file} skipped: ${skipReason}\n`);
  const name = `real-${x}-${randomId()}`;
  let node: RealNode | undefined;
  if (!skipReason) {
    beforeAll(async () => {
      const c = scenarioCluster();
      await c.client.close();
      node = await RealNode.start({
        clusterDir: c.dir,
        kubeconfig: c.kubeconfig,
        apiserver: c.apiserver,
        name,
        zone: 'zone-real',
        // other files' DaemonSets run on every node they tolerate: this one is tainted as every extra test node
        taints: [testNodeTaint(x)],
        log: (line) => process.stderr.write(`[real node] ${line}\n`),
      });
    }, 180_000);
    afterAll(async () => {
      const left = await node?.stop({ deleteNode: true });
      expect(left ?? []).toEqual([]);
      // no container, shim, mount, bridge or cgroup of the node left behind
      expect((await node?.leftovers()) ?? []).toEqual([]);
    }, 60_000);
  }
  return {
    skipReason,
    name,
    get node() {
      if (!node) throw new Error(`real node ${name} not started${skipReason ? `: ${skipReason}` : ''}`);
      return node;
    },
    hostDir(sub) {
      const dir = join(this.node.dir, 'volumes', sub);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    localVolume(pvName, storageClassName, capacity = '1Gi') {
      return {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: pvName, labels: { 'regatta.dev/real-node': name } },
        spec: {
          capacity: { storage: capacity },
          accessModes: ['ReadWriteOnce'],
          persistentVolumeReclaimPolicy: 'Retain',
          storageClassName,
          hostPath: { path: this.hostDir(`pv-${pvName}`), type: 'Directory' },
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [name] }] },
              ],
            },
          },
        },
      } as KubeObject;
    },
    pin(spec) {
      const s = spec as Record<string, unknown>;
      s['nodeSelector'] = { [NODE_KIND_LABEL]: 'real', 'kubernetes.io/hostname': name };
      s['tolerations'] = [...((s['tolerations'] as unknown[] | undefined) ?? []), testNodeToleration(x)];
      return spec;
    },
  };
}

/** One line of the HTTP stand-in's trace file (`TRACE_FILE`, tools/images/http): a start or a hook request. */
export interface TraceLine {
  /** The container's `ID` env (or its image). */
  id: string;
  /** `start` or `hook/<name>`. */
  what: string;
  /** The pod's host name (its name). */
  host: string;
  ms: number;
}

/** The lines of a trace file on the host ([] while it does not exist). */
export function readTrace(file: string): TraceLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [id = '', what = '', host = '', ms = '0'] = l.split(' ');
      return { id, what, host, ms: Number(ms) };
    });
}

/** What a pod's HTTP stand-in answers at `http://ip:port/` (its image name and host name); '' when it does not. */
export async function answerOf(ip: string, port = 80): Promise<string> {
  try {
    const res = await fetch(`http://${ip}:${port}/`, { signal: AbortSignal.timeout(2_000) });
    return await res.text();
  } catch {
    return '';
  }
}

/**
 * Checks what `kubectl get pod -o yaml` shows after an in-place restart of `container` to `image`: the same pod UID
 * and IP, a new containerd container ID, restartCount one more, the new image in its status (`statusOf`: among the
 * container statuses, or a native sidecar's among the init containers').
 */
export function expectRestartedInPlace(
  before: Pod,
  after: Pod,
  container: string,
  image: string,
  statusOf: (p: Pod, container: string) => ContainerStatus | undefined = containerStatus,
): void {
  const s0 = statusOf(before, container);
  const s1 = statusOf(after, container);
  expect(after.metadata?.uid).toBe(before.metadata?.uid);
  expect(after.status?.podIP).toBe(before.status?.podIP);
  expect(s1?.containerID).toMatch(/^containerd:\/\//);
  expect(s1?.containerID).not.toBe(s0?.containerID);
  expect(s1?.restartCount).toBe((s0?.restartCount ?? 0) + 1);
  expect(s1?.image).toContain(image);
}
