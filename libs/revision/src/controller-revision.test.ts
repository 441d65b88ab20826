import { describe, expect, it } from 'vitest';
import {
  RevisionDataError,
  applyRevision,
  controllerRevisionName,
  hashControllerRevision,
  newCloneSetRevision,
  resolveNameCollision,
  revisionDataBytes,
  revisionForCollisionCount,
  templateFromRevision,
  templateRevisionData,
} from './controller-revision.js';
import { SAFE_ALPHABET, fnv1_32, safeEncodeString } from './hash.js';
import { REVISION_HASH_LABEL, VCT_HASH_ANNOTATION } from './keys.js';
import type { RevisionedWorkload } from './types.js';

function cloneSet(image = 'nginx:1.9.1', extra: Partial<RevisionedWorkload> = {}): RevisionedWorkload {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-1', annotations: { note: 'x' } },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image, resources: {} }] },
      },
    },
    ...extra,
  };
}

const HASH_RE = new RegExp(`^[${SAFE_ALPHABET}]+$`);

describe('hashControllerRevision', () => {
  it('matches Go for fixed data bytes (FNV-1 + decimal collision count, safe-encoded)', () => {
    // Data.Raw as Kruise marshals it; the value was computed with Go's hash/fnv and apimachinery rand
    const data = JSON.parse(
      '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"a"}},"spec":{"containers":[{"image":"nginx:1.9.1","name":"nginx","resources":{}}]}}}}',
    );
    expect(hashControllerRevision({ data }, 0)).toBe('7485664b77');
  });

  it('is FNV-1 over the data bytes then the decimal collision count', () => {
    const data = { spec: { template: { a: 1 } } };
    const bytes = revisionDataBytes({ data });
    expect(hashControllerRevision({ data }, 12)).toBe(safeEncodeString(String(fnv1_32(`${bytes}12`))));
    expect(hashControllerRevision({ data })).toBe(safeEncodeString(String(fnv1_32(bytes))));
  });

  it('is stable, independent of key order, and changes with the template and the collision count', () => {
    const a = { spec: { template: { metadata: { labels: { x: '1', y: '2' } }, spec: { c: 1 } } } };
    const b = { spec: { template: { spec: { c: 1 }, metadata: { labels: { y: '2', x: '1' } } } } };
    expect(hashControllerRevision({ data: a }, 0)).toBe(hashControllerRevision({ data: b }, 0));
    expect(hashControllerRevision({ data: a }, 0)).not.toBe(hashControllerRevision({ data: a }, 1));
    const changed = { spec: { template: { metadata: { labels: { x: '1', y: '3' } }, spec: { c: 1 } } } };
    expect(hashControllerRevision({ data: changed }, 0)).not.toBe(hashControllerRevision({ data: a }, 0));
    expect(hashControllerRevision({ data: a }, 0)).toMatch(HASH_RE);
  });
});

describe('controllerRevisionName', () => {
  it('is <parent>-<hash> with the parent cut at 223 characters', () => {
    expect(controllerRevisionName('web', 'abc')).toBe('web-abc');
    expect(controllerRevisionName('p'.repeat(300), 'abc')).toBe(`${'p'.repeat(223)}-abc`);
  });
});

