import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { locateBinaries, type Binaries } from './binaries.js';
import {
  apiserverArgs,
  BUS_CONTROLLERS,
  controllerManagerArgs,
  etcdArgs,
  jaegerConfig,
  kubeconfigYaml,
  newNodeAgentUser,
  schedulerArgs,
  REQUEST_AUDIT_POLICY,
  WRITE_AUDIT_POLICY,
  type NatsAuth,
  type NatsSync,
  type PkiPaths,
} from './components.js';
import { planNatsServers, natsServerConfig, waitForJetStreamCluster, type NatsServerEndpoint } from './nats-cluster.js';
import { createCertificateAuthority, createSigningKey, type CertificateAuthority } from '@regatta/runtime';
import { freePorts } from './ports.js';
import { writePrivateFile } from './private-file.js';
import { ManagedProcess, stopRecorded, type ProcessRecord } from './process.js';
import {
  launchRecordOf,
  readPidRecords,
  waitReady,
  writeLaunchRecords,
  writePidRecords,
  type LaunchRecord,
  type ReadyProbe,
} from './records.js';

export interface LocalClusterOptions {
  /**
   * Working folder: PKI, etcd data, logs, kubeconfig, endpoints.json, pids.json and programs.json (how to
   * restart each process). Created if missing, readable by its owner only; every file in it that holds a
   * credential is written 0600.
   */
  dir: string;
  /** Leave the processes running after this Node process exits (`regatta sandbox up --detach`). */
  keepAfterExit?: boolean;
  /** kube-controller-manager (garbage collection, namespaces, native workloads, PV binding). Default true. */
  controllerManager?: boolean;
  /** kube-scheduler. Default true. */
  scheduler?: boolean;
  /** nats-server with JetStream. Default true. */
  nats?: boolean;
  /**
   * How many nats-servers form the bus: 1 (default) runs one, as before; 3 runs a JetStream cluster on loopback
   * whose buckets the programs replicate on all three (docs/operations.md "A clustered bus").
   */
  busReplicas?: number;
  /** JetStream's fsync setting on every server (docs/adr/0086); default `NATS_SYNC_DEFAULT`. */
  natsSync?: NatsSync;
  /** Jaeger (OTLP in, query API out, in memory). Default true. */
  jaeger?: boolean;
  /**
   * Give the bus credentials: a watcher user that may write everything and a controller user that
   * may only read mirrors and register kinds (see `controllerPublishAllow`). Default false (open bus).
   */
  natsAuth?: boolean;
  /** With `natsAuth`: a bus user per node agent that reads only its node's key (docs/adr/0032). */
  natsNodeAgents?: NodeAgentsOption;
  /**
   * Write the API server's audit log here: one JSON line per write request (create, update, patch,
   * delete, deletecollection) at Metadata level (user, user agent, verb, object, response code), nothing
   * for reads; see `WRITE_AUDIT_POLICY`. Off by default. Used by the benchmarks to count a
   * controller's writes.
   */
  auditLogPath?: string;
  /** With `auditLogPath`: log reads (get, list, watch) too, `REQUEST_AUDIT_POLICY`. */
  auditReads?: boolean;
  /**
   * Run kube-apiserver with API Priority and Fairness, as real clusters do (its default FlowSchemas; a request over
   * its priority level's seats is rejected with 429). Off by default: max-inflight limits only.
   */
  priorityAndFairness?: boolean;
  /** Progress lines ("etcd ready in 812 ms"). */
  log?: (line: string) => void;
  binaries?: Binaries;
}

/** Where everything listens; written to `<dir>/endpoints.json`. */
export interface ClusterEndpoints {
  apiserver: string;
  kubeconfig: string;
  etcd: string;
  nats?: string;
  natsMonitor?: string;
  /** Every server of the bus (`nats`/`natsMonitor` are the first's): one, or a JetStream cluster's members. */
  natsServers?: NatsServerEndpoint[];
  /** JetStream's fsync setting the servers were started with, when not the default (docs/adr/0086). */
  natsSync?: NatsSync;
  /** Present when started with `natsAuth`. */
  natsAuth?: NatsAuth;
  jaeger?: { query: string; otlpHttp: string; otlpGrpc: string };
}

