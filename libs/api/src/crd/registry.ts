import { ADVANCED_CRON_JOB_CRD } from '../advancedcronjob/crd.js';
import { BROADCAST_JOB_CRD } from '../broadcastjob/crd.js';
import { CLONESET_CRD } from '../cloneset/crd.js';
import { CONTAINER_RECREATE_REQUEST_CRD } from '../containerrecreaterequest/crd.js';
import { UnknownKindError } from '../errors.js';
import { DAEMONSET_CRD } from '../daemonset/crd.js';
import { IMAGE_PULL_JOB_CRD } from '../imagepulljob/crd.js';
import { NODE_IMAGE_CRD } from '../nodeimage/crd.js';
import { POD_UNAVAILABLE_BUDGET_CRD } from '../podunavailablebudget/crd.js';
import { RESOURCE_DISTRIBUTION_CRD } from '../resourcedistribution/crd.js';
import { SIDECARSET_CRD } from '../sidecarset/crd.js';
import { STATEFULSET_CRD } from '../statefulset/crd.js';
import { UNITED_DEPLOYMENT_CRD } from '../uniteddeployment/crd.js';
import { WORKLOAD_SPREAD_CRD } from '../workloadspread/crd.js';
import { buildCrd, crdFileName } from './build.js';
import type { CrdDefinition, CustomResourceDefinition } from './definition.js';
import { renderCrdYaml } from './render.js';

/** Every kind Regatta serves, in file-name order. */
export const CRD_DEFINITIONS: readonly CrdDefinition[] = [
  ADVANCED_CRON_JOB_CRD,
  BROADCAST_JOB_CRD,
  CLONESET_CRD,
  CONTAINER_RECREATE_REQUEST_CRD,
  DAEMONSET_CRD,
  IMAGE_PULL_JOB_CRD,
  NODE_IMAGE_CRD,
  POD_UNAVAILABLE_BUDGET_CRD,
  RESOURCE_DISTRIBUTION_CRD,
  SIDECARSET_CRD,
  STATEFULSET_CRD,
  UNITED_DEPLOYMENT_CRD,
  WORKLOAD_SPREAD_CRD,
];

/** The definition of a kind, by kind (`CloneSet`), plural (`clonesets`) or short name (`clone`). */
export function crdDefinition(kindOrName: string): CrdDefinition {
  const want = kindOrName.toLowerCase();
  const def = CRD_DEFINITIONS.find(
    (d) => d.kind.toLowerCase() === want || d.plural === want || d.singular === want || d.shortNames?.includes(want),
  );
  if (!def) throw new UnknownKindError(kindOrName);
  return def;
}

/** All CustomResourceDefinition objects, ready to apply. */
export function generateCrds(): CustomResourceDefinition[] {
  return CRD_DEFINITIONS.map(buildCrd);
}

/** Every generated file of `deploy/crds/`: its name and exact text. */
export function renderCrdFiles(): { fileName: string; text: string }[] {
  return generateCrds().map((crd) => ({ fileName: crdFileName(crd), text: renderCrdYaml(crd) }));
}
