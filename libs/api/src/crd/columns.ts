import type { PrinterColumn } from './definition.js';

/** An integer column read from the object. */
export const intColumn = (name: string, jsonPath: string, description: string): PrinterColumn => ({
  name,
  type: 'integer',
  jsonPath,
  description,
});

/** The wide (`-o wide`) CONTAINERS and IMAGES columns of workloads with a pod template. */
export const TEMPLATE_WIDE_COLUMNS: readonly PrinterColumn[] = [
  {
    name: 'CONTAINERS',
    type: 'string',
    jsonPath: '.spec.template.spec.containers[*].name',
    description: 'Names of the containers in the pod template.',
    priority: 1,
  },
  {
    name: 'IMAGES',
    type: 'string',
    jsonPath: '.spec.template.spec.containers[*].image',
    description: 'Images of the containers in the pod template.',
    priority: 1,
  },
];

/** The scale subresource of replicated workloads. */
export const REPLICAS_SCALE = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  labelSelectorPath: '.status.labelSelector',
} as const;
