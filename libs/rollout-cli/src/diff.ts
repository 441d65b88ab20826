/**
 * `regatta diff -f FILE`: before a change is applied, what each pod of a CloneSet, Advanced StatefulSet or Advanced
 * DaemonSet would go through — updated in place, recreated, kept by the partition, left alone — and which changed
 * fields force a recreate. The in-place decision is the controllers' own (libs/inplace-update
 * `calculateInPlaceUpdateSpec`, from the pod's revision to the new template's), under each kind's strategy:
 *
 * - CloneSet `spec.updateStrategy.type` ReCreate (default) / InPlaceIfPossible / InPlaceOnly; `partition` pods stay,
 *   chosen in the controller's update order (libs/rollout `sortUpdateIndexes`);
 * - Advanced StatefulSet `updateStrategy.type` OnDelete, or `rollingUpdate.podUpdatePolicy` as above; pods with an
 *   ordinal below `rollingUpdate.partition` stay;
 * - Advanced DaemonSet `updateStrategy.type` OnDelete, or `rollingUpdate.rollingUpdateType` InPlaceIfPossible (with
 *   `maxSurge` 0, on pods that carry the InPlaceUpdateReady gate); `partition` nodes stay, the last in the
 *   controller's order (nodes already updated first, then by name, descending: libs/ads `nodesToUpdate`).
 *
 * Feature gates are taken at their defaults (so a cpu/memory change that keeps the QoS class is a resize in place,
 * docs/adr/0087-in-place-resource-resize.md). docs/rollout-cli.md "Previewing a change".
 */
import {
  createJsonPatch,
  isPlainObject,
  jsonEqual,
  partitionOf,
  scaleKruise,
  type IntOrString,
} from '@regatta/kube';
import {
  calculateInPlaceUpdateSpec,
  hasInPlaceUpdateReadinessGate,
  readResourceOp,
  type InPlaceUpdateDecision,
} from '@regatta/inplace-update';
import type { Pod } from '@regatta/lifecycle';
import {
  isPodAtRevision,
  podRevision,
  templateRevisionData,
  type ControllerRevision as StoredRevision,
  type PodTemplate,
} from '@regatta/revision';
import { sortUpdateIndexes, type CloneSetUpdateStrategy } from '@regatta/rollout';
import type { ControllerRevision } from './history.js';
import type { Workload } from './progress.js';
import { revisionTemplate, templateMatches } from './undo.js';

export type DiffKind = 'CloneSet' | 'StatefulSet' | 'DaemonSet';

export interface DiffInput {
  kind: DiffKind;
  /** The object as the API server would store it (a dry-run update with the manifest's spec). */
  desired: Workload;
  /** The object as it is. */
  live: Workload;
  /** The live object's pods (not terminating). */
  pods: readonly Pod[];
  /** The ControllerRevisions the live object controls. */
  revisions: readonly ControllerRevision[];
}

export type PodAction = 'unchanged' | 'in place' | 'recreate' | 'kept' | 'on delete' | 'blocked';

export interface ImageChange {
  container: string;
  from: string;
  to: string;
}

export interface PodDiff {
  name: string;
  node: string;
  /** The pod's `controller-revision-hash`. */
  revision: string;
  action: PodAction;
  /** Why, in words (for recreate, kept, blocked, on delete). */
  reason?: string;
  /** Changed template fields that rule out an in-place update, `spec.template.…` paths. */
  fields: string[];
  images: ImageChange[];
  /** The template's labels/annotations change too (done in place). */
  metadata: boolean;
  /** cpu/memory requests and limits resized in place through `pods/resize` (docs/adr/0087). */
  resize: ResourceChange[];
}

export interface ResourceChange {
  container: string;
  /** e.g. `limits.cpu`. */
  resource: string;
  from: string;
  to: string;
}

