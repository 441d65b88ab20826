// The independent checker (docs/reliability.md, docs/adr/0043): the invariants of a rollout, judged from the pods a
// watch on the API server delivers, never from the bus or a controller's own view. Pure: it is fed observations
// (a list, an upsert, a delete, each with its time) and says what it saw; the caller owns the watch.
import { Labels, type Pod } from '@regatta/api';

/** What a pod is, as far as the invariants go. */
export interface PodView {
  uid: string;
  name: string;
  /** Ready condition True and no deletionTimestamp. */
  available: boolean;
  terminating: boolean;
  /** `controller-revision-hash` (the workload's revision of the pod; CloneSet, StatefulSet and DaemonSet alike). */
  revision: string;
  /**
   * What no two live pods of the workload may share (workloads/*.ts): a CloneSet's
   * `apps.kruise.io/cloneset-instance-id`, an Advanced StatefulSet's ordinal, an Advanced DaemonSet's node.
   * Empty: not checked.
   */
  identity: string;
  /** The first container's image in the spec (what an in-place update changes). */
  image: string;
  /**
   * The part of its workload the pod belongs to (a UnitedDeployment's subset), judged against `Bounds.groups`; empty
   * for single workloads.
   */
  group: string;
  /** The node it is bound to (`spec.nodeName`), empty while pending. */
  node: string;
  /** Containers the pod must have and lacks (R1's SidecarSet rollouts: a selected pod's sidecars); judged always. */
  lacks?: string[];
}

const INSTANCE_ID = Labels.CloneSetInstanceId;
const REVISION = Labels.ControllerRevisionHash;

/** A pod's identity in its workload (PodView.identity); a CloneSet's instance id unless told otherwise. */
export type IdentityOf = (p: Pod) => string;
export const cloneSetInstanceId: IdentityOf = (p) => p.metadata?.labels?.[INSTANCE_ID] ?? '';

/** How the pods of one namespace are read (workloads/*.ts); each part defaults to a single CloneSet's reading. */
export interface PodReading {
  identity?: IdentityOf;
  /** PodView.group: a UnitedDeployment's subset (`apps.kruise.io/subset-name`); none by default. */
  group?: (p: Pod) => string;
  /** The label holding the revision (`controller-revision-hash` by default). */
  revisionLabel?: string;
}

export function viewOf(p: Pod, reading: PodReading = {}): PodView {
  const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const terminating = !!p.metadata?.deletionTimestamp;
  return {
    uid: p.metadata?.uid ?? '',
    name: p.metadata?.name ?? '',
    available: ready && !terminating,
    terminating,
    revision: p.metadata?.labels?.[reading.revisionLabel ?? REVISION] ?? '',
    identity: (reading.identity ?? cloneSetInstanceId)(p),
    image: p.spec?.containers?.[0]?.image ?? '',
    group: reading.group?.(p) ?? '',
    node: p.spec?.nodeName ?? '',
  };
}

/** The limits a phase of a rollout must keep (absolute numbers). */
export interface Bounds {
  /** At least `minAvailable` pods available at every moment (replicas − maxUnavailable). */
  minAvailable: number;
  /** At most `maxPods` pods not being deleted at every moment (replicas + maxSurge). */
  maxPods: number;
  /** In-place expected: creates and deletes beyond these counts are recreates. Undefined: not checked. */
  inPlace?: { creates: number; deletes: number };
  /**
   * The partition in force: a pod is updated when its revision is none the pods had when checking began.
   * `maxUpdated`: at most this many live pods updated (a CloneSet's partition keeps `partition` pods old).
   * `oldBelow`: no live pod whose identity is an ordinal below it updated (an Advanced StatefulSet's partition).
   */
  partition?: { maxUpdated?: number; oldBelow?: number };
  /** Live pods one identity may have (default 1; a DaemonSet surging: 2 on a node). */
  perIdentity?: number;
  /** Identities are ordinals below this (an Advanced StatefulSet's `replicas`, no reserved ordinals). */
  ordinalsBelow?: number;
  /**
   * Workloads within the workload (a UnitedDeployment's subsets): each group's pods are held to its own bounds as
   * well (their `groups` and `placement` ignored), identities compared within a group only. A pod of a group not
   * listed is a `placement` violation.
   */
  groups?: Record<string, Bounds>;
  /** The nodes each group's pods may be bound to (a subset's node selector); a pod bound elsewhere is a violation. */
  placement?: Record<string, readonly string[]>;
}

