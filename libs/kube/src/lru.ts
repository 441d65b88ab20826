/** A map bounded to `size` entries that drops the least recently used one (client-go's caches use groupcache's lru). */
export class Lru<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly size: number) {}

  get(k: string): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }

  set(k: string, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    while (this.map.size > this.size) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  delete(k: string): void {
    this.map.delete(k);
  }
}
