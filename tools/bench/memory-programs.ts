// Benchmark 3's programs that project their cached pods (docs/adr/0060-pod-projection.md): each with the field set it
// declares with its kinds in apps/<key>/src/main.ts. Every row is one bus Cache with that set's `projection` as its
// transform, its string and value tables included: what the program runs, not a what-if.
import {
  ADS_POD_FIELDS,
  ASTS_POD_FIELDS,
  CLONESET_POD_FIELDS,
  type FieldSet,
  IMAGEPULL_POD_FIELDS,
  PUB_POD_FIELDS,
  SIDECARSET_POD_FIELDS,
  UD_POD_FIELDS,
} from '@regatta/bus';
import { DELETION_PROTECTION_POD_FIELDS } from '@regatta/deletionprotection';

export const PROJECTING_PROGRAMS = {
  cloneset: { label: 'CloneSet', fields: CLONESET_POD_FIELDS },
  asts: { label: 'Advanced StatefulSet', fields: ASTS_POD_FIELDS },
  ads: { label: 'Advanced DaemonSet', fields: ADS_POD_FIELDS },
  sidecarset: { label: 'SidecarSet', fields: SIDECARSET_POD_FIELDS },
  uniteddeployment: { label: 'UnitedDeployment', fields: UD_POD_FIELDS },
  imagepull: { label: 'ImagePull', fields: IMAGEPULL_POD_FIELDS },
  deletionprotection: { label: 'Deletion protection', fields: DELETION_PROTECTION_POD_FIELDS },
  podunavailablebudget: { label: 'PodUnavailableBudget', fields: PUB_POD_FIELDS },
} as const satisfies Record<string, { label: string; fields: FieldSet }>;

/** A program of the table: its folder under apps/. */
export type ProjectingProgram = keyof typeof PROJECTING_PROGRAMS;

export const PROJECTING_PROGRAM_NAMES = Object.keys(PROJECTING_PROGRAMS) as ProjectingProgram[];
