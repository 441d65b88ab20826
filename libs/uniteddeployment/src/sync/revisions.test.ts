import { describe, expect, it } from 'vitest';
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
  it('versions spec.template alone, replacing it whole (the key order sent is set by syncRevisions in libs/revision)', () => {
    const rev = newUdRevision(
      ud,
      SUBSET_KINDS.find((k) => k.kind === 'CloneSet'),
      1,
      0,
    );
    expect(rev.data).toEqual({ spec: { template: { ...ud.spec.template, $patch: 'replace' } } });
    expect(rev.metadata?.name).toMatch(/^web-/);
  });
});
