/**
 * The ImagePullJob controller's tag writes into NodeImages, one NodeImage at a time and coalesced. Thousands of jobs
 * on a few nodes all write the same few NodeImages, each up to a megabyte: written side by side, every write but one
 * met a conflict and read and sent the whole NodeImage again (run BZ: 815 conflicts for 490 writes, docs/
 * reliability.md finding 25). Here the changes asked for while a NodeImage's write is in flight wait and go
 * together in its next one: one read and one write for all of them, each change checked for room against the ones
 * before it (nodeimage-room.ts). Upstream writes each job's tag on its own (`pkg/controller/imagepulljob`
 * syncNodeImages, retried on conflict); the NodeImages written are the same.
 */
import { NODE_IMAGE_API_VERSION, NODE_IMAGE_KIND, type ImageSpec, type NodeImage } from '@regatta/api';
import { cloneJson, retryOnConflict, setMember, type KubeClient } from '@regatta/kube';
import {
  bytesWithEntry,
  entryRoomProblem,
  jsonBytes,
  NODE_IMAGE_BYTES_BUDGET,
  StoredSizes,
} from './nodeimage-room.js';

/** One job's change: its entry of `spec.images` as it should be, worked out from the NodeImage as it is. */
export type TagChange = (nodeImage: NodeImage) => { name: string; entry: ImageSpec } | undefined;

/** What became of one change: written (with the NodeImage as stored), nothing to write, or no room for it. */
export type TagOutcome =
  | { result: 'written'; nodeImage: NodeImage }
  | { result: 'unchanged' }
  | { result: 'no-room'; problem: string };

/** Per change: applied, nothing to apply, or left out for want of room (why). */
export type FoldVerdict = 'applied' | 'unchanged' | { noRoom: string };

/**
 * Applies `changes` in order to a copy of `current` (which is left alone), each checked for room in the NodeImage
 * as the changes before it left it. `next` is undefined when none applied.
 */
export function foldTagChanges(
  current: NodeImage,
  changes: readonly TagChange[],
  budgetBytes = NODE_IMAGE_BYTES_BUDGET,
): { next: NodeImage | undefined; verdicts: FoldVerdict[] } {
  const out = cloneJson(current);
  let bytes = jsonBytes(out);
  let applied = false;
  const verdicts = changes.map((change): FoldVerdict => {
    const c = change(out);
    if (!c) return 'unchanged';
    const problem = entryRoomProblem(out, bytes, c.name, c.entry, budgetBytes);
    if (problem) return { noRoom: problem };
    bytes = bytesWithEntry(out, bytes, c.name, c.entry);
    setMember(((out.spec ??= {}).images ??= {}) as Record<string, unknown>, c.name, c.entry);
    applied = true;
    return 'applied';
  });
  return { next: applied ? out : undefined, verdicts };
}

interface Waiting {
  change: TagChange;
  resolve: (o: TagOutcome) => void;
  reject: (e: unknown) => void;
}

/**
 * Writes tag changes into NodeImages, one write in flight per NodeImage; changes asked for meanwhile go together in
 * the next write. Each write reads the NodeImage from the API server first (the bus copy lacks fields a PUT would
 * drop: managedFields, JSON annotations; libs/bus envelope.ts) and is retried on conflict; a failed write fails
 * every change it carried. A NodeImage that is gone leaves its changes unchanged.
 */
export class NodeImageWrites {
  readonly #client: Pick<KubeClient, 'getOrUndefined' | 'replace'>;
  readonly #waiting = new Map<string, Waiting[]>();
  readonly #writing = new Set<string>();
  /** Learns from each NodeImage read or written what its cached copies lack (nodeimage-room.ts). */
  readonly #sizes: StoredSizes;

  constructor(client: Pick<KubeClient, 'getOrUndefined' | 'replace'>, sizes = new StoredSizes()) {
    this.#client = client;
    this.#sizes = sizes;
  }

  write(name: string, change: TagChange): Promise<TagOutcome> {
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.get(name);
      if (waiting) waiting.push({ change, resolve, reject });
      else this.#waiting.set(name, [{ change, resolve, reject }]);
      if (!this.#writing.has(name)) void this.#drain(name);
    });
  }

  async #drain(name: string): Promise<void> {
    this.#writing.add(name);
    try {
      for (let batch = this.#take(name); batch.length > 0; batch = this.#take(name)) {
        try {
          const outcomes = await retryOnConflict(() =>
            this.#writeOnce(
              name,
              batch.map((w) => w.change),
            ),
          );
          batch.forEach((w, i) => w.resolve(outcomes[i] ?? { result: 'unchanged' }));
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.#writing.delete(name);
    }
  }

  #take(name: string): Waiting[] {
    const batch = this.#waiting.get(name) ?? [];
    this.#waiting.delete(name);
    return batch;
  }

  async #writeOnce(name: string, changes: TagChange[]): Promise<TagOutcome[]> {
    const fresh = await this.#client.getOrUndefined<NodeImage>({
      apiVersion: NODE_IMAGE_API_VERSION,
      kind: NODE_IMAGE_KIND,
      name,
    });
    if (!fresh) return changes.map(() => ({ result: 'unchanged' }));
    this.#sizes.learn(fresh);
    const { next, verdicts } = foldTagChanges(fresh, changes);
    const written = next && (await this.#client.replace(next));
    if (written) this.#sizes.learn(written);
    return verdicts.map((v): TagOutcome => {
      if (typeof v === 'object') return { result: 'no-room', problem: v.noRoom };
      return v === 'applied' && written ? { result: 'written', nodeImage: written } : { result: 'unchanged' };
    });
  }
}
