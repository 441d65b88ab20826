import { describe, expect, it } from 'vitest';
import { configMapNamesOf, missingConfigMapRef } from './config-env.js';
import { cs, pod, PodSim } from './test-support.js';
import type { Container } from './types.js';

const barrier = (optional?: boolean): Container => ({
  name: 'app',
  image: 'nginx:1.25',
  env: [
    {
      name: 'KRUISE_CONTAINER_BARRIER',
      valueFrom: { configMapKeyRef: { name: 'p-barrier', key: 'p_0', ...(optional ? { optional } : {}) } },
    },
  ],
});

describe('missingConfigMapRef (the kubelet message)', () => {
  const data = (m: Record<string, Record<string, string>>) => (ns: string, name: string) =>
    m[`${ns}/${name}`];
  it.each([
    ['no ConfigMap', {}, barrier(), 'configmap "p-barrier" not found'],
    ['no key', { 'ns/p-barrier': {} }, barrier(), "couldn't find key p_0 in ConfigMap ns/p-barrier"],
    ['the key is there', { 'ns/p-barrier': { p_0: 'true' } }, barrier(), undefined],
    ['optional refs are not waited for', {}, barrier(true), undefined],
    ['no env', {}, { name: 'x', image: 'i' }, undefined],
  ] as const)('%s', (_n, cms, c, want) => {
    expect(missingConfigMapRef(c, 'ns', data(cms))).toBe(want);
  });
  it('names the ConfigMaps containers read', () => {
    expect([...configMapNamesOf([barrier(), { name: 'x', image: 'i' }])]).toEqual(['p-barrier']);
  });
});

describe('a container whose env reads a missing ConfigMap key', () => {
  it('waits with CreateContainerConfigError until the key exists, then starts (the others do not wait)', () => {
    const s = new PodSim(
      pod({
        containers: [barrier(), { name: 'side', image: 'busybox:1.36', command: ['sleep', 'infinity'] }],
      }),
    );
    s.configMaps = new Map([['ns/p-barrier', {}]]);
    s.at(0);
    const st = s.at(1000);
    expect(cs(st, 'app')?.state).toEqual({
      waiting: {
        reason: 'CreateContainerConfigError',
        message: "couldn't find key p_0 in ConfigMap ns/p-barrier",
      },
    });
    expect(cs(st, 'side')?.state?.running).toBeDefined();
    expect(st.phase).toBe('Pending');
    expect(s.events('Failed')).toEqual(["Failed: Error: couldn't find key p_0 in ConfigMap ns/p-barrier"]);
    // still missing: no new event
    s.at(5000);
    expect(s.events('Failed')).toHaveLength(1);
    s.configMaps.set('ns/p-barrier', { p_0: 'true' });
    const started = s.at(5500);
    expect(cs(started, 'app')?.state?.running).toBeDefined();
    expect(started.phase).toBe('Running');
  });
});
