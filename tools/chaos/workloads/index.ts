// The workload kinds R1 rolls out, by id (`--r1-kinds`), in the order a run takes them.
import { ADS } from './ads.js';
import { ASTS } from './asts.js';
import { CLONESET } from './cloneset.js';
import { UD } from './ud.js';
import type { Workload, WorkloadId } from './kind.js';

export const WORKLOADS: Record<WorkloadId, Workload> = { cloneset: CLONESET, asts: ASTS, ads: ADS, ud: UD };
export { WORKLOAD_IDS, changeOps, shapeOf, type Workload, type WorkloadId } from './kind.js';
