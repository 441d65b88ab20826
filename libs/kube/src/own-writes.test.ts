import { describe, expect, it } from 'vitest';
import type { KubeObject } from './meta.js';
import { OwnWrites, resourceVersionNewer } from './own-writes.js';

const ni = (rv: string, tag?: string, uid = 'u1'): KubeObject & { spec?: unknown } => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'NodeImage',
  metadata: { name: 'node-1', uid, resourceVersion: rv },
  spec: tag ? { images: { nginx: { tags: [{ tag }] } } } : {},
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

type Step =
  | { record: KubeObject }
  | { view: KubeObject; shows: string | undefined; kept: number }
  | { forget: string };

describe('OwnWrites', () => {
  it.each<[string, Step[]]>([
    [
      'the written NodeImage while the cache is older, then the cache once it caught up',
      [
        { record: ni('12', '1.25') },
        { view: ni('11'), shows: '12', kept: 1 },
        { view: ni('12', '1.25'), shows: '12', kept: 0 },
        { view: ni('11'), shows: '11', kept: 0 },
      ],
    ],
    ['a newer cached object wins (an agent wrote after us)', [{ record: ni('12', '1.25') }, { view: ni('13', '1.25'), shows: '13', kept: 0 }]],
    ['an object recreated under the same name is not shown the old one', [{ record: ni('12', '1.25', 'old') }, { view: ni('5', undefined, 'new'), shows: '5', kept: 0 }]],
    [
      'a late answer of an older write does not replace a newer one',
      [{ record: ni('14', '1.25') }, { record: ni('12', '1.24') }, { view: ni('11'), shows: '14', kept: 1 }],
    ],
    ['a newer answer replaces an older one', [{ record: ni('12', '1.24') }, { record: ni('14', '1.25') }, { view: ni('13'), shows: '14', kept: 1 }]],
    ['forget drops what was kept', [{ record: ni('12', '1.25') }, { forget: 'node-1' }, { view: ni('11'), shows: '11', kept: 0 }]],
  ])('%s', (_name, steps) => {
    const w = new OwnWrites();
    for (const s of steps) {
      if ('record' in s) w.record(s.record);
      else if ('forget' in s) w.forget(undefined, s.forget);
      else {
        expect(w.view(s.view).metadata?.resourceVersion).toBe(s.shows);
        expect(w.size).toBe(s.kept);
      }
    }
  });
});