export interface DiffPlan {
  kind: DiffKind;
  /** The strategy in the kind's words, e.g. `InPlaceIfPossible`, `OnDelete`. */
  strategy: string;
  /** Pods (nodes for a DaemonSet) the partition keeps at their revision. */
  partition: number;
  /** The existing revision the new template equals, or undefined for a new revision. */
  targetRevision: string | undefined;
  templateChanged: boolean;
  pods: PodDiff[];
  /** Every field that forces some pod to be recreated. */
  recreateFields: string[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** How pods move to the new template under the kind's strategy. */
interface Strategy {
  name: string;
  /** undefined: every pod is recreated (`reason`); 'onDelete': only when deleted. */
  inPlace: 'never' | 'ifPossible' | 'only' | 'onDelete';
  reason: string;
  /** DaemonSet: in place only for pods with the InPlaceUpdateReady readiness gate. */
  needsGate: boolean;
}

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === 0 || v === '0' || v === '0%';
}

function strategyOf(kind: DiffKind, spec: Obj): Strategy {
  const us = obj(spec['updateStrategy']);
  const ru = obj(us['rollingUpdate']);
  const policy = (p: unknown, where: string): Strategy => {
    const name = typeof p === 'string' && p !== '' ? p : 'ReCreate';
    const inPlace = name === 'InPlaceIfPossible' ? 'ifPossible' : name === 'InPlaceOnly' ? 'only' : 'never';
    return { name, inPlace, reason: `${where} is ${name}`, needsGate: false };
  };
  switch (kind) {
    case 'CloneSet':
      return policy(us['type'], 'updateStrategy.type');
    case 'StatefulSet':
      if (us['type'] === 'OnDelete')
        return { name: 'OnDelete', inPlace: 'onDelete', reason: '', needsGate: false };
      return policy(ru['podUpdatePolicy'], 'rollingUpdate.podUpdatePolicy');
    case 'DaemonSet': {
      if (us['type'] === 'OnDelete')
        return { name: 'OnDelete', inPlace: 'onDelete', reason: '', needsGate: false };
      const type = typeof ru['rollingUpdateType'] === 'string' ? ru['rollingUpdateType'] : 'Standard';
      if (type !== 'InPlaceIfPossible') {
        return {
          name: type,
          inPlace: 'never',
          reason: `rollingUpdate.rollingUpdateType is ${type}`,
          needsGate: false,
        };
      }
      if (!isZero(ru['maxSurge'])) {
        return { name: type, inPlace: 'never', reason: 'rollingUpdate.maxSurge is not 0', needsGate: false };
      }
      return { name: type, inPlace: 'ifPossible', reason: '', needsGate: true };
    }
  }
}

/** `/spec/containers/0/ports/1` → `spec.template.spec.containers[0].ports[1]`. */
export function fieldPath(pointer: string): string {
  let out = 'spec.template';
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(token)
      ? `[${token}]`
      : /^[A-Za-z_][\w-]*$/.test(token)
        ? `.${token}`
        : `[${JSON.stringify(token)}]`;
  }
  return out;
}

const IMAGE = /^\/spec\/containers\/\d+\/image$/;

/**
 * The template fields that rule out an in-place update from `from` to `to`, read as libs/inplace-update does: a
 * `replace` of a container image, of a cpu/memory request or limit (resized, unless the decision says the QoS class
 * would change) and any metadata change are done in place, every other change is not.
 */
export function recreateFields(
  from: PodTemplate,
  to: PodTemplate,
  decision?: InPlaceUpdateDecision,
): string[] {
  const fields: string[] = [];
  const qos = decision !== undefined && !decision.inPlace && decision.reason === 'QoSClassChanged';
  for (const op of createJsonPatch(from, to)) {
    if (op.path.startsWith('/metadata/') || (op.op === 'replace' && IMAGE.test(op.path))) continue;
    if (!qos && readResourceOp(op).ok) continue;
    fields.push(fieldPath(op.path));
  }
  return fields;
}

function resourceChanges(from: PodTemplate | undefined, decision: InPlaceUpdateDecision): ResourceChange[] {
  if (!decision.inPlace) return [];
  const containers = (obj(from?.spec)['containers'] ?? []) as {
    name?: string;
    resources?: Record<string, Record<string, unknown> | undefined>;
  }[];
  const out: ResourceChange[] = [];
  for (const [container, r] of Object.entries(decision.spec.containerResources ?? {})) {
    const before = containers.find((c) => c.name === container)?.resources;
    for (const kind of ['requests', 'limits'] as const)
      for (const [resource, to] of Object.entries(r[kind] ?? {}))
        out.push({
          container,
          resource: `${kind}.${resource}`,
          from: String(before?.[kind]?.[resource] ?? ''),
          to,
        });
  }
  return out;
}

function imageChanges(from: PodTemplate | undefined, decision: InPlaceUpdateDecision): ImageChange[] {
  if (!decision.inPlace) return [];
  const containers = (obj(from?.spec)['containers'] ?? []) as { name?: string; image?: string }[];
  return Object.entries(decision.spec.containerImages ?? {}).map(([container, to]) => ({
    container,
    from: containers.find((c) => c.name === container)?.image ?? '',
    to,
  }));
}

const ordinalOf = (name: string): number => {
  const m = /-(\d+)$/.exec(name);
  return m ? Number(m[1]) : -1;
};

