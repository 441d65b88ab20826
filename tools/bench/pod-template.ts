// A realistic pod for the memory benchmark: what a Deployment's pod looks like once a kubelet has run
// it. The spec is what the API server stores after defaulting (we send a typical Deployment pod:
// two containers with ports, env, probes, resources, mounts, the service-account token volume the
// ServiceAccount admission plugin would add); the status is written by the project's node simulator
// (a kubelet for the API server). The template is read back from the API server, managedFields and all.
import { randomUUID } from 'node:crypto';
import type { Pod } from '@regatta/api';
import { KubeClient, toRfc3339 } from '@regatta/kube';
import { waitFor } from '@regatta/local-cluster';
import { NodeSimulator } from '@regatta/node-simulator';

const NS = 'bench-pods';
const RS = 'web-7c9f8d6b5d';

function typicalPod(nodeName: string): Pod {
  const container = (name: string, image: string, port: number) => ({
    name,
    image,
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
    env: [
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
      { name: 'LOG_LEVEL', value: 'info' },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/ready', port }, periodSeconds: 5 },
    livenessProbe: { httpGet: { path: '/healthz', port }, initialDelaySeconds: 10, periodSeconds: 10 },
    volumeMounts: [
      { name: 'config', mountPath: '/etc/app' },
      {
        name: 'kube-api-access-x7k2p',
        mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
        readOnly: true,
      },
    ],
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${RS}-q8znx`,
      generateName: `${RS}-`,
      namespace: NS,
      labels: {
        app: 'web',
        'app.kubernetes.io/name': 'web',
        'pod-template-hash': '7c9f8d6b5d',
        tier: 'frontend',
      },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-12-01T10:00:00Z' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: RS,
          uid: randomUUID(),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeName,
      containers: [
        container('web', 'nginx:1.27.3', 8080),
        container('metrics', 'prom/statsd-exporter:v0.28.0', 9102),
      ],
      volumes: [
        { name: 'config', configMap: { name: 'web-config', defaultMode: 420 } },
        {
          name: 'kube-api-access-x7k2p',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [
                    { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                  ],
                },
              },
            ],
          },
        },
      ],
      serviceAccountName: 'default',
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                labelSelector: { matchLabels: { app: 'web' } },
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
      },
    },
  };
}

/** Creates the typical pod on a simulated node, waits until it runs and is Ready, and returns it as stored. */
export async function captureRunningPod(kubeconfig: string, log: (l: string) => void): Promise<Pod> {
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  const sim = await NodeSimulator.start({
    kubeconfig,
    nodes: 1,
    namePrefix: 'bench-node-',
    events: false,
    storageClass: '',
    removeNodesOnStop: true,
  });
  try {
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const created = await client.create(typicalPod(sim.nodeNames[0]!));
    const ref = { apiVersion: 'v1', kind: 'Pod', namespace: NS, name: created.metadata!.name! };
    const pod = await waitFor(
      'the template pod to run and be Ready',
      async () => {
        const p = await client.get<Pod>(ref);
        const st = p.status;
        return st?.phase === 'Running' &&
          st.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
          ? p
          : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    log(
      `template pod ${NS}/${pod.metadata?.name}: ${Buffer.byteLength(JSON.stringify(pod))} bytes of JSON as stored`,
    );
    return pod;
  } finally {
    await sim.stop();
    await client.close();
  }
}

const hex = (n: number, len: number) => n.toString(16).padStart(len, '0').slice(-len);
const ALNUM = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The i-th of many distinct pods made from the template: own name, uid, resourceVersion, node, IPs,
 * container IDs and timestamps; 100 ReplicaSets over 50 namespaces, 200 nodes. Deterministic in `i`.
 */
export function podVariant(template: Pod, i: number): Pod {
  const p = structuredClone(template);
  const rsIndex = i % 100;
  const ns = `team-${rsIndex % 50}`;
  const rs = `web-${rsIndex}-${hex(rsIndex * 2654435761, 10)}`;
  let suffix = '';
  for (let x = i * 7919 + 13, k = 0; k < 5; k++, x = Math.floor(x / ALNUM.length))
    suffix += ALNUM[x % ALNUM.length];
  const node = `node-${i % 200}`;
  const podIP = `10.${244 + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`;
  const hostIP = `172.18.${Math.floor((i % 200) / 256)}.${i % 200}`;
  const m = (p.metadata ??= {});
  m.name = `${rs}-${suffix}`;
  m.generateName = `${rs}-`;
  m.namespace = ns;
  m.uid = randomUUID();
  m.resourceVersion = String(100_000 + i);
  m.creationTimestamp = toRfc3339(Date.UTC(2026, 11, 1) + i * 1000);
  m.labels = { ...m.labels, 'pod-template-hash': rs.slice(rs.lastIndexOf('-') + 1) };
  m.ownerReferences = (m.ownerReferences ?? []).map((o) => ({
    ...o,
    name: rs,
    uid: `00000000-0000-4000-8000-${hex(rsIndex, 12)}`,
  }));
  (p.spec ??= {}).nodeName = node;
  const st = (p.status ??= {});
  st['podIP'] = podIP;
  st['podIPs'] = [{ ip: podIP }];
  st['hostIP'] = hostIP;
  st['hostIPs'] = [{ ip: hostIP }];
  for (const c of st.containerStatuses ?? []) {
    if (c.containerID)
      c.containerID = `containerd://${hex(i, 8)}${randomUUID().replaceAll('-', '')}${hex(i * 31, 24)}`;
  }
  return p;
}

/** What the mirror stores (and a well-configured informer keeps): the object without managedFields. */
export function withoutManagedFields(p: Pod): Pod {
  const { managedFields: _drop, ...metadata } = p.metadata ?? {};
  return { ...p, metadata };
}