export type ViolationKind =
  | 'unavailable'
  | 'surge'
  | 'recreate'
  /** More live pods with one identity than allowed (instance id, ordinal, node), or an ordinal out of range. */
  | 'duplicate-identity'
  /** A pod updated that the partition keeps at its old revision. */
  | 'partition'
  /** A pod bound to a node its group (a UnitedDeployment's subset) does not select, or of no known group. */
  | 'placement'
  /** A UnitedDeployment's subset replicas not as its allocation says (docs/uniteddeployment.md). */
  | 'allocation'
  | 'incomplete'
  | 'status'
  | 'trace'
  /** R5: a bus credential did what its role must not (or failed what it needs). */
  | 'privilege'
  /** R5: a Secret's data in a bus value. */
  | 'secret'
  /** R5: a program listening where it was not configured to. */
  | 'listen'
  /** R2: a rejection without a field path, a hung request, an invalid object accepted. */
  | 'admission'
  /** R2: a program crashed on an admitted object. */
  | 'crash'
  /** R2: a program logged an error only a defect in its code throws (a TypeError and the like, r2-requests.ts). */
  | 'defect'
  /** R2: an accepted object neither reconciled nor refused by its controller's guard within 2 min (r2-unreconciled.ts). */
  | 'unreconciled'
  /** R2: the first half's namespace not gone long after its delete (its objects' finalizers left in place). */
  | 'deletion'
  /** R2, webhooks removed: an invalid stored object acted on, or not refused with an event naming a field. */
  | 'stored-invalid'
  /** R2, agent nodes: an admitted NodeImage without a status from its node agent counting its spec. */
  | 'agent-status'
  /** R1: the watcher's mirror on the bus did not come to agree with the API server. */
  | 'mirror'
  /** R1 (SidecarSet): a selected pod without its sidecars (PodView.lacks), whenever it was seen. */
  | 'no-sidecar'
  /** R6: a restarted program wrote some pod more often than the in-place protocol does (r6-writes.ts). */
  | 'writes'
  /** R7: a bad bus value not set aside and counted, a cache left out of sync, or the bad value never repaired. */
  | 'bus'
  /** R9: a leader paused past its lease wrote after it resumed (a zombie: a successor already led). */
  | 'zombie'
  /** The check's fault was not produced (R4: no create the watcher missed), so nothing was tested: rerun. */
  | 'no-fault';

export interface Violation {
  kind: ViolationKind;
  /** ms (the caller's clock) of the first occurrence, and how many observations broke it. */
  at: number;
  count: number;
  detail: string;
}

/**
 * The pods of one workload, and every invariant broken while checking was on (`begin` … `end`). Observations
 * arrive in watch order; a relist (`list`) replaces the state at once and is not judged as a sequence of changes.
 */
export class InvariantChecker {
  private readonly pods = new Map<string, PodView>();
  private readonly found = new Map<string, Violation>();
  private bounds: Bounds | undefined;
  /** Pods present when checking began (in-place: none of them may be deleted beyond the allowance). */
  private baseline = new Set<string>();
  /** The revisions of the pods present when checking began (any other is an update). */
  private baseRevisions = new Set<string>();
  /** uid → group of the pods created, and of the baseline pods deleted, since checking began. */
  private readonly createdSince = new Map<string, string>();
  private readonly deletedSince = new Map<string, string>();
  /** Lowest available count and highest active count seen while checking. */
  minAvailableSeen = Infinity;
  maxPodsSeen = 0;
  /** When a controller last acted on a pod (create, delete, revision or image change), caller's clock. */
  lastActionAt = -Infinity;
  /** Every time a controller acted on a pod, in order (recovery times are measured from these). */
  readonly actions: number[] = [];
  /** When each pod (uid) was first observed. */
  readonly firstSeen = new Map<string, number>();

