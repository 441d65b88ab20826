import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import { CLONESET_POD_FIELDS, IMAGEPULL_POD_FIELDS, type AstsPod, type CloneSetPod, type ImagePullPod } from './pod-fields.js';
import { projection } from './projection.js';
import type { FieldSetOf } from './projection-types.js';

// The checks are the compiler's (the typecheck target compiles this file); the run confirms the values agree.
describe('typed projections', () => {
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'ns', labels: { app: 'a' } },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v' }] },
    status: { phase: 'Running', podIP: '10.0.0.1' },
  };

  it('types a projected pod to what its field set keeps', () => {
    const cs = projection(CLONESET_POD_FIELDS)(pod) as CloneSetPod;
    expect(cs.spec?.nodeName).toBe('n1');
    expect(cs.spec?.containers?.[0]?.image).toBe('i');
    expect(cs.metadata?.labels).toEqual({ app: 'a' });
    // @ts-expect-error volumes are not kept for the CloneSet program
    expect(cs.spec?.volumes).toBeUndefined();
    // @ts-expect-error pod IPs are not kept
    expect(cs.status?.podIP).toBeUndefined();

    const ip = projection(IMAGEPULL_POD_FIELDS)(pod) as ImagePullPod;
    expect(ip.status?.phase).toBe('Running');
    // @ts-expect-error ImagePull keeps no containers
    expect(ip.spec?.containers).toBeUndefined();
  });

  it('unions the typed sets (the Advanced StatefulSet keeps the claim names)', () => {
    const a: AstsPod = pod as AstsPod;
    expect(a.spec?.volumes?.[0]?.name).toBe('v');
    const p: Pod = a; // a projected pod still is a Pod (every field it lacks is optional)
    expect(p).toBe(pod);
  });

  it('refuses a field the type does not have', () => {
    // @ts-expect-error Pod has no field sepc
    const wrong: FieldSetOf<Pod> = { sepc: true };
    expect(wrong).toBeDefined();
  });
});
