// Pods as a scenario reads them: the fields a user looks at (`kubectl get pod -o yaml`), open for the rest.
import type { KubeClient, KubeObject } from '@regatta/kube';

export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
/** The lifecycle state label OpenKruise's workloads set on a pod (`apis/apps/pub/lifecycle.go`). */
export const LIFECYCLE_STATE = 'lifecycle.apps.kruise.io/state';

export interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  ports?: { containerPort: number; hostPort?: number; protocol?: string }[];
  resources?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  restartCount: number;
  ready: boolean;
  state?: { waiting?: { reason?: string }; running?: unknown; terminated?: unknown };
  lastState?: { terminated?: { exitCode?: number } };
}
export interface Pod extends KubeObject {
  spec: {
    containers: Container[];
    nodeName?: string;
    hostNetwork?: boolean;
    volumes?: unknown[];
    [key: string]: unknown;
  };
  status?: {
    phase?: string;
    qosClass?: string;
    conditions?: { type: string; status: string; reason?: string }[];
    containerStatuses?: ContainerStatus[];
  };
}

export const uidOf = (o: { metadata?: { uid?: string } }): string => o.metadata?.uid ?? '';
export const nameOf = (o: { metadata?: { name?: string } }): string => o.metadata?.name ?? '';
export const stateOf = (p: Pod): string | undefined => p.metadata?.labels?.[LIFECYCLE_STATE];
export const conditionOf = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);
export const containerStatus = (p: Pod, name: string) =>
  p.status?.containerStatuses?.find((c) => c.name === name);
export const isReady = (p: Pod): boolean => conditionOf(p, 'Ready')?.status === 'True';

/** The live (not terminating) pods of a namespace. */
export async function livePods(client: KubeClient, ns: string): Promise<Pod[]> {
  return (await client.list<Pod>({ ...POD, namespace: ns })).items.filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
}