describe('newCloneSetRevision', () => {
  const rev = newCloneSetRevision(cloneSet(), 3, 0);

  it('stores the template as a replace patch', () => {
    expect(rev.data).toEqual({
      spec: {
        template: {
          $patch: 'replace',
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.9.1', resources: {} }] },
        },
      },
    });
    expect(revisionDataBytes(rev)).toBe(
      '{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.9.1","name":"nginx","resources":{}}]}}}}',
    );
  });

  it('is named <set>-<hash>, labelled with the template labels and the hash, owned by the CloneSet', () => {
    const hash = hashControllerRevision(rev, 0);
    expect(rev.metadata?.name).toBe(`web-${hash}`);
    expect(rev.metadata?.namespace).toBe('default');
    expect(rev.metadata?.labels).toEqual({ app: 'web', [REVISION_HASH_LABEL]: hash });
    expect(rev.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        name: 'web',
        uid: 'uid-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(rev.revision).toBe(3);
  });

  it('copies the CloneSet annotations and adds the VCT hash ("" without templates)', () => {
    expect(rev.metadata?.annotations).toEqual({ note: 'x', [VCT_HASH_ANNOTATION]: '' });
    const withVct = cloneSet();
    withVct.spec = {
      ...withVct.spec,
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    };
    expect(newCloneSetRevision(withVct, 1, 0).metadata?.annotations?.[VCT_HASH_ANNOTATION]).toMatch(/^\d+$/);
  });

  it('does not put volumeClaimTemplates into the data: a VCT-only change keeps the name', () => {
    const withVct = cloneSet();
    withVct.spec = { ...withVct.spec, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }] };
    expect(newCloneSetRevision(withVct, 1, 0).metadata?.name).toBe(rev.metadata?.name);
  });

  it('changes name with the image and with the collision count', () => {
    expect(newCloneSetRevision(cloneSet('nginx:2'), 3, 0).metadata?.name).not.toBe(rev.metadata?.name);
    expect(newCloneSetRevision(cloneSet(), 3, 1).metadata?.name).not.toBe(rev.metadata?.name);
  });

  it('takes the owner kind from the gvk argument for list items', () => {
    const item = cloneSet();
    delete item.apiVersion;
    delete item.kind;
    expect(
      newCloneSetRevision(item, 1, 0, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet' }).metadata
        ?.ownerReferences?.[0]?.apiVersion,
    ).toBe('apps.kruise.io/v1beta1');
  });

  it('without the VCT hash (Advanced StatefulSet): the workload annotations only, the same name', () => {
    const sts = newCloneSetRevision(
      cloneSet(),
      3,
      0,
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
      {
        volumeClaimTemplatesHash: false,
      },
    );
    expect(sts.metadata?.annotations).toEqual({ note: 'x' });
    expect(sts.metadata?.name).toBe(rev.metadata?.name);
  });

  it('refuses a CloneSet without a name or template', () => {
    expect(() => newCloneSetRevision({ metadata: {} }, 1, 0)).toThrow(RevisionDataError);
    expect(() => newCloneSetRevision({ metadata: { name: 'x', uid: 'u' }, spec: {} }, 1, 0)).toThrow(
      'no spec.template',
    );
  });
});

describe('collisions', () => {
  const candidate = newCloneSetRevision(cloneSet(), 1, 0);

  it('renames for a new collision count and keeps the first hash label', () => {
    const retry = revisionForCollisionCount(candidate, 'web', 1);
    expect(retry.metadata?.name).toBe(`web-${hashControllerRevision(candidate, 1)}`);
    expect(retry.metadata?.name).not.toBe(candidate.metadata?.name);
    expect(retry.metadata?.labels?.[REVISION_HASH_LABEL]).toBe(
      candidate.metadata?.labels?.[REVISION_HASH_LABEL],
    );
  });

  it('reuses an existing revision with byte-equal data, retries with count+1 otherwise', () => {
    expect(resolveNameCollision({ ...candidate, revision: 7 }, candidate, 0)).toEqual({
      type: 'reuse',
      revision: { ...candidate, revision: 7 },
    });
    const other = newCloneSetRevision(cloneSet('other'), 1, 0);
    expect(resolveNameCollision(other, candidate, 2)).toEqual({ type: 'retry', collisionCount: 3 });
  });
});

describe('templateFromRevision / applyRevision', () => {
  const rev = newCloneSetRevision(cloneSet('nginx:old'), 1, 0);

  it('returns the stored template without $patch', () => {
    expect(templateFromRevision(rev)).toEqual(cloneSet('nginx:old').spec?.template);
    expect(templateRevisionData(templateFromRevision(rev))).toEqual(rev.data);
  });

  it('restores the template on a copy of the workload', () => {
    const current = cloneSet('nginx:new');
    const restored = applyRevision(current, rev);
    expect(restored.spec?.template).toEqual(cloneSet('nginx:old').spec?.template);
    expect(restored.spec?.selector).toEqual(current.spec?.selector);
    expect(current.spec?.template?.spec).toEqual({
      containers: [{ name: 'nginx', image: 'nginx:new', resources: {} }],
    });
  });

  it('explains a revision without a template', () => {
    expect(() => templateFromRevision({ metadata: { name: 'r' }, data: { spec: {} }, revision: 1 })).toThrow(
      'r has no spec.template',
    );
  });
});
