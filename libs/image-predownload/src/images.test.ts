import { describe, expect, it } from 'vitest';
import type { PodTemplate } from '@regatta/revision';
import { changedImages } from './images.js';

const t = (...containers: [string, string][]): PodTemplate => ({
  spec: { containers: containers.map(([name, image]) => ({ name, image })) },
});

describe('changedImages (diffImagesBetweenRevisions)', () => {
  it.each<[string, PodTemplate[], PodTemplate, Record<string, string>]>([
    ['nothing changed', [t(['main', 'nginx:1'])], t(['main', 'nginx:1']), {}],
    ['one image changed', [t(['main', 'nginx:1'], ['side', 'busybox:1'])], t(['main', 'nginx:2'], ['side', 'busybox:1']), { main: 'nginx:2' }],
    ['both changed, new order kept', [t(['a', 'x:1'], ['b', 'y:1'])], t(['b', 'y:2'], ['a', 'x:2']), { b: 'y:2', a: 'x:2' }],
    ['a new container', [t(['main', 'nginx:1'])], t(['main', 'nginx:1'], ['extra', 'redis:7']), { extra: 'redis:7' }],
    ['a removed container pulls nothing', [t(['main', 'nginx:1'], ['old', 'redis:7'])], t(['main', 'nginx:1']), {}],
    ['no old template: every container', [], t(['main', 'nginx:1']), { main: 'nginx:1' }],
    ['several old templates: changed against any of them (DaemonSet)', [t(['main', 'nginx:2']), t(['main', 'nginx:1'])], t(['main', 'nginx:2']), { main: 'nginx:2' }],
    ['several old templates, all equal', [t(['main', 'nginx:2']), t(['main', 'nginx:2'])], t(['main', 'nginx:2']), {}],
    ['init containers are not looked at', [t(['main', 'nginx:1'])], { spec: { containers: [{ name: 'main', image: 'nginx:1' }], initContainers: [{ name: 'i', image: 'busybox:2' }] } }, {}],
    ['a template without containers', [t(['main', 'nginx:1'])], { spec: {} }, {}],
  ])('%s', (_name, olds, next, want) => {
    expect(Object.fromEntries(changedImages(olds, next))).toEqual(want);
    expect([...changedImages(olds, next).keys()]).toEqual(Object.keys(want));
  });
});
