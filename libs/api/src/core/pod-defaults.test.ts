import { describe, expect, it } from 'vitest';
import { defaultKruisePodSpec } from './pod-defaults.js';
import type { PodSpec } from './pod-types.js';

describe('defaultKruisePodSpec (OpenKruise SetDefaultPodSpec)', () => {
  it('fills the pod-level defaults', () => {
    expect(defaultKruisePodSpec({ containers: [] })).toEqual({
      containers: [],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
    });
  });

  it('keeps values that are set', () => {
    const spec: PodSpec = {
      containers: [],
      dnsPolicy: 'Default',
      restartPolicy: 'Never',
      securityContext: { runAsUser: 1000 },
      terminationGracePeriodSeconds: 0,
      schedulerName: 'mine',
    };
    expect(defaultKruisePodSpec(spec)).toEqual(spec);
  });

  it.each([
    // container image, set policy, expected policy: Kruise defaults regular containers to Always whatever the tag
    ['nginx:alpine', undefined, 'Always'],
    ['nginx', undefined, 'Always'],
    ['nginx:alpine', 'IfNotPresent', 'IfNotPresent'],
    ['nginx:alpine', 'Never', 'Never'],
  ])('container %s with imagePullPolicy %s → %s', (image, policy, want) => {
    const out = defaultKruisePodSpec({ containers: [{ name: 'c', image, ...(policy ? { imagePullPolicy: policy } : {}) }] });
    expect(out.containers[0]?.imagePullPolicy).toBe(want);
  });

  it.each([
    ['busybox', 'Always'],
    ['busybox:latest', 'Always'],
    ['busybox:1.36', 'IfNotPresent'],
  ])('init container %s → %s (the core tag rule)', (image, want) => {
    const out = defaultKruisePodSpec({ containers: [], initContainers: [{ name: 'i', image }] });
    expect(out.initContainers?.[0]?.imagePullPolicy).toBe(want);
  });

  it('defaults container termination messages, ports, env field refs, probes and handlers', () => {
    const out = defaultKruisePodSpec({
      containers: [
        {
          name: 'c',
          image: 'app:v1',
          ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
          env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'B', value: 'x' }],
          livenessProbe: { httpGet: { port: 80 } },
          readinessProbe: { timeoutSeconds: 5, periodSeconds: 0 },
          lifecycle: { preStop: { httpGet: { port: 'http', path: '/stop' } } },
        },
      ],
    });
    expect(out.containers[0]).toEqual({
      name: 'c',
      image: 'app:v1',
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [
        { containerPort: 80, protocol: 'TCP' },
        { containerPort: 53, protocol: 'UDP' },
      ],
      env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }, { name: 'B', value: 'x' }],
      livenessProbe: {
        httpGet: { port: 80, path: '/', scheme: 'HTTP' },
        timeoutSeconds: 1,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 3,
      },
      readinessProbe: { timeoutSeconds: 5, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
      lifecycle: { preStop: { httpGet: { port: 'http', path: '/stop', scheme: 'HTTP' } } },
    });
  });

  it('defaults ephemeral containers without pull or termination-message defaults', () => {
    const out = defaultKruisePodSpec({ containers: [], ephemeralContainers: [{ name: 'e', image: 'x', ports: [{ containerPort: 1 }] }] });
    expect(out.ephemeralContainers?.[0]).toEqual({ name: 'e', image: 'x', ports: [{ containerPort: 1, protocol: 'TCP' }] });
  });

  it('defaults volumes', () => {
    const out = defaultKruisePodSpec({
      containers: [],
      volumes: [
        { name: 'empty' },
        { name: 'host', hostPath: { path: '/var/log' } },
        { name: 'sec', secret: { secretName: 's' } },
        { name: 'cm', configMap: { name: 'c', defaultMode: 256 } },
        { name: 'dw', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
        {
          name: 'proj',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token' } },
              { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
            ],
          },
        },
        { name: 'pvc', persistentVolumeClaim: { claimName: 'data' } },
      ],
    });
    expect(out.volumes).toEqual([
      { name: 'empty', emptyDir: {} },
      { name: 'host', hostPath: { path: '/var/log', type: '' } },
      { name: 'sec', secret: { secretName: 's', defaultMode: 420 } },
      { name: 'cm', configMap: { name: 'c', defaultMode: 256 } },
      { name: 'dw', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }], defaultMode: 420 } },
      {
        name: 'proj',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
            { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }] } },
          ],
          defaultMode: 420,
        },
      },
      { name: 'pvc', persistentVolumeClaim: { claimName: 'data' } },
    ]);
  });

  it('does not change its input', () => {
    const spec: PodSpec = { containers: [{ name: 'c', image: 'x' }] };
    defaultKruisePodSpec(spec);
    expect(spec).toEqual({ containers: [{ name: 'c', image: 'x' }] });
  });
});
