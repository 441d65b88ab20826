interface Entry {
  key: string;
  readyAt: number;
  /** Insertion order, so items ready at the same time leave in the order they came. */
  seq: number;
}

/**
 * A min-heap of keys by the time they become ready, holding each key at most once; re-adding a
 * key keeps the earlier of its two ready times (client-go's `waitingForQueue` + known entries).
 */
export class DelayHeap {
  readonly #heap: Entry[] = [];
  readonly #index = new Map<string, number>();
  #seq = 0;

  get size(): number {
    return this.#heap.length;
  }

  /** Adds `key` ready at `readyAt`, or moves it earlier; returns whether anything changed. */
  push(key: string, readyAt: number): boolean {
    const at = this.#index.get(key);
    if (at !== undefined) {
      const entry = this.#heap[at];
      if (!entry || entry.readyAt <= readyAt) return false;
      entry.readyAt = readyAt;
      this.#up(at);
      return true;
    }
    this.#heap.push({ key, readyAt, seq: this.#seq++ });
    this.#index.set(key, this.#heap.length - 1);
    this.#up(this.#heap.length - 1);
    return true;
  }

  /** The earliest ready time, if any. */
  peekTime(): number | undefined {
    return this.#heap[0]?.readyAt;
  }

  /** Removes and returns every key ready at or before `now`, earliest first. */
  popReady(now: number): string[] {
    const out: string[] = [];
    for (let top = this.#heap[0]; top && top.readyAt <= now; top = this.#heap[0]) {
      out.push(top.key);
      this.#removeAt(0);
    }
    return out;
  }

  clear(): void {
    this.#heap.length = 0;
    this.#index.clear();
  }

  #less(a: Entry, b: Entry): boolean {
    return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
  }

  #removeAt(i: number): void {
    const last = this.#heap.pop();
    const removed = this.#heap[i];
    if (!last) return;
    if (i === this.#heap.length) {
      this.#index.delete(last.key);
      return;
    }
    if (removed) this.#index.delete(removed.key);
    this.#heap[i] = last;
    this.#index.set(last.key, i);
    this.#down(i);
    this.#up(i);
  }

  #swap(i: number, j: number): void {
    const a = this.#heap[i];
    const b = this.#heap[j];
    if (!a || !b) return;
    this.#heap[i] = b;
    this.#heap[j] = a;
    this.#index.set(b.key, i);
    this.#index.set(a.key, j);
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const child = this.#heap[i];
      const up = this.#heap[parent];
      if (!child || !up || !this.#less(child, up)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let smallest = i;
      const ls = this.#heap[l];
      const rs = this.#heap[r];
      const cur = () => this.#heap[smallest] as Entry;
      if (ls && this.#less(ls, cur())) smallest = l;
      if (rs && this.#less(rs, cur())) smallest = r;
      if (smallest === i) return;
      this.#swap(i, smallest);
      i = smallest;
    }
  }
}