export const ENDPOINTS_FILE = 'endpoints.json';

/**
 * A real Kubernetes control plane (etcd, kube-apiserver, and optionally kube-controller-manager and
 * kube-scheduler), with nats-server and Jaeger beside it, every listener on 127.0.0.1.
 */
export class LocalCluster {
  /** Milliseconds each component took from spawn to healthy. */
  readonly startupMs: Record<string, number> = {};

  private readonly launches: LaunchRecord[] = [];
  private pidsWritten = false;

  private constructor(
    readonly dir: string,
    readonly endpoints: ClusterEndpoints,
    readonly ca: CertificateAuthority,
    private readonly processes: ManagedProcess[],
  ) {}

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const o = {
      controllerManager: true,
      scheduler: true,
      nats: true,
      jaeger: true,
      keepAfterExit: false,
      ...options,
    };
    const log = o.log ?? (() => undefined);
    const bin = o.binaries ?? locateBinaries(undefined, { jaeger: o.jaeger });
    const t0 = Date.now();
    const dir = o.dir;
    const logs = join(dir, 'logs');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await mkdir(logs, { recursive: true });
    await mkdir(join(dir, 'pki'), { recursive: true, mode: 0o700 });

    const [
      etcdPort,
      peerPort,
      apiPort,
      kcmPort,
      schedPort,
      natsPort,
      natsMon,
      otlpGrpc,
      otlpHttp,
      qHttp,
      qGrpc,
    ] = (await freePorts(11)) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];

    const { ca, pki, kubeconfig } = await writePki(dir, apiPort);
    const endpoints: ClusterEndpoints = {
      apiserver: `https://127.0.0.1:${apiPort}`,
      kubeconfig,
      etcd: `http://127.0.0.1:${etcdPort}`,
    };

    const processes: ManagedProcess[] = [];
    const cluster = new LocalCluster(dir, endpoints, ca, processes);
    const start = (name: string, command: string, args: string[], probe: ReadyProbe) => {
      const p = ManagedProcess.start({ name, command, args, logFile: join(logs, `${name}.log`) }, o);
      processes.push(p);
      cluster.launches.push(launchRecordOf(p, probe));
      return p;
    };
    const ready = async (p: ManagedProcess, timeoutMs = 60_000) => {
      const began = Date.now();
      await waitReady(p, cluster.launches.find((l) => l.name === p.spec.name)?.ready, timeoutMs);
      cluster.startupMs[p.spec.name] = Date.now() - began;
      log(`${p.spec.name} ready in ${Date.now() - began} ms`);
    };

    try {
      const etcd = start(
        'etcd',
        bin.etcd,
        etcdArgs({ dataDir: join(dir, 'etcd'), clientPort: etcdPort, peerPort }),
        { url: `${endpoints.etcd}/health` },
      );
      const waits: Promise<void>[] = [ready(etcd)];

      if (o.nats) {
        if (o.natsAuth) endpoints.natsAuth = newNatsAuth('', o.natsNodeAgents);
        const replicas = o.busReplicas ?? 1;
        const servers = planNatsServers(dir, replicas, [
          natsPort,
          natsMon,
          ...(replicas > 1 ? await freePorts(3 * replicas - 2) : []),
        ]);
        for (const server of servers) {
          await writePrivateFile(
            server.conf,
            natsServerConfig(server, servers, { auth: endpoints.natsAuth, sync: o.natsSync }),
          );
          // a cluster member is healthy once JetStream is on; the cluster's meta leader is elected after all start
          const nats = start(server.name, bin.natsServer, ['-c', server.conf], {
            url: `${server.monitor}/healthz?js-enabled-only=true`,
          });
          waits.push(ready(nats));
        }
        endpoints.nats = servers[0]!.url;
        endpoints.natsMonitor = servers[0]!.monitor;
        endpoints.natsServers = servers;
        if (o.natsSync) endpoints.natsSync = o.natsSync;
        if (replicas > 1) waits.push(waitForJetStreamCluster(servers));
      }
      if (o.jaeger) {
        const conf = join(dir, 'jaeger.yaml');
        await writeFile(conf, jaegerConfig({ otlpGrpc, otlpHttp, queryHttp: qHttp, queryGrpc: qGrpc }));
        const jaeger = start('jaeger', bin.jaeger, [`--config=file:${conf}`], {
          url: `http://127.0.0.1:${qHttp}/api/services`,
        });
        endpoints.jaeger = {
          query: `http://127.0.0.1:${qHttp}`,
          otlpHttp: `http://127.0.0.1:${otlpHttp}`,
          otlpGrpc: `127.0.0.1:${otlpGrpc}`,
        };
        waits.push(ready(jaeger));
      }

      let audit: { policyFile: string; logPath: string } | undefined;
      if (o.auditLogPath) {
        audit = { policyFile: join(dir, 'audit-policy.yaml'), logPath: o.auditLogPath };
        await writeFile(audit.policyFile, o.auditReads ? REQUEST_AUDIT_POLICY : WRITE_AUDIT_POLICY);
      }
      await waits[0];
      const apiserver = start(
        'kube-apiserver',
        bin.kubeApiserver,
        apiserverArgs({ etcdPort, securePort: apiPort, pki, ...(audit && { audit }), priorityAndFairness: o.priorityAndFairness }),
        { url: `${endpoints.apiserver}/readyz`, caFile: pki.caCert },
      );
      await ready(apiserver, 90_000);

      if (o.controllerManager) {
        const kcm = start(
          'kube-controller-manager',
          bin.kubeControllerManager,
          controllerManagerArgs({ kubeconfig, securePort: kcmPort, pki }),
          { url: `https://127.0.0.1:${kcmPort}/healthz`, insecure: true },
        );
        waits.push(ready(kcm));
      }
      if (o.scheduler) {
        const sched = start(
          'kube-scheduler',
          bin.kubeScheduler,
          schedulerArgs({ kubeconfig, securePort: schedPort }),
          { url: `https://127.0.0.1:${schedPort}/healthz`, insecure: true },
        );
        waits.push(ready(sched));
      }
      await Promise.all(waits);
      cluster.startupMs['total'] = Date.now() - t0;
      log(`control plane ready in ${Date.now() - t0} ms`);

      await writePrivateFile(join(dir, ENDPOINTS_FILE), JSON.stringify(endpoints, null, 2) + '\n');
      await cluster.writePids();
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  /** Records of the processes this cluster started, in start order. */
  get processRecords(): ProcessRecord[] {
    return this.processes.map((p) => p.record);
  }

  /**
   * Adds a process that belongs to this cluster (a controller, the node simulator) to its pid file, its
   * launch records (`ready`: how `restartProcessInDir` knows it is up again) and its shutdown.
   */
  async adopt(p: ManagedProcess, ready?: ReadyProbe): Promise<void> {
    this.processes.push(p);
    this.launches.push(launchRecordOf(p, ready));
    await this.writePids();
  }

  private async writePids(): Promise<void> {
    await writeLaunchRecords(this.dir, this.launches);
    await writePidRecords(this.dir, this.processRecords);
    this.pidsWritten = true;
  }

  /**
   * Stops every process, newest first (controllers before the API server, the API server before etcd),
   * including one that `regatta sandbox restart` started again in the meantime (known only from the pid file).
   */
  async stop(): Promise<void> {
    const own = new Set(this.processes.map((p) => p.pid));
    const restarted = this.pidsWritten
      ? (await readPidRecords(this.dir).catch(() => [])).filter((r) => !own.has(r.pid))
      : [];
    for (const p of [...this.processes].reverse()) {
      await stopRecorded(restarted.filter((r) => r.name === p.spec.name));
      await p.stop();
    }
  }
}

