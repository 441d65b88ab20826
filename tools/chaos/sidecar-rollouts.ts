// R1's SidecarSet rollouts, the pure parts (docs/reliability-checks.md, R1): the plans (a cold in-place sidecar image change,
// in partition steps, canaries first, or with a scale-up of the pods' CloneSet while the SidecarSet program is down),
// the SidecarSet each rollout creates, the limits of each phase, and how the checker sees a pod: its revision is its
// `kruise.io/sidecarset-hash` entry for the SidecarSet, it is available when Ready with every sidecar running the
// image its spec names (a sidecar being upgraded counts against maxUnavailable, OpenKruise
// pkg/controller/sidecarset/sidecarset_strategy.go), and it must never lack a sidecar (docs/sidecarset.md, blast
// radius). The SidecarSet's maxUnavailable is of its matched pods, a percentage rounded up (libs/sidecarset).
import { SidecarSetAnnotations, type Pod } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { viewOf, type Bounds, type PodView } from './checker.js';
import { absolute, rolloutPlans, type RolloutPlan } from './schedule.js';

/**
 * `in-place`: the sidecars' images; `partition`: the same released in partition steps; `scale`: with a scale-up;
 * `canary`: first to the pods an `updateStrategy.selector` picks (a label the suite gives a quarter of them), then,
 * the selector removed, to all.
 */
export const SIDECAR_CHANGES = ['in-place', 'partition', 'scale', 'canary'] as const;
export type SidecarChange = (typeof SIDECAR_CHANGES)[number];
/** The label of the canary pods, `"true"`. */
export const CANARY_LABEL = 'chaos-canary';

export interface SidecarPlan extends Omit<RolloutPlan, 'change'> {
  change: SidecarChange;
  /** The SidecarSet's sidecars, 1 or 2 (each change kind gets both counts in turn). */
  sidecars: number;
  /** `canary`: how many pods get the canary label (updated first); 0 otherwise. */
  canary: number;
}

/**
 * The SidecarSet's own plans from R1's (schedule.ts rolloutPlans, a canary drawn as an in-place change): a scale
 * change is always up.
 */
export function sidecarPlans(seed: number, count: number, pods: [number, number]): SidecarPlan[] {
  const drawnAs = ['in-place', 'partition', 'scale', 'in-place'] as const;
  return rolloutPlans(seed, count, pods, { changes: drawnAs }).map((p) => {
    const change = SIDECAR_CHANGES[p.index % SIDECAR_CHANGES.length] ?? 'in-place';
    return {
      ...p,
      change,
      scaleTo: p.replicas + Math.abs(p.scaleTo - p.replicas),
      maxSurge: 0,
      sidecars: 1 + (Math.floor(p.index / SIDECAR_CHANGES.length) % 2),
      canary: change === 'canary' ? Math.ceil(p.replicas / 4) : 0,
    };
  });
}

export const sidecarNames = (plan: SidecarPlan): string[] =>
  Array.from({ length: plan.sidecars }, (_, i) => `sidecar-${i}`);

/** The SidecarSet of `plan`'s rollout, selecting the pods labelled `app: <app>`, its sidecars at `image`. */
export function sidecarSetObject(plan: SidecarPlan, name: string, app: string, image: string): KubeObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app } },
      containers: sidecarNames(plan).map((n) => ({
        name: n,
        image,
        podInjectPolicy: 'AfterAppContainer',
        upgradeStrategy: { upgradeType: 'ColdUpgrade' },
      })),
      updateStrategy: {
        type: 'RollingUpdate',
        maxUnavailable: plan.maxUnavailable,
        // a partition rollout starts with every pod kept (its first step is the image change alone)
        ...(plan.change === 'partition' ? { partition: plan.replicas } : {}),
      },
    },
  } as KubeObject;
}

/** The JSON patch of the sidecars' images (a canary's: with the selector of the canary pods). */
export const imageOps = (plan: SidecarPlan, image: string): unknown[] => [
  ...sidecarNames(plan).map((_, i) => ({ op: 'replace', path: `/spec/containers/${i}/image`, value: image })),
  ...(plan.change === 'canary'
    ? [
        {
          op: 'add',
          path: '/spec/updateStrategy/selector',
          value: { matchLabels: { [CANARY_LABEL]: 'true' } },
        },
      ]
    : []),
];

