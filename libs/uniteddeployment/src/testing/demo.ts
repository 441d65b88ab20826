import type { UnitedDeployment } from '../types.js';

/** A UnitedDeployment of CloneSets, subsets a and b, 4 replicas, Manual with partition a: 1 (unit tests). */
export const demoUnitedDeployment = (): UnitedDeployment => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'UnitedDeployment',
  metadata: { name: 'demo', namespace: 'ns', uid: 'ud-1', generation: 1, resourceVersion: '1' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'demo' } },
    template: {
      cloneSetTemplate: {
        metadata: { labels: { app: 'demo' } },
        spec: {
          selector: { matchLabels: { app: 'demo' } },
          template: {
            metadata: { labels: { app: 'demo' } },
            spec: { containers: [{ name: 'main', image: 'nginx' }] },
          },
        } as never,
      },
    },
    topology: { subsets: [{ name: 'a' }, { name: 'b' }] },
    updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 1 } } },
  },
});