/** The pods (not at the target revision) the partition keeps, by name. */
function keptByPartition(
  input: DiffInput,
  waiting: readonly Pod[],
  atTarget: number,
): { kept: Set<string>; partition: number } {
  const spec = obj(input.desired.spec);
  const us = obj(spec['updateStrategy']);
  const ru = obj(us['rollingUpdate']);
  const nameOf = (p: Pod) => p.metadata?.name ?? '';
  switch (input.kind) {
    case 'CloneSet': {
      const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 1;
      const partition = partitionOf(us['partition'] as IntOrString | undefined, replicas);
      const toUpdate = Math.max(0, replicas - partition - atTarget);
      const order = sortUpdateIndexes(
        waiting,
        waiting.map((_, i) => i),
        us as CloneSetUpdateStrategy,
      );
      return { kept: new Set(order.slice(toUpdate).map((i) => nameOf(waiting[i]!))), partition };
    }
    case 'StatefulSet': {
      const partition = typeof ru['partition'] === 'number' ? ru['partition'] : 0;
      return {
        kept: new Set(waiting.filter((p) => ordinalOf(nameOf(p)) < partition).map(nameOf)),
        partition,
      };
    }
    case 'DaemonSet': {
      const desiredNodes = new Set(input.pods.map((p) => p.spec?.nodeName ?? ''));
      const scheduled = obj(input.live.status)['desiredNumberScheduled'];
      const total = typeof scheduled === 'number' ? scheduled : desiredNodes.size;
      const partition =
        ru['partition'] == null ? 0 : Math.max(0, scaleKruise(ru['partition'] as IntOrString, total, false));
      const waitingNodes = new Set(waiting.map((p) => p.spec?.nodeName ?? ''));
      const updated = [...desiredNodes]
        .filter((n) => !waitingNodes.has(n))
        .sort()
        .reverse();
      const ordered = [...updated, ...[...waitingNodes].sort().reverse()];
      const keptNodes = new Set(ordered.slice(Math.max(ordered.length - partition, 0)));
      return {
        kept: new Set(waiting.filter((p) => keptNodes.has(p.spec?.nodeName ?? '')).map(nameOf)),
        partition,
      };
    }
  }
}

/** What applying `desired` would do to each pod of `live`. */
export function planDiff(input: DiffInput): DiffPlan {
  const spec = obj(input.desired.spec);
  const template = obj(spec['template']) as PodTemplate;
  const strategy = strategyOf(input.kind, spec);
  const existing = input.revisions.find((r) => templateMatches(input.desired, r));
  const target: StoredRevision = (existing as StoredRevision | undefined) ?? {
    metadata: { name: '' },
    data: templateRevisionData(template),
    revision: 0,
  };
  const targetName = existing?.metadata?.name;
  const atTarget = (p: Pod) => targetName !== undefined && isPodAtRevision(p, targetName);
  const pods = [...input.pods].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  const waiting = pods.filter((p) => !atTarget(p));
  const { kept, partition } = keptByPartition(input, waiting, pods.length - waiting.length);
  // gates at their defaults: InPlaceWorkloadVerticalScaling on (Kubernetes 1.35+ serves pods/resize)
  const options =
    input.kind === 'DaemonSet'
      ? { verticalScaling: true }
      : { ignoreVolumeClaimTemplatesHashDiff: true, verticalScaling: true };
  const union = new Set<string>();

  const diffs = pods.map((pod): PodDiff => {
    const name = pod.metadata?.name ?? '';
    const base = {
      name,
      node: pod.spec?.nodeName ?? '',
      revision: podRevision(pod),
      fields: [],
      images: [],
      metadata: false,
      resize: [],
    };
    if (atTarget(pod)) return { ...base, action: 'unchanged' };
    const own = input.revisions.find((r) => isPodAtRevision(pod, r.metadata?.name ?? '')) as
      | StoredRevision
      | undefined;
    const from = own ? (revisionTemplate(own) as PodTemplate | undefined) : undefined;
    const decision = calculateInPlaceUpdateSpec(own, target, options);
    const fields = from ? recreateFields(from, template, decision) : [];
    const detail = {
      ...base,
      fields: decision.inPlace ? [] : fields,
      images: imageChanges(from, decision),
      resize: resourceChanges(from, decision),
      metadata: decision.inPlace && decision.spec.metaDataPatch !== undefined,
    };
    if (kept.has(name)) return { ...base, action: 'kept', reason: `partition ${partition}` };
    if (strategy.inPlace === 'onDelete') {
      return {
        ...detail,
        action: 'on delete',
        reason: 'updateStrategy.type is OnDelete: recreated when deleted',
      };
    }
    const why = decision.inPlace ? '' : decision.message;
    if (strategy.inPlace === 'never')
      return track({ ...detail, action: 'recreate', reason: strategy.reason });
    if (strategy.needsGate && !hasInPlaceUpdateReadinessGate(pod)) {
      return track({
        ...detail,
        action: 'recreate',
        reason: 'the pod has no InPlaceUpdateReady readiness gate',
      });
    }
    if (decision.inPlace) return { ...detail, action: 'in place' };
    if (strategy.inPlace === 'only') {
      return track({
        ...detail,
        action: 'blocked',
        reason: `${strategy.name}: cannot update in place (${why})`,
      });
    }
    return track({ ...detail, action: 'recreate', reason: why });
  });

  function track(d: PodDiff): PodDiff {
    for (const f of d.fields) union.add(f);
    return d;
  }

  return {
    kind: input.kind,
    strategy: strategy.name,
    partition,
    targetRevision: targetName,
    templateChanged: !jsonEqual(obj(input.live.spec)['template'], spec['template']),
    pods: diffs,
    recreateFields: [...union],
  };
}
