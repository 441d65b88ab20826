import type { Lease, LeaseStore } from '../lease.js';

class StatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'StatusError';
  }
}

/**
 * An in-memory {@link LeaseStore} for tests of the election loop: resourceVersion-checked
 * updates (409), 404 for a missing lease, and a switch that makes every call fail (503), as an
 * unreachable API server would. Not exported from the package.
 */
export class MemoryLeaseStore implements LeaseStore {
  readonly #leases = new Map<string, Lease>();
  #version = 0;
  /** When set, every call fails with this status. */
  failWith: number | undefined;
  writes = 0;
  reads = 0;

  get(namespace: string, name: string): Promise<Lease> {
    return this.#call(() => {
      this.reads++;
      const lease = this.#leases.get(`${namespace}/${name}`);
      if (!lease) throw new StatusError(404, `lease ${namespace}/${name} not found`);
      return structuredClone(lease);
    });
  }

  create(lease: Lease): Promise<Lease> {
    return this.#call(() => {
      const key = `${lease.metadata.namespace}/${lease.metadata.name}`;
      if (this.#leases.has(key)) throw new StatusError(409, `lease ${key} already exists`);
      return this.#store(key, lease);
    });
  }

  update(lease: Lease): Promise<Lease> {
    return this.#call(() => {
      const key = `${lease.metadata.namespace}/${lease.metadata.name}`;
      const current = this.#leases.get(key);
      if (!current) throw new StatusError(404, `lease ${key} not found`);
      if (current.metadata.resourceVersion !== lease.metadata.resourceVersion) {
        throw new StatusError(409, `lease ${key} was modified; resourceVersion is stale`);
      }
      return this.#store(key, lease);
    });
  }

  /** The stored lease, for assertions. */
  peek(namespace: string, name: string): Lease | undefined {
    return this.#leases.get(`${namespace}/${name}`);
  }

  #store(key: string, lease: Lease): Lease {
    this.writes++;
    const stored = structuredClone({
      ...lease,
      metadata: { ...lease.metadata, resourceVersion: String(++this.#version) },
    });
    this.#leases.set(key, stored);
    return structuredClone(stored);
  }

  async #call<T>(fn: () => T): Promise<T> {
    // a real round trip is asynchronous: let other candidates interleave
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failWith !== undefined) throw new StatusError(this.failWith, 'API server unavailable');
    return fn();
  }
}