  get violations(): Violation[] {
    return [...this.found.values()];
  }

  get creates(): number {
    return this.createdSince.size;
  }

  get deletes(): number {
    return this.deletedSince.size;
  }

  /** The current pods (not being deleted). */
  active(): PodView[] {
    return [...this.pods.values()].filter((p) => !p.terminating);
  }

  /** Starts checking against `bounds` from the current state. */
  begin(bounds: Bounds, at: number): void {
    this.bounds = bounds;
    const live = [...this.pods.values()].filter((p) => !p.terminating);
    this.baseline = new Set(live.map((p) => p.uid));
    this.baseRevisions = new Set(live.map((p) => p.revision));
    this.createdSince.clear();
    this.deletedSince.clear();
    this.judge(at);
  }

  /** New limits for the next phase (a partition step, a scale change); the in-place baseline stays. */
  setBounds(bounds: Bounds, at: number): void {
    this.bounds = bounds;
    this.judge(at);
  }

  end(): void {
    this.bounds = undefined;
  }

  /** Records a violation found outside the pod stream (completion, status, trace). */
  report(kind: ViolationKind, at: number, detail: string): void {
    this.add(kind, at, detail);
  }

  list(pods: PodView[], at: number): void {
    const seen = new Set(pods.map((p) => p.uid));
    for (const uid of this.pods.keys()) if (!seen.has(uid)) this.gone(uid, at);
    for (const p of pods) this.apply(p, at);
    this.judge(at);
  }

  upsert(p: PodView, at: number): void {
    this.apply(p, at);
    this.judge(at);
  }

  remove(uid: string, at: number): void {
    this.gone(uid, at);
    this.judge(at);
  }

  private apply(p: PodView, at: number): void {
    const before = this.pods.get(p.uid);
    this.pods.set(p.uid, p);
    if (!this.firstSeen.has(p.uid)) this.firstSeen.set(p.uid, at);
    if (p.lacks?.length) this.add('no-sidecar', at, `${p.name} (${p.uid}) lacks ${p.lacks.join(', ')}`);
    const acted =
      !before ||
      (p.terminating && !before.terminating) ||
      before.revision !== p.revision ||
      before.image !== p.image;
    if (!acted) return;
    this.action(at);
    if (!this.bounds) return;
    if (!before) this.createdSince.set(p.uid, p.group);
    if (p.terminating && this.baseline.has(p.uid)) this.deletedSince.set(p.uid, p.group);
  }

  private gone(uid: string, at: number): void {
    const before = this.pods.get(uid);
    if (!before) return;
    this.pods.delete(uid);
    if (!before.terminating) this.action(at);
    if (this.bounds && this.baseline.has(uid)) this.deletedSince.set(uid, before.group);
  }

  private action(at: number): void {
    this.lastActionAt = at;
    this.actions.push(at);
  }

  private judge(at: number): void {
    const b = this.bounds;
    if (!b) return;
    const active = this.active();
    const available = active.filter((p) => p.available).length;
    this.minAvailableSeen = Math.min(this.minAvailableSeen, available);
    this.maxPodsSeen = Math.max(this.maxPodsSeen, active.length);
    this.judgeSet(b, active, undefined, at);
    if (!b.groups) return;
    for (const [g, gb] of Object.entries(b.groups))
      this.judgeSet(
        gb,
        active.filter((p) => p.group === g),
        g,
        at,
      );
    for (const p of active) {
      const allowed = b.placement?.[p.group];
      if (!(p.group in b.groups))
        this.add('placement', at, `${p.name} belongs to no group (${p.group || 'none'})`, p.group);
      else if (p.node && allowed && !allowed.includes(p.node))
        this.add(
          'placement',
          at,
          `${p.name} of ${p.group} on ${p.node}, not one of ${allowed.join(', ')}`,
          p.group,
        );
    }
  }

