/** The structural shapes this library reads and builds; plain JSON from the API server or the bus fits as is. */
import type { KubeObject, LabelSelector, ObjectMeta } from '@regatta/kube';

/** apps/v1 ControllerRevision. `data` is the stored RawExtension, parsed (a JSON object for workload revisions). */
export interface ControllerRevision extends KubeObject {
  metadata?: ObjectMeta;
  data?: unknown;
  revision: number;
}

/** Metadata inside a template: Go writes the zero `creationTimestamp` as `null`. */
export interface TemplateMeta {
  name?: string;
  namespace?: string;
  creationTimestamp?: string | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  [key: string]: unknown;
}

/** core/v1 PodTemplateSpec, kept open: only the template as a whole is stored and compared. */
export interface PodTemplate {
  metadata?: TemplateMeta;
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A PersistentVolumeClaim template as found in `spec.volumeClaimTemplates`. */
export interface VolumeClaimTemplate {
  metadata?: TemplateMeta;
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The part of a CloneSet (v1alpha1 or v1beta1) that revisions are built from. */
export interface RevisionedWorkload extends KubeObject {
  metadata?: ObjectMeta;
  spec?: {
    selector?: LabelSelector | null;
    template?: PodTemplate;
    volumeClaimTemplates?: VolumeClaimTemplate[] | null;
    revisionHistoryLimit?: number | null;
    [key: string]: unknown;
  };
  status?: {
    currentRevision?: string;
    updateRevision?: string;
    collisionCount?: number | null;
    [key: string]: unknown;
  };
}
