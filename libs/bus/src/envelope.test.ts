import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeEnvelope, LAST_APPLIED_ANNOTATION, SECRET_HASH_ANNOTATION, trimForMirror } from './envelope.js';
import { SecretHashKeyMissingError } from './errors.js';
import { KIND_TABLE } from '@regatta/kube';
import type { KubeObject } from './kinds.js';

type SecretObject = KubeObject & { data?: Record<string, string> };

const KEY = 'k'.repeat(32);
const secret = (extra: Partial<SecretObject> = {}, annotations: Record<string, string> = {}): SecretObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { namespace: 'ns', name: 's', resourceVersion: '1', annotations, managedFields: [{ manager: 'x' }] },
  data: { password: 'aHVudGVyMg==' },
  ...extra,
});

describe('trimForMirror', () => {
  it('scrubs by the listed resource: a Secret whose object says another kind is still scrubbed', () => {
    for (const kind of ['Secret', 'secret', 'ConfigMap', undefined]) {
      const out: SecretObject = trimForMirror({ ...secret(), kind }, KIND_TABLE.secrets, { secretHashKey: KEY });
      expect(out.data).toBeUndefined();
      expect(out.metadata?.annotations?.[SECRET_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('does not treat an object of another resource as a Secret because its kind says so', () => {
    const out: SecretObject = trimForMirror({ ...secret(), kind: 'Secret' }, KIND_TABLE.configmaps);
    expect(out.data).toEqual({ password: 'aHVudGVyMg==' });
  });

  it('drops managedFields and kubectl last-applied-configuration of every kind', () => {
    const cm = trimForMirror(
      { kind: 'ConfigMap', metadata: { name: 'c', managedFields: [], annotations: { [LAST_APPLIED_ANNOTATION]: '{}', keep: 'me' } } },
      KIND_TABLE.configmaps,
    );
    expect(cm.metadata).toEqual({ name: 'c', annotations: { keep: 'me' } });
  });

  it("drops a Secret's last-applied copy (stringData in clear) and any annotation holding JSON", () => {
    const applied = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', stringData: { password: 'hunter2' } });
    const out = trimForMirror(
      secret({}, { [LAST_APPLIED_ANNOTATION]: applied, 'tool.example/copy': ` ${applied}`, 'list.example/x': '["hunter2"]', note: 'plain {text' }),
      KIND_TABLE.secrets,
      { secretHashKey: KEY },
    );
    expect(JSON.stringify(out)).not.toContain('hunter2');
    expect(JSON.stringify(out)).not.toContain('aHVudGVyMg==');
    expect(Object.keys(out.metadata?.annotations ?? {}).sort()).toEqual(['note', SECRET_HASH_ANNOTATION]);
  });

  it('hashes with an HMAC under the key, not a plain SHA-256 a short secret could be guessed from', () => {
    const hash = (key: string) =>
      trimForMirror(secret(), KIND_TABLE.secrets, { secretHashKey: key }).metadata?.annotations?.[SECRET_HASH_ANNOTATION];
    const plain = createHash('sha256').update('password\0aHVudGVyMg==\0').digest('hex');
    const keyed = createHmac('sha256', KEY).update('password\0aHVudGVyMg==\0').digest('hex');
    expect(hash(KEY)).toBe(keyed);
    expect(hash(KEY)).not.toBe(plain);
    expect(hash('another key of 32 bytes or more!!')).not.toBe(keyed);
    // same data, same hash (controllers compare it); different data, different hash
    expect(trimForMirror(secret({ data: { password: 'b3RoZXI=' } }), KIND_TABLE.secrets, { secretHashKey: KEY }).metadata?.annotations?.[SECRET_HASH_ANNOTATION]).not.toBe(keyed);
  });

  it('refuses to trim a Secret without a hash key', () => {
    expect(() => trimForMirror(secret(), KIND_TABLE.secrets)).toThrow(SecretHashKeyMissingError);
  });
});

describe('trimForMirror: a ResourceDistribution embedding a Secret (docs/resourcedistribution.md)', () => {
  const rd = (resource: Record<string, unknown>, annotations: Record<string, string> = {}): KubeObject =>
    ({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ResourceDistribution',
      metadata: { name: 'rd', annotations },
      spec: { resource, targets: { allNamespaces: true } },
    }) as KubeObject;
  const embedded = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { p: 'aHVudGVyMg==' }, stringData: { q: 'hunter3' } };
  const spec = (o: KubeObject) => (o as unknown as { spec: { resource: Record<string, unknown> } }).spec;

  it('carries the embedded data only as the keyed hash, and no JSON annotation of the distribution', () => {
    const applied = JSON.stringify(rd(embedded));
    const out = trimForMirror(rd(embedded, { copy: applied, keep: 'x' }), KIND_TABLE.resourcedistributions, { secretHashKey: KEY });
    const text = JSON.stringify(out);
    for (const clear of ['aHVudGVyMg==', 'hunter3']) expect(text).not.toContain(clear);
    expect(spec(out).resource).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', annotations: { [SECRET_HASH_ANNOTATION]: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    });
    expect(out.metadata?.annotations).toEqual({ keep: 'x' });
    expect((out as unknown as { spec: Record<string, unknown> }).spec['targets']).toEqual({ allNamespaces: true });
  });
  it('the hash moves when the data does; without a key the data is dropped all the same', () => {
    const a = trimForMirror(rd(embedded), KIND_TABLE.resourcedistributions, { secretHashKey: KEY });
    const b = trimForMirror(rd({ ...embedded, data: { p: 'eA==' } }), KIND_TABLE.resourcedistributions, { secretHashKey: KEY });
    expect(spec(a).resource).not.toEqual(spec(b).resource);
    const noKey = trimForMirror(rd(embedded), KIND_TABLE.resourcedistributions);
    expect(JSON.stringify(noKey)).not.toContain('hunter3');
    expect(spec(noKey).resource['data']).toBeUndefined();
  });
  it('a distributed ConfigMap travels as it is', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    expect(spec(trimForMirror(rd(cm), KIND_TABLE.resourcedistributions)).resource).toEqual(cm);
  });
});

describe('envelope', () => {
  it('round-trips and carries no trace context (docs/adr/0003)', () => {
    const env = decodeEnvelope('b', 'k', encodeEnvelope({ metadata: { name: 'a' } }, 42));
    expect(env).toEqual({ v: 1, object: { metadata: { name: 'a' } }, observedAt: 42 });
  });
});