/** Stops the processes of a cluster started by another process (its `<dir>/pids.json`). */
export async function stopClusterInDir(dir: string): Promise<ProcessRecord[]> {
  const records = await readPidRecords(dir);
  await stopRecorded(records);
  return records;
}

/** Reads `<dir>/endpoints.json` of a running cluster. */
export async function readEndpoints(dir: string): Promise<ClusterEndpoints> {
  return JSON.parse(await readFile(join(dir, ENDPOINTS_FILE), 'utf8')) as ClusterEndpoints;
}

/** Fresh random passwords for the bus's roles: the watcher, a reader, and each controller (docs/adr/0009). */
export function newNatsAuth(prefix = '', nodeAgents?: NodeAgentsOption): NatsAuth {
  const pw = () => randomBytes(18).toString('base64url');
  return {
    watcher: { user: 'regatta-watcher', password: pw() },
    controller: { user: 'regatta-controller', password: pw() },
    controllers: Object.fromEntries(BUS_CONTROLLERS.map((c) => [c, { user: `regatta-${c}`, password: pw() }])),
    prefix,
    ...(nodeAgents
      ? { nodeAgents: Object.fromEntries(nodeAgents.nodes.map((node) => [node, newNodeAgentUser(node, nodeAgents)])) }
      : {}),
  };
}

