import { describe, expect, it } from 'vitest';
import { goJson } from '@regatta/revision';
import { SUBSET_KINDS } from '../subset/kinds.js';
import type { UnitedDeployment } from '../types.js';
import { newUdRevision } from './revisions.js';

const ud: UnitedDeployment = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'UnitedDeployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'u' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      cloneSetTemplate: {
        metadata: { labels: { app: 'web' } },
        spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx' }] } } } as never,
      },
    },
  },
};

describe('newUdRevision', () => {
  it('sends data with its keys as Go writes them, so a strategic-merge patch of the revision leaves it unchanged', () => {
    const rev = newUdRevision(ud, SUBSET_KINDS.find((k) => k.kind === 'CloneSet'), 1, 0);
    expect(JSON.stringify(rev.data)).toBe(goJson(rev.data));
    expect(JSON.stringify(rev.data)).toMatch(/^\{"spec":\{"template":\{"\$patch":"replace","cloneSetTemplate"/);
    expect(rev.metadata?.name).toMatch(/^web-/);
  });
});
