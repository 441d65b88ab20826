import { describe, expect, it } from 'vitest';
import { classifySecrets, claimedSecret, newSyncedSecret, releaseActions, type SecretLike } from './secrets.js';
import { job } from './testing/fixtures.js';

const copy = (name: string, source: string, refs: string, extra: Partial<SecretLike['metadata']> = {}): SecretLike => ({
  metadata: {
    name,
    namespace: 'kruise-daemon-config',
    annotations: {
      'imagepulljobs.kruise.io/source-key': source,
      'imagepulljobs.kruise.io/references': refs,
      'imagepulljobs.kruise.io/mode': 'batch',
    },
    ...extra,
  },
  data: { k: 'djE=' },
});
const withSecrets = job((j) => (j.spec.pullSecrets = ['a', 'b']));

describe('secret classification / claim / release (§8.7)', () => {
  it('copies being deleted or unrelated are ignored; the copy referencing the job wins, else the first by name', () => {
    const { desired, released } = classifySecrets(withSecrets, [
      copy('a-2', 'default/a', 'default/job1'),
      copy('a-1', 'default/a', 'other/j'),
      copy('b-9', 'default/b', 'other/j'),
      copy('b-1', 'default/b', 'other/j', { deletionTimestamp: '2025-01-01T00:00:00Z' }),
      copy('c-1', 'default/c', 'other/j'),
    ]);
    expect(desired.get('default/a')?.metadata?.name).toBe('a-2');
    expect(desired.get('default/b')?.metadata?.name).toBe('b-9');
    expect(released).toEqual([]);
  });

  it('a source no copy exists for yet is to be created; malformed references are ignored', () => {
    const { desired } = classifySecrets(withSecrets, [copy('x', 'default/a', '/,a/b/c,')]);
    expect(desired.get('default/a')?.metadata?.name).toBe('x');
    expect(desired.has('default/b')).toBe(true);
    expect(desired.get('default/b')).toBeUndefined();
  });

  it('copies the job references but no longer wants are released; a completed or deleting job releases all', () => {
    const old = copy('z', 'default/z', 'default/job1');
    expect(classifySecrets(withSecrets, [old]).released).toEqual([old]);
    const done = job((j) => {
      j.spec.pullSecrets = ['a'];
      j.status = { desired: 0, completionTime: '2025-01-01T00:00:00Z' };
    });
    const a = copy('a-1', 'default/a', 'default/job1');
    expect(classifySecrets(done, [a])).toEqual({ desired: new Map(), released: [a] });
  });

  it('release: a copy only this job used is deleted; a shared one loses the reference', () => {
    const actions = releaseActions(job(), [copy('a', 's/a', 'default/job1'), copy('b', 's/b', 'default/job1,x/y')]);
    expect(actions.map((a) => a.type)).toEqual(['delete', 'update']);
    expect(actions[1]!.secret.metadata?.annotations?.['imagepulljobs.kruise.io/references']).toBe('x/y');
  });

  it('a new copy: <source>-<suffix>, source labels and annotations kept, source-key, references and mode', () => {
    const source: SecretLike = {
      metadata: { name: 'a', namespace: 'default', labels: { l: '1' }, annotations: { x: 'y' } },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': 'e30=' },
    };
    expect(newSyncedSecret(source, job(), 'kruise-daemon-config', 'abc123')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        namespace: 'kruise-daemon-config',
        name: 'a-abc123',
        labels: { l: '1' },
        annotations: {
          x: 'y',
          'imagepulljobs.kruise.io/references': 'default/job1',
          'imagepulljobs.kruise.io/source-key': 'default/a',
          'imagepulljobs.kruise.io/mode': 'batch',
        },
      },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': 'e30=' },
    });
  });

  it('claim: data refreshed from the source and the job added (sorted); nothing when already so', () => {
    const c = copy('a-1', 'default/a', 'z/j');
    const claimed = claimedSecret(c, { metadata: { name: 'a' }, data: { k: 'djI=' } }, job())!;
    expect(claimed.data).toEqual({ k: 'djI=' });
    expect(claimed.metadata?.annotations?.['imagepulljobs.kruise.io/references']).toBe('default/job1,z/j');
    expect(claimedSecret(claimed, { metadata: { name: 'a' }, data: { k: 'djI=' } }, job())).toBeUndefined();
  });
});
