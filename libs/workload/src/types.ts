/** What a workload controller reads and writes through: seams a bus cache, a KubeClient, or a test's fakes fit. */
import type { GroupVersionKind, KubeClient, KubeObject } from '@regatta/kube';

/** A read-only view of one kind of object (a bus cache fits). */
export interface ObjectReader<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  byIndex(index: string, value: string): T[];
  list(opts?: { namespace?: string; filter?: (obj: T) => boolean }): T[];
}

/** The API server writes a workload controller makes. */
export type KubeWriter = Pick<
  KubeClient,
  'create' | 'patch' | 'patchStatus' | 'delete' | 'replace' | 'get' | 'request'
>;

/** apiVersion and kind of the workload (its owner references and writes name it). */
export type WorkloadKind = GroupVersionKind;

/** Structured logging as the controls use it (a pino logger fits). */
export interface ControlLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Called with every object a control wrote, so the caller expects to see that version in its cache. */
export type OnWritten = (obj: KubeObject) => void;
