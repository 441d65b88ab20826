/** What the UnitedDeployment reconcile steps read and write through (the kit's readers and client fit). */
import type { KubeClient, KubeObject } from '@regatta/kube';
import type { Expectations, Logger } from '@regatta/runtime';
import type { KubeWriter, ObjectReader } from '@regatta/workload';
import type { SubsetReaderName } from '../subset/kinds.js';

export interface EventSink {
  normal(obj: KubeObject, reason: string, message: string): Promise<void>;
  warning(obj: KubeObject, reason: string, message: string): Promise<void>;
}

export type UnitedDeploymentReaders = Record<SubsetReaderName | 'uniteddeployments' | 'pods' | 'revisions', ObjectReader<KubeObject>>;

export interface SyncDeps extends UnitedDeploymentReaders {
  /** `list` for reading back a subset create without an answer (its name is generated). */
  client: KubeWriter & Pick<KubeClient, 'list'>;
  expectations: Expectations;
  recorder: EventSink;
}

export interface StepContext {
  d: SyncDeps;
  /** `namespace/name`, the queue's and the expectations' key. */
  key: string;
  log: Logger;
  now: Date;
}
