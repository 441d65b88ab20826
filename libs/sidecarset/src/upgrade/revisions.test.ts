import { describe, expect, it } from 'vitest';
import { newSidecarSetRevision, sidecarSetRevisionData } from './revisions.js';
import { sidecarSet } from './testing/fixtures.js';

// upstream `copySidecarSetSpecRevision` (pkg/control/sidecarcontrol/history_control.go) writes every key, null when
// the spec leaves it out; OpenKruise's e2e "sidecarSet history revision checker" reads all of them
describe('SidecarSet revision data', () => {
  it.each([
    [
      'containers only',
      {},
      {
        volumes: null,
        containers: [{ name: 'cold-sidecar', image: 'cold-image:v2' }],
        initContainers: null,
        imagePullSecrets: null,
        patchPodMetadata: null,
      },
    ],
    [
      'every recorded field',
      {
        volumes: [{ name: 'v' }],
        initContainers: [],
        imagePullSecrets: [{ name: 'secret-1' }],
        patchPodMetadata: [{ annotations: { a: 'b' } }],
      },
      {
        volumes: [{ name: 'v' }],
        containers: [{ name: 'cold-sidecar', image: 'cold-image:v2' }],
        initContainers: [],
        imagePullSecrets: [{ name: 'secret-1' }],
        patchPodMetadata: [{ annotations: { a: 'b' } }],
      },
    ],
  ])('%s: every key present, null when absent', (_what, over, spec) => {
    expect(sidecarSetRevisionData(sidecarSet(over))).toEqual({ spec: { $patch: 'replace', ...spec } });
  });

  it('the stored revision carries the same keys, in a copy of the spec', () => {
    const set = sidecarSet({ imagePullSecrets: [{ name: 's' }] });
    const rev = newSidecarSetRevision(set, 'kruise-system', 1, 0);
    const spec = (rev.data as { spec: Record<string, unknown> }).spec;
    expect(Object.keys(spec).sort()).toEqual(
      ['$patch', 'containers', 'imagePullSecrets', 'initContainers', 'patchPodMetadata', 'volumes'].sort(),
    );
    expect(spec['imagePullSecrets']).not.toBe(set.spec?.imagePullSecrets);
  });
});
