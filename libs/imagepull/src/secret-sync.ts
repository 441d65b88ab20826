/**
 * The ImagePullJob controller's pull-secret writes (`syncJobPullSecrets`): the pure plans of `secrets.ts` carried
 * out against the API server. Secrets are never mirrored on the bus (their data is read here, from the API server
 * only); the daemon config namespace is created when a copy is to be made there and it is missing (OpenKruise's
 * chart creates it at install time).
 */
import { randomBytes } from 'node:crypto';
import type { ImagePullJob, ReferenceObject } from '@regatta/api';
import { isAlreadyExists, isNotFound, type KubeClient } from '@regatta/kube';
import type { Logger } from '@regatta/runtime';
import { ImagePullError } from './errors.js';
import {
  classifySecrets,
  claimedSecret,
  newSyncedSecret,
  releaseActions,
  secretRefOf,
  type SecretLike,
} from './secrets.js';

const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;
const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace' } as const;

export interface SecretSyncDeps {
  client: Pick<KubeClient, 'get' | 'getOrUndefined' | 'list' | 'create' | 'replace' | 'delete'>;
  namespace: string;
  log: Logger;
  randomSuffix?: () => string;
}

const finishing = (job: ImagePullJob) => !!job.metadata?.deletionTimestamp || !!job.status?.completionTime;

/** Claims the synced copies this job needs (creating or refreshing them) and releases the others; their refs. */
export async function syncJobPullSecrets(job: ImagePullJob, d: SecretSyncDeps): Promise<ReferenceObject[]> {
  if ((job.spec.pullSecrets ?? []).length === 0 && !finishing(job)) return [];
  const ns = job.metadata?.namespace ?? '';
  if (ns === d.namespace) return (job.spec.pullSecrets ?? []).map((name) => ({ namespace: ns, name }));
  // listing a namespace that does not exist gives no items; it is made only for a copy to create, so a finishing
  // job (most often a deleted one) costs one list and its releases (docs/reliability.md finding 29)
  const synced = (await d.client.list<SecretLike>({ ...SECRET, namespace: d.namespace })).items;
  const { desired, released } = classifySecrets(job, synced);
  for (const a of releaseActions(job, released)) {
    const ref = { ...SECRET, namespace: d.namespace, name: a.secret.metadata?.name ?? '' };
    if (a.type === 'delete') await d.client.delete(ref).catch(ignoreNotFound);
    else await d.client.replace(a.secret).catch(ignoreNotFound);
  }
  const refs: ReferenceObject[] = [];
  let namespaceReady: Promise<void> | undefined; // read (or made) once, before the first copy is created
  for (const [sourceKey, copy] of desired) {
    const [sourceNs, sourceName] = sourceKey.split('/') as [string, string];
    const source = await d.client.getOrUndefined<SecretLike>({ ...SECRET, namespace: sourceNs, name: sourceName });
    if (!source) {
      d.log.warn({ job: `${ns}/${job.metadata?.name}`, secret: sourceKey }, 'pull secret not found; skipped');
      continue;
    }
    if (!copy) {
      await (namespaceReady ??= ensureNamespace(d));
      const suffix = (d.randomSuffix ?? (() => randomBytes(3).toString('hex')))();
      const created = await d.client.create(newSyncedSecret(source, job, d.namespace, suffix));
      refs.push(secretRefOf(created));
      continue;
    }
    refs.push(secretRefOf(copy));
    const update = claimedSecret(copy, source, job);
    if (update) await d.client.replace(update);
  }
  return refs;
}

async function ensureNamespace(d: SecretSyncDeps): Promise<void> {
  const ns = await d.client.getOrUndefined({ ...NAMESPACE, name: d.namespace });
  if (ns?.metadata?.deletionTimestamp)
    throw new ImagePullError('REGATTA_IMAGEPULL_CONFIG_NAMESPACE', `namespace(${d.namespace}) is being deleted`);
  if (ns) return;
  await d.client.create({ ...NAMESPACE, metadata: { name: d.namespace } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
}

function ignoreNotFound(e: unknown): undefined {
  if (isNotFound(e)) return undefined;
  throw e;
}
