/**
 * Where the webhook's lookups come from: the program's bus caches, fed by the watcher (pods and claims, kept only while
 * they still count and projected to the few fields the decisions read), and, for a CRD's objects, which no bus mirrors,
 * one paged list from the API server per refused-or-not DELETE of a `Cascading` CRD (docs/adr/0079).
 */
import type { Pod } from '@regatta/api';
import { INDEX_OWNER_UID, type FieldSetOf } from '@regatta/bus';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { isClaimBound, isPodActive } from './decisions.js';
import type { DeletionLookups } from './webhooks.js';

/** The pod fields the decisions read: identity, deletion, controller reference, phase. */
export const DELETION_PROTECTION_POD_FIELDS = {
  apiVersion: true,
  kind: true,
  metadata: {
    name: true,
    namespace: 'shared',
    uid: true,
    resourceVersion: true,
    deletionTimestamp: true,
    ownerReferences: 'deduped',
  },
  status: { phase: 'shared' },
} as const satisfies FieldSetOf<Pod>;

/** The pods cache keeps active pods only: an inactive pod never counts. */
export const isPodKept = (pod: KubeObject): boolean => isPodActive(pod);
/** The claims cache keeps Bound claims not being deleted only. */
export const isClaimKept = (pvc: KubeObject): boolean => isClaimBound(pvc);

/** What a bus cache offers (libs/kit `Reader`). */
export interface ListReader {
  list(opts?: { namespace?: string }): readonly KubeObject[];
  byIndex(index: string, value: string): readonly KubeObject[];
}

export function busLookups(
  readers: { pods: ListReader; claims: ListReader },
  client: Pick<KubeClient, 'registerResource' | 'listAll'>,
): DeletionLookups {
  return {
    podsInNamespace: (namespace) => readers.pods.list({ namespace }),
    claimsInNamespace: (namespace) => readers.claims.list({ namespace }),
    podsControlledBy: (uid) =>
      readers.pods
        .byIndex(INDEX_OWNER_UID, uid)
        .filter((p) => p.metadata?.ownerReferences?.some((r) => r.controller && r.uid === uid)),
    crdObjects: async ({ group, version, plural, kind }) => {
      client.registerResource({ group, kind, plural, namespaced: true });
      const list = await client.listAll({ apiVersion: `${group}/${version}`, kind });
      return list.items;
    },
  };
}
