// Command lines of the control plane's processes: pure functions of ports and paths.
import { randomBytes } from 'node:crypto';
import { CONTROLLER_NAMES, nodeAgentPermissions, type NodeAgentGrant } from '@regatta/runtime';
import { kubernetesVersion } from './binaries.js';

export interface PkiPaths {
  caCert: string;
  /** The cluster CA's key: kube-controller-manager signs CertificateSigningRequests with it. */
  caKey: string;
  servingCert: string;
  servingKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
  /**
   * The API server's client certificate towards kubelets (`logs`, `exec`, node proxy on a real node,
   * docs/real-nodes.md); absent: the API server presents none.
   */
  kubeletClientCert?: string;
  kubeletClientKey?: string;
}

export function etcdArgs(o: { dataDir: string; clientPort: number; peerPort: number }): string[] {
  const client = `http://127.0.0.1:${o.clientPort}`;
  const peer = `http://127.0.0.1:${o.peerPort}`;
  return [
    `--data-dir=${o.dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--unsafe-no-fsync=true',
    '--log-level=warn',
  ];
}

/**
 * The audit policy of `LocalClusterOptions.auditLogPath`: one Metadata-level event (who, user agent, verb,
 * object, response code; no bodies) per write request, when the response is complete; nothing for reads.
 */
export const WRITE_AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    verbs: [create, update, patch, delete, deletecollection]
  - level: None
`;

/**
 * `WRITE_AUDIT_POLICY` with reads too (get, list, watch; a watch is logged when its response starts and again when
 * it ends), for `LocalClusterOptions.auditReads`: what a program asks of the API server, not only what it writes.
 */
export const REQUEST_AUDIT_POLICY = WRITE_AUDIT_POLICY.replace(
  'verbs: [create, update, patch, delete, deletecollection]',
  'verbs: [get, list, watch, create, update, patch, delete, deletecollection]',
);

export function apiserverArgs(o: {
  etcdPort: number;
  securePort: number;
  pki: PkiPaths;
  /** Audit log (JSON lines) of the requests `policyFile` selects; off when absent. */
  audit?: { policyFile: string; logPath: string };
  /** API Priority and Fairness as real clusters run it (LocalClusterOptions.priorityAndFairness). */
  priorityAndFairness?: boolean;
}): string[] {
  const audit = o.audit
    ? [
        `--audit-policy-file=${o.audit.policyFile}`,
        `--audit-log-path=${o.audit.logPath}`,
        '--audit-log-format=json',
        '--audit-log-maxsize=0',
      ]
    : [];
  // towards kubelets: a client certificate, the node's InternalIP (a real node's name resolves nowhere), the CA
  const kubelet = o.pki.kubeletClientCert
    ? [
        `--kubelet-client-certificate=${o.pki.kubeletClientCert}`,
        `--kubelet-client-key=${o.pki.kubeletClientKey ?? ''}`,
        `--kubelet-certificate-authority=${o.pki.caCert}`,
        '--kubelet-preferred-address-types=InternalIP',
      ]
    : [];
  return [
    `--etcd-servers=http://127.0.0.1:${o.etcdPort}`,
    `--secure-port=${o.securePort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--tls-cert-file=${o.pki.servingCert}`,
    `--tls-private-key-file=${o.pki.servingKey}`,
    `--client-ca-file=${o.pki.caCert}`,
    `--service-account-issuer=https://127.0.0.1:${o.securePort}`,
    `--service-account-key-file=${o.pki.serviceAccountPub}`,
    `--service-account-signing-key-file=${o.pki.serviceAccountKey}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // Node: a real node's kubelet (`system:node:<name>`) may read what its pods need and no more (upstream
    // plugin/pkg/auth/authorizer/node); it has no opinion on anyone else, so RBAC decides as before
    '--authorization-mode=Node,RBAC',
    '--allow-privileged=true',
    // no kubelet issues service-account tokens here, so pods must not require one
    '--disable-admission-plugins=ServiceAccount',
    // as OpenShift: an owner reference with blockOwnerDeletion needs `update` of the owner's finalizers, so the
    // programs' ServiceAccounts are checked for it (docs/adr/0054)
    // NodeRestriction: a kubelet may change only its own Node and its pods (docs/real-nodes.md)
    '--enable-admission-plugins=OwnerReferencesPermissionEnforcement,NodeRestriction',
    // off by default: the benchmarks and the suite's shared cluster measure Regatta, not APF's queues
    ...(o.priorityAndFairness
      ? ['--enable-priority-and-fairness=true']
      : ['--enable-priority-and-fairness=false', '--max-requests-inflight=1000', '--max-mutating-requests-inflight=500']),
    '--endpoint-reconciler-type=none',
    // webhooks and aggregated APIs behind a Service are dialled at its endpoints' pod IPs, not its cluster IP: there is
    // no kube-proxy here, and the host reaches a real node's pods directly (docs/real-nodes.md; docs/images.md)
    '--enable-aggregator-routing=true',
    ...kubelet,
    ...audit,
    '--v=0',
  ];
}

/**
 * Controllers a real cluster runs that this one leaves off, with the reason. Everything else
 * kube-controller-manager enables by default (`*`) runs, as in a kubeadm cluster: resource quotas,
 * endpoints and EndpointSlices, pod GC, the native workloads, CronJobs, HPAs, CSR signing and approval,
 * service-account tokens, root-CA publishing, PV binding, TTLs, …
 * (`cmd/kube-controller-manager/names/controller_names.go` upstream lists them.)
 */
export const CONTROLLER_MANAGER_LEFT_OFF: Readonly<Record<string, string>> = {
  // it would taint NotReady/unreachable nodes and evict their pods on its own schedule; the node
  // simulator reports node health (conditions, leases) and applies node faults itself
  'node-lifecycle-controller': 'the node simulator reports node health and node faults itself',
  // there is no cloud provider: these only run against one
  'cloud-node-lifecycle-controller': 'no cloud provider',
  'node-route-controller': 'no cloud provider',
  'service-lb-controller': 'no cloud provider',
};

/** The `--controllers` value: every on-by-default controller but those in `CONTROLLER_MANAGER_LEFT_OFF`. */
export const CONTROLLER_MANAGER_CONTROLLERS: readonly string[] = [
  '*',
  ...Object.keys(CONTROLLER_MANAGER_LEFT_OFF).map((name) => `-${name}`),
];

/** Controllers kube-controller-manager no longer has from Kubernetes 1.37 on (cloud providers run outside it). */
const CLOUD_CONTROLLERS = [
  'cloud-node-lifecycle-controller',
  'node-route-controller',
  'service-lb-controller',
];

/**
 * `CONTROLLER_MANAGER_CONTROLLERS` for a Kubernetes release (`X.Y.Z`): kube-controller-manager 1.37 refuses to
 * start when `--controllers` names the cloud controllers it dropped, so they are left out of the list from 1.37 on.
 */
export function controllerManagerControllers(version: string): readonly string[] {
  const minor = Number(version.split('.')[1]);
  return minor >= 37
    ? CONTROLLER_MANAGER_CONTROLLERS.filter((c) => !CLOUD_CONTROLLERS.includes(c.slice(1)))
    : CONTROLLER_MANAGER_CONTROLLERS;
}

export function controllerManagerArgs(o: {
  kubeconfig: string;
  securePort: number;
  pki: PkiPaths;
  /** The release being started; default `kubernetesVersion()` (the pin or REGATTA_KUBERNETES_VERSION). */
  kubernetesVersion?: string;
}): string[] {
  return [
    `--kubeconfig=${o.kubeconfig}`,
    `--authentication-kubeconfig=${o.kubeconfig}`,
    `--authorization-kubeconfig=${o.kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${o.securePort}`,
    `--controllers=${controllerManagerControllers(o.kubernetesVersion ?? kubernetesVersion()).join(',')}`,
    // service-account tokens and the kube-root-ca.crt ConfigMaps
    `--root-ca-file=${o.pki.caCert}`,
    `--service-account-private-key-file=${o.pki.serviceAccountKey}`,
    // certificatesigningrequest-signing-controller signs with the cluster CA, as kubeadm configures it
    `--cluster-signing-cert-file=${o.pki.caCert}`,
    `--cluster-signing-key-file=${o.pki.caKey}`,
    '--use-service-account-credentials=false',
    '--kube-api-qps=200',
    '--kube-api-burst=400',
    '--v=0',
  ];
}

export function schedulerArgs(o: { kubeconfig: string; securePort: number }): string[] {
  return [
    `--kubeconfig=${o.kubeconfig}`,
    `--authentication-kubeconfig=${o.kubeconfig}`,
    `--authorization-kubeconfig=${o.kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${o.securePort}`,
    '--kube-api-qps=200',
    '--kube-api-burst=400',
    '--v=0',
  ];
}

/** The node agents' permissions are built in libs/runtime, for the sandbox's users and the auth callout's (docs/adr/0059). */
export { nodeAgentPermissions };

export interface NatsUser {
  user: string;
  password: string;
}

/**
 * The controller names the bus knows (runtime's CONTROLLER_NAMES, the one list); each gets a user of its own that
 * may register under that name only.
 */
export const BUS_CONTROLLERS = CONTROLLER_NAMES;

/**
 * The bus's roles (docs/adr/0006, 0009): the watcher writes the mirror buckets; `controller` only reads them;
 * each controller's own user reads them and writes its own registration.
 */
export interface NatsAuth {
  watcher: NatsUser;
  /** Reads mirrors; registers nothing. */
  controller: NatsUser;
  /** One user per controller name: reads mirrors, writes `regatta_registrations.<name>.*` only. */
  controllers?: Record<string, NatsUser>;
  /** The installation's bucket prefix (REGATTA_BUS_PREFIX), '' by default. */
  prefix: string;
  /** One user per node agent, by node name: reads only its own key of one mirror bucket (docs/adr/0032). */
  nodeAgents?: Record<string, NodeAgentUser>;
}

/** A node agent's bus user: a password, and what its permissions name (its inbox prefix, bucket, key, registration). */
export interface NodeAgentUser extends NatsUser, NodeAgentGrant {}

/** A node agent's bus user: a fresh password and inbox prefix, its node's key of the bucket (docs/adr/0032). */
export function newNodeAgentUser(
  node: string,
  o: { bucket: string; registration: (node: string) => string },
): NodeAgentUser {
  return {
    user: `regatta-node-agent-${node}`,
    password: randomBytes(18).toString('base64url'),
    inboxPrefix: `_INBOX_${randomBytes(8).toString('hex')}`,
    bucket: o.bucket,
    key: `_.${node}`,
    registration: o.registration(node),
  };
}

/**
 * What a controller may publish: JetStream reads (stream info, consumers for KV watches, direct gets, flow
 * control) and, for a named controller, its own registration key. No bucket or stream writes, creates or
 * deletes; no consumer deletes (subjects cannot tell one program's consumers from another's; a KV watch's
 * ephemeral consumer expires on its own).
 */
export function controllerPublishAllow(prefix: string, controller?: string): string[] {
  return [
    '$JS.API.INFO',
    '$JS.API.STREAM.INFO.>',
    '$JS.API.STREAM.NAMES',
    '$JS.API.STREAM.LIST',
    '$JS.API.CONSUMER.CREATE.>',
    '$JS.API.CONSUMER.INFO.>',
    '$JS.API.CONSUMER.NAMES.>',
    '$JS.API.CONSUMER.LIST.>',
    '$JS.API.CONSUMER.MSG.NEXT.>',
    '$JS.API.DIRECT.GET.>',
    '$JS.API.STREAM.MSG.GET.>',
    '$JS.FC.>',
    ...(controller ? [`$KV.${prefix}regatta_registrations.${controller}.*`] : []),
    '_INBOX.>',
  ];
}

/** nats-server's max_payload: a mirror value of 8 MiB (docs/adr/0008) and its headers fit. */
export const NATS_MAX_PAYLOAD = 9 * 1024 * 1024;

/**
 * How JetStream flushes its store to disk (docs/adr/0086): `always` fsyncs every write before acknowledging it;
 * a duration (nats-server's default `2m`) acknowledges writes the kernel may still lose on a machine crash
 * (Jepsen's 2025 NATS analysis).
 */
export type NatsSync = 'always' | 'default' | `${number}${'ms' | 's' | 'm'}`;

/** The sandbox's JetStream fsync setting (docs/adr/0086). */
export const NATS_SYNC_DEFAULT: NatsSync = 'always';

/** One member of a JetStream cluster on loopback: its name and route port, and every member's route port. */
export interface NatsClusterMember {
  /** The cluster's name, the same on every member. */
  cluster: string;
  /** This server's name (JetStream's peer name), unique in the cluster. */
  serverName: string;
  routePort: number;
  /** Route ports of all members (this one's included: nats-server skips its own). */
  routes: number[];
}

/** nats-server configuration: JetStream on, loopback only, payloads large enough for any Kubernetes object. */
export function natsConfig(o: {
  port: number;
  monitorPort: number;
  storeDir: string;
  auth?: NatsAuth;
  /** A member of a JetStream cluster (`regatta sandbox up --bus-replicas 3`); absent: one server, as before. */
  cluster?: NatsClusterMember;
  /** JetStream's fsync (`sync_interval`); default {@link NATS_SYNC_DEFAULT}. `default` leaves nats-server's own. */
  sync?: NatsSync;
}): string {
  const q = (s: string) => JSON.stringify(s);
  const sync = o.sync ?? NATS_SYNC_DEFAULT;
  const auth = o.auth
    ? [
        'authorization {',
        '  users: [',
        `    { user: ${q(o.auth.watcher.user)}, password: ${q(o.auth.watcher.password)} }`,
        ...[[undefined, o.auth.controller] as const, ...Object.entries(o.auth.controllers ?? {})].map(
          ([name, u]) =>
            `    { user: ${q(u.user)}, password: ${q(u.password)}, permissions: {\n` +
            `        publish: { allow: [${controllerPublishAllow(o.auth!.prefix, name).map(q).join(', ')}] }\n` +
            `        subscribe: { allow: ["_INBOX.>"] } } }`,
        ),
        ...Object.values(o.auth.nodeAgents ?? {}).map((a) => {
          const p = nodeAgentPermissions(o.auth!.prefix, a);
          return (
            `    { user: ${q(a.user)}, password: ${q(a.password)}, permissions: {\n` +
            `        publish: { allow: [${p.publish.map(q).join(', ')}] }\n` +
            `        subscribe: { allow: [${p.subscribe.map(q).join(', ')}] } } }`
          );
        }),
        '  ]',
        '}',
      ]
    : [];
  return [
    `listen: "127.0.0.1:${o.port}"`,
    `http: "127.0.0.1:${o.monitorPort}"`,
    // mirror values up to 8 MiB (MAX_VALUE_BYTES in libs/bus, docs/adr/0008) plus the headers of a JetStream publish
    `max_payload: ${NATS_MAX_PAYLOAD}`,
    ...auth,
    ...(o.cluster
      ? [
          `server_name: ${q(o.cluster.serverName)}`,
          'cluster {',
          `  name: ${q(o.cluster.cluster)}`,
          `  listen: "127.0.0.1:${o.cluster.routePort}"`,
          `  routes: [${o.cluster.routes.map((p) => q(`nats-route://127.0.0.1:${p}`)).join(', ')}]`,
          '}',
        ]
      : []),
    'jetstream {',
    `  store_dir: "${o.storeDir}"`,
    '  max_memory_store: 1GB',
    '  max_file_store: 8GB',
    ...(sync === 'default' ? [] : [`  sync_interval: ${sync}`]),
    '}',
    '',
  ].join('\n');
}

export interface JaegerPorts {
  otlpGrpc: number;
  otlpHttp: number;
  queryHttp: number;
  queryGrpc: number;
}

/** Jaeger v2 with in-memory storage, OTLP in, query API out, every listener on loopback. */
export function jaegerConfig(p: JaegerPorts): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 100000
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:${p.queryHttp}
    grpc:
      endpoint: 127.0.0.1:${p.queryGrpc}
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:${p.otlpGrpc}
      http:
        endpoint: 127.0.0.1:${p.otlpHttp}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`;
}

/** A kubeconfig with embedded CA and client certificate, as `kubectl` and client libraries read it. */
export function kubeconfigYaml(o: {
  server: string;
  caPem: string;
  certPem: string;
  keyPem: string;
}): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return `apiVersion: v1
kind: Config
clusters:
- name: regatta-local
  cluster:
    server: ${o.server}
    certificate-authority-data: ${b64(o.caPem)}
users:
- name: regatta-admin
  user:
    client-certificate-data: ${b64(o.certPem)}
    client-key-data: ${b64(o.keyPem)}
contexts:
- name: regatta-local
  context:
    cluster: regatta-local
    user: regatta-admin
current-context: regatta-local
`;
}
