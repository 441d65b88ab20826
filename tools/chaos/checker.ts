// The independent checker (docs/reliability.md, docs/adr/0043): the invariants of a rollout, judged from the pods a
// watch on the API server delivers, never from the bus or a controller's own view. Pure: it is fed observations
// (a list, an upsert, a delete, each with its time) and says what it saw; the caller owns the watch.
import type { Pod } from '@regatta/api';

/** What a pod is, as far as the invariants go. */
export interface PodView {
  uid: string;
  name: string;
  /** Ready condition True and no deletionTimestamp. */
  available: boolean;
  terminating: boolean;
  /** `controller-revision-hash` (the CloneSet's revision of the pod). */
  revision: string;
  /** `apps.kruise.io/cloneset-instance-id`. */
  instanceId: string;
  /** The first container's image in the spec (what an in-place update changes). */
  image: string;
}

const INSTANCE_ID = 'apps.kruise.io/cloneset-instance-id';
const REVISION = 'controller-revision-hash';

export function viewOf(p: Pod): PodView {
  const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const terminating = !!p.metadata?.deletionTimestamp;
  return {
    uid: p.metadata?.uid ?? '',
    name: p.metadata?.name ?? '',
    available: ready && !terminating,
    terminating,
    revision: p.metadata?.labels?.[REVISION] ?? '',
    instanceId: p.metadata?.labels?.[INSTANCE_ID] ?? '',
    image: p.spec?.containers?.[0]?.image ?? '',
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
}

export type ViolationKind =
  | 'unavailable'
  | 'surge'
  | 'recreate'
  | 'duplicate-instance-id'
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
  /** R2, webhooks removed: an invalid stored object acted on, or not refused with an event naming a field. */
  | 'stored-invalid';

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
  private readonly createdSince = new Set<string>();
  private readonly deletedSince = new Set<string>();
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
    this.baseline = new Set([...this.pods.values()].filter((p) => !p.terminating).map((p) => p.uid));
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
    const acted =
      !before ||
      (p.terminating && !before.terminating) ||
      before.revision !== p.revision ||
      before.image !== p.image;
    if (!acted) return;
    this.action(at);
    if (!this.bounds) return;
    if (!before) this.createdSince.add(p.uid);
    if (p.terminating && this.baseline.has(p.uid)) this.deletedSince.add(p.uid);
  }

  private gone(uid: string, at: number): void {
    const before = this.pods.get(uid);
    if (!before) return;
    this.pods.delete(uid);
    if (!before.terminating) this.action(at);
    if (this.bounds && this.baseline.has(uid)) this.deletedSince.add(uid);
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
    if (available < b.minAvailable)
      this.add('unavailable', at, `${available} pods available, at least ${b.minAvailable} required`);
    if (active.length > b.maxPods)
      this.add('surge', at, `${active.length} pods, at most ${b.maxPods} allowed`);
    if (b.inPlace) {
      if (this.createdSince.size > b.inPlace.creates)
        this.add(
          'recreate',
          at,
          `${this.createdSince.size} pods created, ${b.inPlace.creates} allowed (in place)`,
        );
      if (this.deletedSince.size > b.inPlace.deletes)
        this.add(
          'recreate',
          at,
          `${this.deletedSince.size} pods deleted, ${b.inPlace.deletes} allowed (in place)`,
        );
    }
    const byId = new Map<string, string>();
    for (const p of active) {
      if (!p.instanceId) continue;
      const other = byId.get(p.instanceId);
      if (other)
        this.add('duplicate-instance-id', at, `instance id ${p.instanceId} on ${other} and ${p.name}`);
      else byId.set(p.instanceId, p.name);
    }
  }

  private add(kind: ViolationKind, at: number, detail: string): void {
    const key = `${kind}:${kind === 'duplicate-instance-id' ? detail : ''}`;
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
