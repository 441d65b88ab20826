/** A valid, defaulted-looking v1beta1 SidecarSet for the tests, using every field the validators read. */
import type { SidecarSet } from './types.js';

export function validSidecarSet(name = 'log-agent', overrides: Partial<SidecarSet['spec']> = {}): SidecarSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: { name, labels: { team: 'infra' }, annotations: { note: 'x' } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      namespaceSelector: { matchLabels: { env: 'prod' } },
      containers: [
        {
          name: `${name}-main`,
          image: 'busybox:1.35',
          command: ['sleep', '999d'],
          volumeMounts: [{ name: 'logs', mountPath: '/var/log' }],
          podInjectPolicy: 'AfterAppContainer',
          shareVolumePolicy: { type: 'enabled' },
          upgradeStrategy: { upgradeType: 'ColdUpgrade' },
          transferEnv: [
            { sourceContainerName: 'app', envName: 'PROXY_IP' },
            { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['main']" } }, envNames: ['A'] },
          ],
        },
      ],
      initContainers: [{ name: `${name}-init`, image: 'busybox:1.35', command: ['true'] }],
      volumes: [{ name: 'logs', emptyDir: {} }],
      updateStrategy: {
        type: 'RollingUpdate',
        partition: '10%',
        maxUnavailable: 2,
        paused: false,
        priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'a' } } }] },
        scatterStrategy: [{ key: 'zone', value: '*' }],
      },
      injectionStrategy: { paused: false },
      imagePullSecrets: [{ name: 'regcred' }],
      revisionHistoryLimit: 5,
      patchPodMetadata: [{ annotations: { 'agent.example.com/on': 'true' }, patchPolicy: 'Overwrite' }],
      ...overrides,
    },
  };
}

/** A whitelist allowing every annotation key. */
export const ALLOW_ALL = { patchPodMetadataWhitelist: { rules: [{ allowedAnnotationKeyExprs: ['.*'] }] } };
