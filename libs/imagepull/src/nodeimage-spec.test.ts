import { describe, expect, it } from 'vitest';
import type { NodeImage } from '@regatta/api';
import { maintainNodeImageSpec, type SpecLookups } from './nodeimage-spec.js';
import { owner } from './testing/fixtures.js';

const now = new Date('2025-01-01T01:00:00Z');
const jobs: Record<string, string> = { 'default/job1': 'u1', 'default/job2': 'u2' };
const lookups: SpecLookups = {
  jobUid: (ns, n) => jobs[`${ns}/${n}`],
  secretExists: (_ns, n) => n !== 'secret2',
};
const tag = (name: string, owners = [owner('u1', 'job1')], extra: Record<string, unknown> = {}) => ({
  tag: name,
  createdAt: '2025-01-01T00:00:00Z',
  version: 0,
  ownerReferences: owners,
  pullPolicy: { ttlSecondsAfterFinished: 600 },
  ...extra,
});
const ni = (images: NonNullable<NodeImage['spec']>['images'], labels: Record<string, string> = { a: 'b' }, status?: NodeImage['status']): NodeImage => ({
  metadata: { name: 'node1', labels },
  spec: { images },
  ...(status ? { status } : {}),
});
const done = (completionTime: string): NodeImage['status'] => ({
  desired: 1,
  imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: 'Succeeded', version: 0, completionTime }] } },
});
const run = (n: NodeImage, labels: Record<string, string> | null = { a: 'b' }) => maintainNodeImageSpec(n, labels, lookups, now);

describe('TestDoUpdateNodeImage (§8.7)', () => {
  it('unchanged → not modified', () => {
    expect(run(ni({ nginx: { tags: [tag('1.20')] } })).updated).toBeUndefined();
  });
  it('node labels changed → modified, labels copied', () => {
    expect(run(ni({}), { a: 'c' }).updated?.metadata?.labels).toEqual({ a: 'c' });
  });
  it('tag without createdAt → removed (image with it)', () => {
    const out = run(ni({ nginx: { tags: [{ tag: '1.20', ownerReferences: [owner('u1')] }] } })).updated!;
    expect(out.spec?.images).toEqual({});
  });
  it('an owner of another kind is kept', () => {
    const other = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'c', namespace: 'default', uid: 'x' };
    expect(run(ni({ nginx: { tags: [tag('1.20', [other])] } })).updated).toBeUndefined();
  });
  it('missing job → owner removed, and the tag with it', () => {
    expect(run(ni({ nginx: { tags: [tag('1.20', [owner('u9', 'gone')])] } })).updated!.spec?.images).toEqual({});
  });
  it('UID mismatch → owner removed', () => {
    expect(run(ni({ nginx: { tags: [tag('1.20', [owner('old', 'job1')])] } })).updated!.spec?.images).toEqual({});
  });
  it('a running job (its UID) keeps its owner; a read error keeps it too', () => {
    expect(run(ni({ nginx: { tags: [tag('1.20')] } })).updated).toBeUndefined();
    const unknown = maintainNodeImageSpec(ni({ nginx: { tags: [tag('1.20', [owner('u', 'x')])] } }), { a: 'b' }, { ...lookups, jobUid: () => 'unknown' }, now);
    expect(unknown.updated).toBeUndefined();
  });
  it('one of two owners gone → tag kept with the other', () => {
    const out = run(ni({ nginx: { tags: [tag('1.20', [owner('u1', 'job1'), owner('u9', 'gone')])] } })).updated!;
    expect(out.spec!.images!['nginx']!.tags[0]!.ownerReferences).toEqual([owner('u1', 'job1')]);
  });
  it('one of two tags removed → image kept', () => {
    const out = run(ni({ nginx: { tags: [tag('1.20'), tag('1.21', [owner('u9', 'gone')])] } })).updated!;
    expect(out.spec!.images!['nginx']!.tags.map((t) => t.tag)).toEqual(['1.20']);
  });
  it('TTL exceeded after completion → tag removed; not exceeded → wait duration', () => {
    expect(run(ni({ nginx: { tags: [tag('1.20')] } }, { a: 'b' }, done('2025-01-01T00:49:00Z'))).updated!.spec?.images).toEqual({});
    const waiting = run(ni({ nginx: { tags: [tag('1.20')] } }, { a: 'b' }, done('2025-01-01T00:59:00Z')));
    expect(waiting.updated).toBeUndefined();
    expect(waiting.waitMs).toBe(540_000);
  });
  it('a status of another version does not start the TTL', () => {
    const st = done('2025-01-01T00:00:00Z');
    st!.imageStatuses!['nginx']!.tags[0]!.version = 7;
    expect(run(ni({ nginx: { tags: [tag('1.20')] } }, { a: 'b' }, st)).updated).toBeUndefined();
  });
  it('multiple images all valid → not modified', () => {
    expect(run(ni({ nginx: { tags: [tag('1.20')] }, busybox: { tags: [tag('1', [owner('u2', 'job2')])] } })).updated).toBeUndefined();
  });
  it('pull secrets [secret1 (exists), secret2 (missing, legacy), secret3 (batch)] → [secret1, secret3]', () => {
    const s = (name: string, mode?: string) => ({ namespace: 'c', name, ...(mode ? { mode } : {}) });
    const out = run(ni({ nginx: { tags: [tag('1.20')], pullSecrets: [s('secret1'), s('secret2'), s('secret3', 'batch')] } })).updated!;
    expect(out.spec!.images!['nginx']!.pullSecrets).toEqual([s('secret1'), s('secret3', 'batch')]);
  });
  it('a fake NodeImage (no node) keeps its labels', () => {
    expect(run(ni({}, { x: 'y' }), null).updated).toBeUndefined();
  });
});
