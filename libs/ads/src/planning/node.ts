/** The parts of core/v1 Node and the scheduling fields of a pod spec that node eligibility reads (libs/kube). */
export type {
  Affinity,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  SchedulingNode as Node,
  SchedulingSpec,
  Taint,
  Toleration,
} from '@regatta/kube';
