import { describe, expect, it } from 'vitest';
import { strategicMergePodTemplate } from './pod-template-patch.js';

const template = {
  metadata: { labels: { app: 'a' } },
  spec: {
    containers: [
      { name: 'main', image: 'nginx:1', env: [{ name: 'A', value: '1' }], resources: { limits: { cpu: '1' } } },
      { name: 'side', image: 'busybox' },
    ],
    tolerations: [{ key: 'x', operator: 'Exists' }],
  },
};

describe('strategicMergePodTemplate (subset patch)', () => {
  it('merges maps, containers and env by name; other lists are replaced; null deletes', () => {
    const out = strategicMergePodTemplate(template, {
      metadata: { labels: { zone: 'east', app: null } },
      spec: {
        containers: [{ name: 'main', env: [{ name: 'B', value: '2' }], resources: { limits: { memory: '1Gi' } } }],
        tolerations: [{ key: 'y', operator: 'Exists' }],
      },
    });
    expect(out).toEqual({
      metadata: { labels: { zone: 'east' } },
      spec: {
        containers: [
          {
            name: 'main',
            image: 'nginx:1',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
            resources: { limits: { cpu: '1', memory: '1Gi' } },
          },
          { name: 'side', image: 'busybox' },
        ],
        tolerations: [{ key: 'y', operator: 'Exists' }],
      },
    });
  });

  it('$patch: delete removes a list element; new elements are appended; the input is untouched', () => {
    const out = strategicMergePodTemplate(template, {
      spec: { containers: [{ name: 'side', $patch: 'delete' }, { name: 'extra', image: 'redis' }] },
    }) as { spec: { containers: { name: string }[] } };
    expect(out.spec.containers.map((c) => c.name)).toEqual(['main', 'extra']);
    expect(template.spec.containers).toHaveLength(2);
  });

  it('a patch member named __proto__ is merged as a member, not as the prototype (docs/reliability.md finding 26)', () => {
    const out = strategicMergePodTemplate(template, JSON.parse('{"spec": {"__proto__": {"containers": []}}}'));
    const spec = out['spec'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(spec)).toBe(Object.prototype);
    expect(JSON.stringify(spec['__proto__'])).toBe('{"containers":[]}');
    expect(spec['containers']).toEqual(template.spec.containers);
  });
});