/** Node agents to give bus users of their own: the nodes, the mirror bucket of their object, their registration key. */
export interface NodeAgentsOption {
  nodes: string[];
  bucket: string;
  registration: (node: string) => string;
}

async function writePki(dir: string, apiPort: number) {
  const p = (f: string) => join(dir, 'pki', f);
  const ca = await createCertificateAuthority('regatta-local-ca');
  const serving = await ca.issueServing(
    ['localhost', '127.0.0.1', '10.96.0.1', 'kubernetes.default.svc'],
    'kube-apiserver',
  );
  const admin = await ca.issueClient('regatta-admin', ['system:masters']);
  // the API server towards kubelets (logs, exec on a real node); kubelets authorize it by SubjectAccessReview
  const kubeletClient = await ca.issueClient('kube-apiserver-kubelet-client', ['system:masters']);
  const sa = await createSigningKey();
  const [kubeletCert, kubeletKey] = [p('apiserver-kubelet-client.crt'), p('apiserver-kubelet-client.key')];
  const pki: PkiPaths = {
    caCert: p('ca.crt'),
    caKey: p('ca.key'),
    servingCert: p('apiserver.crt'),
    servingKey: p('apiserver.key'),
    serviceAccountKey: p('sa.key'),
    serviceAccountPub: p('sa.pub'),
    kubeletClientCert: kubeletCert,
    kubeletClientKey: kubeletKey,
  };
  await Promise.all([
    writeFile(pki.caCert, ca.certPem),
    writePrivateFile(pki.caKey, ca.keyPem),
    writeFile(pki.servingCert, serving.certPem),
    writePrivateFile(pki.servingKey, serving.keyPem),
    writePrivateFile(pki.serviceAccountKey, sa.privateKeyPem),
    writeFile(pki.serviceAccountPub, sa.publicKeyPem),
    writeFile(kubeletCert, kubeletClient.certPem),
    writePrivateFile(kubeletKey, kubeletClient.keyPem),
  ]);
  const kubeconfig = join(dir, 'kubeconfig');
  await writePrivateFile(
    kubeconfig,
    kubeconfigYaml({
      server: `https://127.0.0.1:${apiPort}`,
      caPem: ca.certPem,
      certPem: admin.certPem,
      keyPem: admin.keyPem,
    }),
  );
  return { ca, pki, kubeconfig };
}
