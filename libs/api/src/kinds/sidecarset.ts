/**
 * SidecarSet (cluster-scoped) — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise
 * v1.9's; the spec/status schema is a shell kept whole until the sidecarset controller brings the full schema.
 */
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { placeholderCrd } from './placeholder-crd.js';

export const SIDECARSET_CRD: CrdDefinition = placeholderCrd({
  kind: 'SidecarSet',
  plural: 'sidecarsets',
  scope: 'Cluster',
  printerColumns: [
    intColumn('MATCHED', '.status.matchedPods', 'Pods the SidecarSet selects.'),
    intColumn('UPDATED', '.status.updatedPods', 'Selected pods with the current sidecar containers.'),
    intColumn('READY', '.status.readyPods', 'Selected pods that are ready.'),
    AGE_COLUMN,
  ],
});
