/** Test helpers: a valid raw Advanced StatefulSet as plain JSON. */
import type { StatefulSet } from './types.js';

export type Json = Record<string, unknown>;
export type Editable = Json & { spec: Json & { template: Json & { spec: Json; metadata: Json } }; metadata: Json };

/** A valid raw StatefulSet (not defaulted); `edit` changes it (any shape). */
export function rawSts(edit: (sts: Editable) => void = () => undefined): StatefulSet {
  const sts: Editable = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      serviceName: 'nginx-headless',
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ name: 'web', containerPort: 80 }] }] },
      },
    },
  };
  edit(sts);
  return sts as unknown as StatefulSet;
}

/** The rollingUpdate member, created when absent. */
export const rollingUpdate = (sts: Editable): Json => {
  const us = (sts.spec['updateStrategy'] ??= {}) as Json;
  return (us['rollingUpdate'] ??= {}) as Json;
};
