/**
 * Pull secrets synced for the per-node pullers (`pkg/controller/imagepulljob` classifyPullSecretsForJob,
 * claimImagePullJobSecrets, releaseImagePullJobSecrets), as pure plans. A puller cannot read secrets cluster-wide,
 * so each source secret is copied once into the daemon config namespace and shared by every job that uses it:
 * annotations `imagepulljobs.kruise.io/source-key` (the source), `…/references` (the jobs) and `…/mode: batch`.
 */
import { ImagePullJobKeys, SECRET_MODE_BATCH, type ImagePullJob, type ReferenceObject } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

export interface SecretLike extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** `<ns>/<name>` of a job or a secret. */
export const refKey = (r: { namespace?: string; name?: string }): string =>
  r.namespace ? `${r.namespace}/${r.name ?? ''}` : (r.name ?? '');

export function jobKey(job: ImagePullJob): string {
  return refKey({ namespace: job.metadata?.namespace ?? '', name: job.metadata?.name ?? '' });
}

/** The jobs a synced copy is used by (its `references` annotation); malformed entries are ignored. */
export function referencingJobs(secret: SecretLike): Set<string> {
  const value = secret.metadata?.annotations?.[ImagePullJobKeys.References] ?? '';
  return new Set(
    value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '' && s.split('/').length <= 2 && !s.startsWith('/') && !s.endsWith('/')),
  );
}

export function referencesValue(jobs: Iterable<string>): string {
  return [...jobs].sort().join(',');
}

/** The source (`<ns>/<name>`) of a synced copy. */
export function sourceKeyOf(secret: SecretLike): string {
  return secret.metadata?.annotations?.[ImagePullJobKeys.SourceKey] ?? '';
}

const isFinished = (job: ImagePullJob) => !!job.metadata?.deletionTimestamp || !!job.status?.completionTime;

export interface SecretClassification {
  /** Source key (`<ns>/<name>`) → the synced copy to reuse, or undefined (create one). */
  desired: Map<string, SecretLike | undefined>;
  /** Copies this job references but no longer wants (or every copy it references once finished/deleting). */
  released: SecretLike[];
}

/**
 * Classifies the copies in the daemon config namespace for `job`: copies being deleted are ignored; for each wanted
 * source the copy already referencing the job wins, else the first by name; copies the job references but no longer
 * wants are released. A completed or deleting job wants none.
 */
export function classifySecrets(job: ImagePullJob, synced: readonly SecretLike[]): SecretClassification {
  const me = jobKey(job);
  const desired = new Map<string, SecretLike | undefined>();
  if (!isFinished(job)) {
    for (const name of job.spec.pullSecrets ?? []) desired.set(refKey({ namespace: job.metadata?.namespace ?? '', name }), undefined);
  }
  const released: SecretLike[] = [];
  const sorted = [...synced].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  for (const s of sorted) {
    if (s.metadata?.deletionTimestamp) continue;
    const refs = referencingJobs(s);
    if (isFinished(job)) {
      if (refs.has(me)) released.push(s);
      continue;
    }
    const source = sourceKeyOf(s);
    if (desired.has(source)) {
      if (desired.get(source) === undefined || refs.has(me)) desired.set(source, s);
      continue;
    }
    if (refs.has(me)) released.push(s);
  }
  return { desired, released };
}

/** What releasing a copy means: delete it when no other job uses it, else drop this job from its references. */
export type ReleaseAction = { type: 'delete'; secret: SecretLike } | { type: 'update'; secret: SecretLike };

export function releaseActions(job: ImagePullJob, released: readonly SecretLike[]): ReleaseAction[] {
  const me = jobKey(job);
  const out: ReleaseAction[] = [];
  for (const s of released) {
    if (s.metadata?.deletionTimestamp) continue;
    const refs = referencingJobs(s);
    refs.delete(me);
    if (refs.size === 0) {
      out.push({ type: 'delete', secret: s });
      continue;
    }
    out.push({
      type: 'update',
      secret: {
        ...s,
        metadata: {
          ...s.metadata,
          annotations: { ...s.metadata?.annotations, [ImagePullJobKeys.References]: referencesValue(refs) },
        },
      },
    });
  }
  return out;
}

/** A new synced copy of `source` for `job` in `namespace`, named `<source>-<suffix>` (6 random hex chars). */
export function newSyncedSecret(source: SecretLike, job: ImagePullJob, namespace: string, suffix: string): SecretLike {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      namespace,
      name: `${source.metadata?.name ?? ''}-${suffix}`,
      ...(source.metadata?.labels ? { labels: { ...source.metadata.labels } } : {}),
      annotations: {
        ...source.metadata?.annotations,
        [ImagePullJobKeys.References]: jobKey(job),
        [ImagePullJobKeys.SourceKey]: refKey({ namespace: source.metadata?.namespace ?? '', name: source.metadata?.name ?? '' }),
        [ImagePullJobKeys.Mode]: SECRET_MODE_BATCH,
      },
    },
    ...(source.type ? { type: source.type } : {}),
    ...(source.data ? { data: { ...source.data } } : {}),
  };
}

/**
 * The synced copy with the source's data and this job in its references, or `undefined` when it already is so.
 */
export function claimedSecret(synced: SecretLike, source: SecretLike, job: ImagePullJob): SecretLike | undefined {
  const refs = referencingJobs(synced);
  refs.add(jobKey(job));
  const references = referencesValue(refs);
  const sameData = JSON.stringify(synced.data ?? {}) === JSON.stringify(source.data ?? {});
  if (sameData && synced.metadata?.annotations?.[ImagePullJobKeys.References] === references) return undefined;
  const out: SecretLike = {
    ...synced,
    metadata: { ...synced.metadata, annotations: { ...synced.metadata?.annotations, [ImagePullJobKeys.References]: references } },
  };
  if (source.data) out.data = { ...source.data };
  else delete out.data;
  return out;
}

/** The NodeImage secret reference of a synced copy. */
export function secretRefOf(secret: SecretLike): ReferenceObject {
  const mode = secret.metadata?.annotations?.[ImagePullJobKeys.Mode];
  return {
    namespace: secret.metadata?.namespace ?? '',
    name: secret.metadata?.name ?? '',
    ...(mode ? { mode } : {}),
  };
}
