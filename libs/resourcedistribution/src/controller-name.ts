/** `source.component` of the ResourceDistribution controller's Events (`pkg/controller/resourcedistribution`). */
export const CONTROLLER_NAME = 'resourcedistribution-controller';
