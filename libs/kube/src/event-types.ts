/** core/v1 Event shapes written by the {@link EventRecorder}. */

/** core/v1 ObjectReference of the object an event is about. */
export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface CoreEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string };
  involvedObject: InvolvedObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  source: { component: string; host?: string };
  reportingComponent: string;
  reportingInstance: string;
}
