// Helpers for the integration tests (used by *.int.test.ts only; no test-framework imports here).
import { randomBytes } from 'node:crypto';
import { isNotFound, KubeClient } from './kube-client.js';

export const rand = () => randomBytes(3).toString('hex');

/** Polls `probe` until it returns a truthy value; throws with the last value seen after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export class TestKube extends KubeClient {
  readonly namespaces: string[] = [];

  async namespace(prefix: string): Promise<string> {
    const name = `${prefix}-${rand()}`;
    await this.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    this.namespaces.push(name);
    return name;
  }

  /**
   * Deletes the test's namespaces and waits (bounded) until no pod is left in them, so that no pod outlives
   * the simulator that runs it; the namespace controller finishes the rest on its own.
   */
  async cleanup(timeoutMs = 60_000): Promise<void> {
    await Promise.all(
      this.namespaces.map(async (ns) => {
        try {
          await this.delete(`/api/v1/namespaces/${ns}`);
          // no pod can be created in a terminating namespace; delete the pods now rather than when the
          // namespace controller gets to them
          await this.delete(`/api/v1/namespaces/${ns}/pods`);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }),
    );
    await eventually(
      'the pods of the deleted namespaces to be gone',
      async () => {
        for (const ns of this.namespaces) {
          const pods = await this.get<{ items: unknown[] }>(`/api/v1/namespaces/${ns}/pods`);
          if (pods.items.length > 0) return false;
        }
        return true;
      },
      timeoutMs,
      200,
    ).catch(() => undefined);
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.get(path);
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async events(
    ns: string,
    involvedName: string,
  ): Promise<
    {
      reason: string;
      message: string;
      type: string;
      source?: { component?: string; host?: string };
      count?: number;
    }[]
  > {
    const list = await this.get<{
      items: {
        reason: string;
        message: string;
        type: string;
        source?: { component?: string; host?: string };
        count?: number;
        involvedObject: { name: string };
      }[];
    }>(`/api/v1/namespaces/${ns}/events`);
    return list.items.filter((e) => e.involvedObject.name === involvedName);
  }
}
