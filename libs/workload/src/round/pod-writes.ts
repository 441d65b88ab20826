/**
 * The pod-write side every workload round sets up the same way (docs/adr/0072-one-workload-round.md): each pod it
 * writes is expected in the cache at the version written (OpenKruise `pkg/util/expectations` "resourceVersion
 * expectations"), and the lifecycle and in-place controls write through that expectation.
 */
import { InPlaceUpdateControl } from '@regatta/inplace-update';
import type { KubeObject } from '@regatta/kube';
import { LifecycleControl } from '@regatta/lifecycle';
import type { Expectations } from '@regatta/runtime';
import type { KubeWriter } from '../types.js';

/** Expects the cache to show each written pod at the version written; `onEach` first sees every write. */
export function expectPodWrites(
  expectations: Pick<Expectations, 'expectUpdated'>,
  key: string,
  onEach?: (obj: KubeObject) => void,
): (obj: KubeObject) => void {
  return (obj) => {
    onEach?.(obj);
    const rv = obj.metadata?.resourceVersion;
    if (rv) expectations.expectUpdated(key, obj.metadata?.name ?? '', rv);
  };
}

export interface PodWriteControls {
  lifecycle: LifecycleControl;
  inPlace: InPlaceUpdateControl;
}

/** The lifecycle and in-place update controls of one round, writing through `onWritten`. */
export function podWriteControls(
  client: KubeWriter,
  onWritten: (obj: KubeObject) => void,
  now: () => Date,
): PodWriteControls {
  const writes = { client, onWritten, now };
  return { lifecycle: new LifecycleControl(writes), inPlace: new InPlaceUpdateControl(writes) };
}
