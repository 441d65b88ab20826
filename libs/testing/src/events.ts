// Events as `kubectl get events` shows them.
import type { CoreEvent, KubeClient } from '@regatta/kube';

/** The events of a namespace about objects of `kind`, optionally of one reason. */
export async function eventsAbout(
  client: KubeClient,
  ns: string,
  kind: string,
  reason?: string,
): Promise<CoreEvent[]> {
  const all = (await client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items;
  return all.filter((e) => e.involvedObject.kind === kind && (!reason || e.reason === reason));
}
