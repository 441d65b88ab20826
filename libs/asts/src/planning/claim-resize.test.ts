import { describe, expect, it } from 'vitest';
import {
  claimCompatibleAndReady,
  claimResizeCompleted,
  claimResizeState,
  livePodClaims,
  podClaimsReady,
  podClaimsState,
} from './claim-resize.js';
import type { PersistentVolumeClaim } from './identity.js';

const pvc = (
  request: string,
  o: { sc?: string; modes?: string[]; capacity?: string; pending?: boolean; name?: string } = {},
): PersistentVolumeClaim => ({
  metadata: { name: o.name ?? 'data' },
  spec: {
    accessModes: o.modes ?? ['ReadWriteOnce'],
    ...(o.sc ? { storageClassName: o.sc } : {}),
    resources: { requests: { storage: request } },
  },
  status: {
    ...(o.capacity ? { capacity: { storage: o.capacity } } : {}),
    ...(o.pending ? { conditions: [{ type: 'FileSystemResizePending', status: 'True' }] } : {}),
  },
});

describe('claimResizeState (CompareWithCheckFn with IsPVCNeedExpand)', () => {
  it.each([
    ['same size', pvc('1Gi', { sc: 'a' }), pvc('1Gi', { sc: 'a' }), 'matched'],
    ['claim larger than the template', pvc('2Gi', { sc: 'a' }), pvc('1Gi', { sc: 'a' }), 'matched'],
    ['template larger', pvc('1Gi', { sc: 'a' }), pvc('2Gi', { sc: 'a' }), 'expand'],
    ['quantities, not strings', pvc('1024Mi'), pvc('1Gi'), 'matched'],
    ['template without a class matches the defaulted class', pvc('1Gi', { sc: 'std' }), pvc('2Gi'), 'expand'],
    ['another class', pvc('1Gi', { sc: 'a' }), pvc('2Gi', { sc: 'b' }), 'mismatch'],
    ['other access modes', pvc('1Gi', { modes: ['ReadWriteMany'] }), pvc('1Gi'), 'mismatch'],
  ] as const)('%s → %s', (_n, claim, template, want) => {
    expect(claimResizeState(claim, template)).toBe(want);
  });
});

describe('claimCompatibleAndReady / claimResizeCompleted', () => {
  it.each([
    ['resized', pvc('2Gi', { capacity: '2Gi' }), pvc('2Gi'), true, true, true],
    ['request raised, capacity not yet', pvc('2Gi', { capacity: '1Gi' }), pvc('2Gi'), true, false, false],
    [
      'file system resize pending counts as completed',
      pvc('2Gi', { capacity: '1Gi', pending: true }),
      pvc('2Gi'),
      true,
      false,
      true,
    ],
    ['not raised yet', pvc('1Gi', { capacity: '1Gi' }), pvc('2Gi'), false, true, false],
    ['no capacity (unbound)', pvc('1Gi'), pvc('1Gi'), true, false, false],
  ] as const)('%s', (_n, claim, template, compatible, ready, completed) => {
    expect(claimCompatibleAndReady(claim, template)).toEqual({ compatible, ready });
    expect(claimResizeCompleted(claim, template)).toBe(completed);
  });
});

describe("a pod's claims", () => {
  it('skips missing claims and claims being deleted; the first not matched decides', () => {
    const templates = [pvc('2Gi', { name: 'a' }), pvc('1Gi', { name: 'b' }), pvc('1Gi', { name: 'c' })];
    const deleting = { ...pvc('1Gi', { name: 'b-x' }), metadata: { name: 'b-x', deletionTimestamp: 'now' } };
    const claims = livePodClaims(templates, (t) =>
      t === 'a' ? pvc('1Gi', { capacity: '1Gi' }) : t === 'b' ? deleting : undefined,
    );
    expect(claims.map((c) => c.template.metadata?.name)).toEqual(['a']);
    expect(podClaimsState(claims)).toBe('expand');
    expect(podClaimsReady(claims)).toBe(true);
    expect(podClaimsState([])).toBe('matched');
  });
});
