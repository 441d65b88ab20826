import type { KubeObject } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { OwnWrites, resourceVersionNewer } from './own-writes.js';

const obj = (rv: string, status: unknown, uid = 'u1'): KubeObject & { status?: unknown } => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { namespace: 'ns', name: 'web', uid, resourceVersion: rv },
  status,
});

describe('resourceVersionNewer', () => {
  it.each([
    ['10', '9', true],
    ['9', '10', false],
    ['10', '10', false],
    ['100000000000000000001', '100000000000000000000', true],
    ['abc', '1', false],
    [undefined, '1', false],
    ['1', undefined, false],
  ])('%s newer than %s: %s', (a, b, newer) => expect(resourceVersionNewer(a, b)).toBe(newer));
});

describe('OwnWrites', () => {
  it('shows the written status while the cache is older, then drops it once the cache caught up', () => {
    const w = new OwnWrites();
    w.record(obj('12', { replicas: 2 }));
    expect(w.view(obj('11', { replicas: 1 })).status).toEqual({ replicas: 2 });
    expect(w.view(obj('11', { replicas: 1 })).metadata?.resourceVersion).toBe('12');
    expect(w.view(obj('12', { replicas: 2 })).status).toEqual({ replicas: 2 });
    // dropped: an older cached object is shown as it is from now on
    expect(w.view(obj('11', { replicas: 1 })).status).toEqual({ replicas: 1 });
  });

  it('a newer object in the cache wins', () => {
    const w = new OwnWrites();
    w.record(obj('12', { replicas: 2 }));
    expect(w.view(obj('13', { replicas: 3 })).status).toEqual({ replicas: 3 });
  });

  it('a workload recreated under the same name is not shown the old one', () => {
    const w = new OwnWrites();
    w.record(obj('12', { replicas: 2 }, 'old'));
    expect(w.view(obj('5', undefined, 'new')).status).toBeUndefined();
  });

  it('forget drops what was kept', () => {
    const w = new OwnWrites();
    w.record(obj('12', { replicas: 2 }));
    w.forget('ns', 'web');
    expect(w.view(obj('11', { replicas: 1 })).status).toEqual({ replicas: 1 });
  });
});
