/**
 * ImagePullJob — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's (v1alpha1 has
 * the extra MESSAGE column); the spec/status schema is a shell kept whole until the imagepull controller brings the
 * full schema.
 */
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { placeholderCrd } from './placeholder-crd.js';

export const IMAGE_PULL_JOB_CRD: CrdDefinition = placeholderCrd({
  kind: 'ImagePullJob',
  plural: 'imagepulljobs',
  scope: 'Namespaced',
  printerColumns: [
    intColumn('TOTAL', '.status.desired', 'Nodes the job pulls on.'),
    intColumn('ACTIVE', '.status.active', 'Nodes still pulling.'),
    intColumn('SUCCEED', '.status.succeeded', 'Nodes where the pull succeeded.'),
    intColumn('FAILED', '.status.failed', 'Nodes where the pull failed.'),
    AGE_COLUMN,
  ],
  extraColumns: {
    v1alpha1: [{ name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'Summary of the job state.' }],
  },
});