  /** `active` (the whole workload's, or group `g`'s pods) against `b`; identities only within a group. */
  private judgeSet(b: Bounds, active: PodView[], g: string | undefined, at: number): void {
    const of = g === undefined ? '' : `${g}: `;
    const available = active.filter((p) => p.available).length;
    if (available < b.minAvailable)
      this.add('unavailable', at, `${of}${available} pods available, at least ${b.minAvailable} required`, g);
    if (active.length > b.maxPods)
      this.add('surge', at, `${of}${active.length} pods, at most ${b.maxPods} allowed`, g);
    if (b.inPlace) {
      const count = (m: Map<string, string>) =>
        g === undefined ? m.size : [...m.values()].filter((x) => x === g).length;
      const [created, deleted] = [count(this.createdSince), count(this.deletedSince)];
      if (created > b.inPlace.creates)
        this.add('recreate', at, `${of}${created} pods created, ${b.inPlace.creates} allowed (in place)`, g);
      if (deleted > b.inPlace.deletes)
        this.add('recreate', at, `${of}${deleted} pods deleted, ${b.inPlace.deletes} allowed (in place)`, g);
    }
    if (b.partition) this.judgePartition(b.partition, active, of, g, at);
    if (b.groups) return;
    const byId = new Map<string, string[]>();
    for (const p of active) {
      if (!p.identity) continue;
      if (b.ordinalsBelow !== undefined && !(Number(p.identity) < b.ordinalsBelow))
        this.add(
          'duplicate-identity',
          at,
          `${of}ordinal ${p.identity} of ${p.name}, below ${b.ordinalsBelow} expected`,
        );
      const names = [...(byId.get(p.identity) ?? []), p.name];
      byId.set(p.identity, names);
      if (names.length > (b.perIdentity ?? 1))
        this.add('duplicate-identity', at, `${of}identity ${p.identity} on ${names.join(' and ')}`);
    }
  }

  private judgePartition(
    pt: NonNullable<Bounds['partition']>,
    active: PodView[],
    of: string,
    g: string | undefined,
    at: number,
  ): void {
    const updated = active.filter((p) => !this.baseRevisions.has(p.revision));
    if (pt.maxUpdated !== undefined && updated.length > pt.maxUpdated)
      this.add(
        'partition',
        at,
        `${of}${updated.length} pods updated, the partition allows ${pt.maxUpdated}`,
        g,
      );
    const below = pt.oldBelow;
    if (below === undefined) return;
    const early = updated.filter((p) => Number(p.identity) < below).map((p) => p.name);
    if (early.length > 0)
      this.add('partition', at, `${of}${early.join(', ')} updated below partition ${below}`, g);
  }

  /** One entry per kind (per group: `g`), counting its occurrences; each duplicated identity an entry of its own. */
  private add(kind: ViolationKind, at: number, detail: string, g?: string): void {
    const key = `${kind}:${g ?? ''}:${kind === 'duplicate-identity' ? detail : ''}`;
    const v = this.found.get(key);
    if (v) v.count++;
    else this.found.set(key, { kind, at, count: 1, detail });
  }
}

/**
 * Time to recover from each fault: from the fault to the first controller action on a pod after the faulted
 * process was back (or to the rollout's end if nothing was left to do). Faults with no later action or end are left
 * out (undefined).
 */
export function recoveryTimes(
  faults: { at: number; backAt: number }[],
  actions: readonly number[],
  doneAt: number | undefined,
): (number | undefined)[] {
  return faults.map((f) => {
    const next = actions.find((a) => a >= f.backAt);
    const end = next ?? (doneAt !== undefined && doneAt >= f.at ? doneAt : undefined);
    return end === undefined ? undefined : Math.max(0, end - f.at);
  });
}
