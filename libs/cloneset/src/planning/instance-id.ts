/** CloneSet instance ids and pod names (`getOrGenAvailableIDs`, `pkg/controller/cloneset/sync/cloneset_scale.go`). */
import { Labels } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { SAFE_ALPHABET } from '@regatta/revision';

/** Pod and PVC label carrying the instance id. */
export const INSTANCE_ID_LABEL = Labels.CloneSetInstanceId;

/** Instance ids have this many characters (k8s `rand.String(5)`). */
export const INSTANCE_ID_LENGTH = 5;

const MAX_ATTEMPTS = 10_000;

/** The random source keeps producing ids already in use (a broken or constant generator). */
export class InstanceIdError extends Error {
  readonly code = 'REGATTA_ROLLOUT_INSTANCE_ID_EXHAUSTED';

  constructor(attempts: number) {
    super(
      `no unused instance id after ${attempts} random draws; the random source must return values spread over [0, 1)`,
    );
    this.name = 'InstanceIdError';
  }
}

/** A random number in [0, 1) (`Math.random` or a seeded generator in tests). */
export type RandomSource = () => number;

/** The object's instance id ("" when unlabelled). */
export function instanceIdOf(obj: KubeObject): string {
  return obj.metadata?.labels?.[INSTANCE_ID_LABEL] ?? '';
}

/** k8s `rand.String(5)`: characters of the vowel-free alphabet `bcdfghjklmnpqrstvwxz2456789`. */
export function generateInstanceId(random: RandomSource): string {
  let id = '';
  for (let i = 0; i < INSTANCE_ID_LENGTH; i++)
    id += SAFE_ALPHABET[Math.floor(random() * SAFE_ALPHABET.length) % SAFE_ALPHABET.length];
  return id;
}

/** `<cloneset>-<id>`. */
export function podNameFor(cloneSetName: string, id: string): string {
  return `${cloneSetName}-${id}`;
}

/**
 * `getOrGenAvailableIDs`: ids of PVCs that no pod uses are reused first (in sorted order, where upstream takes them
 * from a set in arbitrary order), then random ids that no pod or PVC has — and, unlike upstream, that no id generated
 * in the same call has. The result is sorted, as upstream's set listing is; pods take ids in that order.
 */
export function availableInstanceIds(
  count: number,
  pods: readonly KubeObject[],
  pvcs: readonly KubeObject[],
  random: RandomSource,
): string[] {
  const existing = new Set<string>();
  const reusable = new Set<string>();
  for (const pvc of pvcs) {
    const id = instanceIdOf(pvc);
    if (id === '') continue;
    existing.add(id);
    reusable.add(id);
  }
  for (const pod of pods) {
    const id = instanceIdOf(pod);
    if (id === '') continue;
    existing.add(id);
    reusable.delete(id);
  }
  const free = [...reusable].sort();
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let id = free.shift();
    for (let attempt = 0; id === undefined; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new InstanceIdError(MAX_ATTEMPTS);
      const candidate = generateInstanceId(random);
      if (!existing.has(candidate)) id = candidate;
    }
    existing.add(id);
    out.push(id);
  }
  return out.sort();
}
