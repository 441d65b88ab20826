import { readFileSync } from 'node:fs';
import { KINDS, OTHER_MIRRORED_KINDS } from '@regatta/api';
import { resourceId, type KindRef } from '@regatta/bus';
import { RegattaError } from '@regatta/errors';
import type { ControllerName } from '@regatta/runtime';

/**
 * Every resource the watcher knows how to mirror, by resource id (`pods.v1`, `clonesets.v1alpha1.apps.kruise.io`):
 * the kind registry of `@regatta/api` (docs/adr/0071-one-typed-kind-registry.md). The watcher lists and writes with
 * these definitions, never with what a registration says (docs/adr/0009).
 */
export const CATALOGUE: ReadonlyMap<string, KindRef> = new Map(
  [...Object.values(KINDS), ...OTHER_MIRRORED_KINDS].map((k) => [resourceId(k), k]),
);

/** Which resources each controller may have mirrored: controller name → resource ids. */
export type AllowList = ReadonlyMap<string, ReadonlySet<string>>;

const POD = 'pods.v1';
const NS = 'namespaces.v1';
const PVC = 'persistentvolumeclaims.v1';
const REV = 'controllerrevisions.v1.apps';
const NODE = 'nodes.v1';
/** The ImagePullJobs a workload creates for image pre-download (it deletes them once its rollout is over). */
const PULL_JOB = 'imagepulljobs.v1beta1.apps.kruise.io';
const CRR = 'containerrecreaterequests.v1alpha1.apps.kruise.io';

/**
 * The kinds each Regatta controller reads, as OpenKruise's controllers watch them: one entry per name of runtime's
 * CONTROLLER_NAMES, no more, no less (the type says so). Only resourcedistribution may have Secrets mirrored (as a
 * keyed hash, never in clear; its ResourceDistributions' embedded Secrets likewise, libs/bus `trimForMirror`).
 */
const CONTROLLER_READS: Readonly<Record<ControllerName, readonly string[]>> = {
  cloneset: ['clonesets.v1alpha1.apps.kruise.io', POD, PVC, REV, NS, PULL_JOB],
  asts: ['statefulsets.v1beta1.apps.kruise.io', POD, PVC, REV, NS, PULL_JOB],
  ads: ['daemonsets.v1beta1.apps.kruise.io', POD, NODE, REV, NS, PULL_JOB],
  sidecarset: ['sidecarsets.v1alpha1.apps.kruise.io', POD, REV, NS],
  uniteddeployment: [
    'uniteddeployments.v1beta1.apps.kruise.io',
    'clonesets.v1alpha1.apps.kruise.io',
    'statefulsets.v1beta1.apps.kruise.io',
    'statefulsets.v1.apps',
    'deployments.v1.apps',
    POD, // the subsets' pods: status (updated pods) and adaptive scheduling (pending pods)
    REV,
    NS,
  ],
  resourcedistribution: ['resourcedistributions.v1beta1.apps.kruise.io', 'secrets.v1', 'configmaps.v1', NS],
  // the node agents register under imagepull: their recreate duty reads its node's ContainerRecreateRequests
  imagepull: [PULL_JOB, 'nodeimages.v1beta1.apps.kruise.io', NODE, POD, NS, CRR],
  advancedcronjob: ['advancedcronjobs.v1beta1.apps.kruise.io', 'jobs.v1.batch', 'broadcastjobs.v1beta1.apps.kruise.io', NS],
  broadcastjob: ['broadcastjobs.v1beta1.apps.kruise.io', POD, NODE, NS],
  containerrecreaterequest: [CRR, POD, NS],
  // the Cascading webhook counts a Namespace's active pods and Bound claims, a workload's active pods
  deletionprotection: [NS, POD, PVC],
  // the workloads whose replicas a budget counts (upstream's controller finder)
  podunavailablebudget: [
    'podunavailablebudgets.v1alpha1.policy.kruise.io',
    POD,
    'deployments.v1.apps',
    'replicasets.v1.apps',
    'statefulsets.v1.apps',
    'clonesets.v1alpha1.apps.kruise.io',
    'statefulsets.v1beta1.apps.kruise.io',
    NS,
  ],
  // the targets' replicas (maxReplicas as a percentage) and their ReplicaSets (a Deployment's pods)
  workloadspread: [
    'workloadspreads.v1alpha1.apps.kruise.io',
    POD,
    NODE,
    NS,
    'clonesets.v1alpha1.apps.kruise.io',
    'statefulsets.v1beta1.apps.kruise.io',
    'statefulsets.v1.apps',
    'deployments.v1.apps',
    'replicasets.v1.apps',
    'jobs.v1.batch',
  ],
};

export const DEFAULT_ALLOW_LIST: AllowList = new Map(
  Object.entries(CONTROLLER_READS).map(([c, ids]) => [c, new Set(ids)]),
);

/** A configuration value that cannot be used; the message says what to write instead. */
export class MirrorConfigError extends RegattaError {
  constructor(message: string) {
    super('REGATTA_MIRROR_CONFIG', message);
  }
}

/**
 * `REGATTA_MIRROR_ALLOW`: `controller=resource,resource;other=resource` — entries added to (or replacing, per
 * controller) the default allow-list. Every resource must be in the catalogue.
 */
export function parseAllowList(value: string | undefined, base: AllowList = DEFAULT_ALLOW_LIST): AllowList {
  const out = new Map(base);
  for (const entry of (value ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const controller = entry.slice(0, eq).trim();
    if (eq <= 0 || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(controller)) {
      throw new MirrorConfigError(
        `REGATTA_MIRROR_ALLOW entry ${JSON.stringify(entry)} is not controller=resource[,resource]`,
      );
    }
    const ids = entry
      .slice(eq + 1)
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    for (const id of ids) {
      if (!CATALOGUE.has(id)) {
        throw new MirrorConfigError(
          `REGATTA_MIRROR_ALLOW names ${id}, which the watcher cannot mirror; known: ${[...CATALOGUE.keys()].join(', ')}`,
        );
      }
    }
    out.set(controller, new Set(ids));
  }
  return out;
}

/** What the watcher is configured to mirror, from its environment. */
export interface MirrorConfig {
  allow: AllowList;
  /** HMAC key for Secrets' data; Secrets are refused when absent. */
  secretHashKey?: string;
}

/** Minimum length of REGATTA_SECRET_HASH_KEY: an HMAC key shorter than its hash weakens it. */
export const MIN_SECRET_HASH_KEY_LENGTH = 32;

/**
 * Reads `REGATTA_MIRROR_ALLOW` and the Secret hash key: `REGATTA_SECRET_HASH_KEY`, or the file named by
 * `REGATTA_SECRET_HASH_KEY_FILE` (a mounted Kubernetes Secret, say).
 */
export function readMirrorConfig(env: NodeJS.ProcessEnv = process.env): MirrorConfig {
  const file = env['REGATTA_SECRET_HASH_KEY_FILE'];
  const key = file ? readFileSync(file, 'utf8').trim() : env['REGATTA_SECRET_HASH_KEY'];
  if (key !== undefined && key.length < MIN_SECRET_HASH_KEY_LENGTH) {
    throw new MirrorConfigError(
      `the Secret hash key is ${key.length} characters; use at least ${MIN_SECRET_HASH_KEY_LENGTH} ` +
        '(e.g. `openssl rand -base64 32`)',
    );
  }
  return { allow: parseAllowList(env['REGATTA_MIRROR_ALLOW']), ...(key ? { secretHashKey: key } : {}) };
}