/** The partition in force when a rollout begins: all pods kept (partition steps), all but the canaries, or none. */
export function firstPartition(plan: SidecarPlan): number | undefined {
  if (plan.change === 'partition') return plan.replicas;
  if (plan.change === 'canary') return plan.replicas - plan.canary;
  return undefined;
}

/**
 * The limits of a phase, `partition` in force (undefined: none): maxUnavailable of the matched pods (the loosest of
 * the two counts of a scale-up), no pod beyond the CloneSet's replicas, none created but the scale-up's, none
 * deleted, at most matched − partition pods at a new revision.
 */
export function sidecarBounds(
  plan: Pick<SidecarPlan, 'replicas' | 'scaleTo' | 'maxUnavailable'>,
  partition: number | undefined,
): Bounds {
  const { replicas: n, scaleTo: n2 } = plan;
  const unavail = (r: number) => absolute(plan.maxUnavailable, r, true);
  return {
    minAvailable: Math.min(n, n2) - Math.max(unavail(n), unavail(n2)),
    maxPods: Math.max(n, n2),
    inPlace: { creates: Math.max(0, n2 - n), deletes: Math.max(0, n - n2) },
    ...(partition !== undefined ? { partition: { maxUpdated: Math.max(0, n2 - partition) } } : {}),
  };
}

const HASH = SidecarSetAnnotations.Hash;

/** The pod's `kruise.io/sidecarset-hash` entry for `set` (its sidecar revision), '' when none or unreadable. */
export function sidecarRevision(p: Pod, set: string): string {
  const raw = p.metadata?.annotations?.[HASH];
  if (!raw) return '';
  try {
    const entry = (JSON.parse(raw) as Record<string, { hash?: unknown } | undefined>)[set];
    return typeof entry?.hash === 'string' ? entry.hash : '';
  } catch {
    return '';
  }
}

/**
 * How the checker sees a pod of the CloneSet the SidecarSet `set` selects (every pod of its namespace): revision
 * its sidecar revision, image its sidecars' images, available only when Ready with each sidecar ready at the image
 * its spec names, `lacks` the sidecars it has not got. Identity: the CloneSet's instance id.
 */
export function sidecarPodView(set: string, sidecars: readonly string[]): (p: Pod) => PodView {
  return (p) => {
    const v = viewOf(p);
    const spec = new Map((p.spec?.containers ?? []).map((c) => [c.name, c.image ?? '']));
    const status = new Map((p.status?.containerStatuses ?? []).map((c) => [c.name, c]));
    const settled = sidecars.every((s) => {
      const st = status.get(s);
      return st?.ready === true && st.image === spec.get(s);
    });
    const lacks = sidecars.filter((s) => !spec.has(s));
    return {
      ...v,
      available: v.available && settled,
      revision: sidecarRevision(p, set),
      image: sidecars.map((s) => spec.get(s) ?? '').join(','),
      ...(lacks.length ? { lacks } : {}),
    };
  };
}

/** The pods at the end that do not run every sidecar at `image`, available (PodView.image, sidecarPodView). */
export function notAtImage(pods: readonly PodView[], sidecars: number, image: string): string[] {
  const want = Array.from({ length: sidecars }, () => image).join(',');
  return pods.filter((p) => p.image !== want || !p.available).map((p) => p.name);
}

/** A SidecarSet's status counters as the check reads them. */
export interface SidecarStatus {
  observedGeneration?: number;
  matchedPods?: number;
  updatedPods?: number;
  readyPods?: number;
  updatedReadyPods?: number;
}

export const sidecarStatus = (o: KubeObject): SidecarStatus =>
  (o as KubeObject & { status?: SidecarStatus }).status ?? {};

/** A partition step done: `generation` observed, at least `updated` pods at it and ready, all `n` matched. */
export function sidecarStepDone(o: KubeObject, generation: number, updated: number, n: number): boolean {
  const s = sidecarStatus(o);
  return (
    (s.observedGeneration ?? 0) >= generation &&
    s.matchedPods === n &&
    (s.updatedPods ?? 0) >= updated &&
    (s.updatedReadyPods ?? 0) >= updated
  );
}
