/**
 * The cluster side of `regatta diff -f FILE`: for each workload in the file, read the live object, ask the API server
 * what it would store (a dry-run update with the manifest's spec, so defaulting and validation webhooks run), read
 * the pods and revisions, then print {@link planDiff}'s answer.
 */
import {
  BadRequestError,
  ForbiddenError,
  InvalidError,
  isPlainObject,
  NotFoundError,
  UnknownResourceError,
  type KubeObject,
  type LabelSelector,
} from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { RolloutContext } from './commands.js';
import { formatDiff } from './diff-format.js';
import { planDiff, type DiffKind } from './diff.js';
import { RolloutCliError, RolloutUsageError, WorkloadNotFoundError } from './errors.js';
import { ownedBy, type ControllerRevision } from './history.js';
import type { Workload } from './progress.js';

const TITLES: Record<DiffKind, string> = {
  CloneSet: 'CloneSet',
  StatefulSet: 'Advanced StatefulSet',
  DaemonSet: 'Advanced DaemonSet',
};

/** A manifest `regatta diff` can preview: an apps.kruise.io CloneSet, StatefulSet or DaemonSet with a name. */
export interface DiffTarget {
  kind: DiffKind;
  title: string;
  manifest: Workload & { apiVersion: string; kind: string };
  name: string;
}

/** A parsed document with what diff reads: apiVersion and kind, metadata.name, spec.template an object. */
function isManifest(doc: unknown): doc is DiffTarget['manifest'] {
  if (!isPlainObject(doc)) return false;
  const { apiVersion, kind, metadata, spec } = doc;
  return (
    typeof apiVersion === 'string' &&
    typeof kind === 'string' &&
    isPlainObject(metadata) &&
    typeof metadata['name'] === 'string' &&
    isPlainObject(spec) &&
    isPlainObject(spec['template'])
  );
}

/** Checks the documents of a file and keeps the workloads; throws a usage error for anything else. */
export function diffTargets(docs: readonly unknown[], file: string): DiffTarget[] {
  const targets: DiffTarget[] = [];
  docs.forEach((doc, i) => {
    if (doc == null) return; // an empty document (`---` at the end)
    const where = `${file}, document ${i + 1}`;
    if (!isPlainObject(doc)) throw new RolloutUsageError(`${where}: not an object`);
    const apiVersion = typeof doc['apiVersion'] === 'string' ? doc['apiVersion'] : '';
    const kind = typeof doc['kind'] === 'string' ? doc['kind'] : '';
    if (!apiVersion.startsWith('apps.kruise.io/') || !(kind in TITLES)) {
      throw new RolloutUsageError(
        `${where}: ${kind || '(no kind)'} ${apiVersion || '(no apiVersion)'} is not a workload diff can preview; ` +
          'use apps.kruise.io CloneSet, StatefulSet (Advanced StatefulSet) or DaemonSet (Advanced DaemonSet)',
      );
    }
    const metadata = doc['metadata'];
    const name = isPlainObject(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : '';
    if (!name) throw new RolloutUsageError(`${where}: ${kind} has no metadata.name`);
    if (!isPlainObject(doc['spec']) || !isPlainObject(doc['spec']['template'])) {
      throw new RolloutUsageError(`${where}: ${kind} ${JSON.stringify(name)} has no spec.template`);
    }
    if (!isManifest(doc))
      throw new RolloutUsageError(`${where}: ${kind} ${JSON.stringify(name)} is not a workload`);
    targets.push({ kind: kind as DiffKind, title: TITLES[kind as DiffKind], manifest: doc, name });
  });
  if (targets.length === 0) throw new RolloutUsageError(`${file} holds no workload`);
  return targets;
}

function refused(title: string, name: string, e: unknown): RolloutCliError {
  return new RolloutCliError(
    'REGATTA_DIFF_REFUSED',
    `the API server would refuse this ${title} ${JSON.stringify(name)}: ${(e as Error).message}`,
    1,
    { cause: e },
  );
}

/** Prints the preview of each workload (from {@link diffTargets}). */
export async function diffWorkloads(ctx: RolloutContext, targets: readonly DiffTarget[]): Promise<void> {
  for (const t of targets) {
    const namespace = t.manifest.metadata?.namespace ?? ctx.namespace;
    const ref = { apiVersion: t.manifest.apiVersion, kind: t.kind, namespace, name: t.name };
    let live: Workload;
    try {
      live = await ctx.client.get<Workload>(ref);
    } catch (e) {
      if (e instanceof UnknownResourceError) {
        throw new RolloutCliError(
          'REGATTA_ROLLOUT_KIND_NOT_SERVED',
          `the cluster does not serve ${t.kind} (${t.manifest.apiVersion}); is its CRD installed?`,
          1,
          { cause: e },
        );
      }
      if (e instanceof NotFoundError) {
        throw new WorkloadNotFoundError(t.title, t.name, namespace, { cause: e });
      }
      throw e;
    }
    let desired: Workload;
    try {
      desired = await ctx.client.replace<Workload>(
        {
          ...live,
          metadata: {
            ...live.metadata,
            labels: t.manifest.metadata?.labels ?? live.metadata?.labels ?? {},
            annotations: { ...live.metadata?.annotations, ...t.manifest.metadata?.annotations },
          },
          spec: t.manifest.spec ?? {},
        },
        { dryRun: true },
      );
    } catch (e) {
      if (e instanceof InvalidError || e instanceof ForbiddenError || e instanceof BadRequestError)
        throw refused(t.title, t.name, e);
      throw e;
    }
    const uid = live.metadata?.uid ?? '';
    const selector = (live.spec?.['selector'] ?? undefined) as LabelSelector | undefined;
    const [podList, revisionList] = await Promise.all([
      ctx.client.list<Pod & KubeObject>(
        { apiVersion: 'v1', kind: 'Pod', namespace },
        selector ? { labelSelector: selector } : {},
      ),
      ctx.client.list<ControllerRevision>({ apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace }),
    ]);
    const pods = podList.items.filter(
      (p) =>
        !p.metadata?.deletionTimestamp &&
        p.metadata?.ownerReferences?.some((o) => o.uid === uid && o.controller === true),
    );
    const plan = planDiff({ kind: t.kind, desired, live, pods, revisions: ownedBy(uid, revisionList.items) });
    ctx.out(`${formatDiff(t.title, t.name, plan)}\n`);
  }
}
