// For tests that call the NodeImage reconciler directly against the shared cluster, with caches they set by hand.
import type { NodeImage } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { silentLogger, type ReconcileContext } from '@regatta/runtime';
import { NODE_IMAGE } from './scenario-harness.js';

/** A cache answering with the given objects, as last seen. */
export const cacheOf = (objects: KubeObject[]) => ({
  get: (_ns: string | undefined, n: string) => objects.find((o) => o.metadata?.name === n),
  list: () => objects,
});

/** A reconcile's context: no trace, no logs. */
export const quietContext = (): ReconcileContext => ({
  reconcileID: 'r',
  log: silentLogger,
  signal: new AbortController().signal,
});

/** A fake NodeImage (no Node behind it) with one tag, `busybox:1.36`, created now, without owners. */
export function fakeNodeImageWithTag(name: string): NodeImage {
  return {
    ...NODE_IMAGE,
    metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true' } },
    spec: {
      images: {
        busybox: {
          tags: [
            {
              tag: '1.36',
              createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              pullPolicy: { ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3 },
            },
          ],
        },
      },
    },
  } as NodeImage;
}
