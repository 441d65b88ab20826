import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeEnvelope, LAST_APPLIED_ANNOTATION, SECRET_HASH_ANNOTATION, trimForMirror } from './envelope.js';
import { SecretHashKeyMissingError } from './errors.js';
import { KINDS, type KubeObject } from './kinds.js';

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
      const out: SecretObject = trimForMirror({ ...secret(), kind }, KINDS.secrets, { secretHashKey: KEY });
      expect(out.data).toBeUndefined();
      expect(out.metadata?.annotations?.[SECRET_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('does not treat an object of another resource as a Secret because its kind says so', () => {
    const out: SecretObject = trimForMirror({ ...secret(), kind: 'Secret' }, KINDS.configmaps);
    expect(out.data).toEqual({ password: 'aHVudGVyMg==' });
  });

  it('drops managedFields and kubectl last-applied-configuration of every kind', () => {
    const cm = trimForMirror(
      { kind: 'ConfigMap', metadata: { name: 'c', managedFields: [], annotations: { [LAST_APPLIED_ANNOTATION]: '{}', keep: 'me' } } },
      KINDS.configmaps,
    );
    expect(cm.metadata).toEqual({ name: 'c', annotations: { keep: 'me' } });
  });

  it("drops a Secret's last-applied copy (stringData in clear) and any annotation holding JSON", () => {
    const applied = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', stringData: { password: 'hunter2' } });
    const out = trimForMirror(
      secret({}, { [LAST_APPLIED_ANNOTATION]: applied, 'tool.example/copy': ` ${applied}`, 'list.example/x': '["hunter2"]', note: 'plain {text' }),
      KINDS.secrets,
      { secretHashKey: KEY },
    );
    expect(JSON.stringify(out)).not.toContain('hunter2');
    expect(JSON.stringify(out)).not.toContain('aHVudGVyMg==');
    expect(Object.keys(out.metadata?.annotations ?? {}).sort()).toEqual(['note', SECRET_HASH_ANNOTATION]);
  });

  it('hashes with an HMAC under the key, not a plain SHA-256 a short secret could be guessed from', () => {
    const hash = (key: string) =>
      trimForMirror(secret(), KINDS.secrets, { secretHashKey: key }).metadata?.annotations?.[SECRET_HASH_ANNOTATION];
    const plain = createHash('sha256').update('password\0aHVudGVyMg==\0').digest('hex');
    const keyed = createHmac('sha256', KEY).update('password\0aHVudGVyMg==\0').digest('hex');
    expect(hash(KEY)).toBe(keyed);
    expect(hash(KEY)).not.toBe(plain);
    expect(hash('another key of 32 bytes or more!!')).not.toBe(keyed);
    // same data, same hash (controllers compare it); different data, different hash
    expect(trimForMirror(secret({ data: { password: 'b3RoZXI=' } }), KINDS.secrets, { secretHashKey: KEY }).metadata?.annotations?.[SECRET_HASH_ANNOTATION]).not.toBe(keyed);
  });

  it('refuses to trim a Secret without a hash key', () => {
    expect(() => trimForMirror(secret(), KINDS.secrets)).toThrow(SecretHashKeyMissingError);
  });
});

describe('envelope', () => {
  it('round-trips and carries no trace context (docs/adr/0003)', () => {
    const env = decodeEnvelope('b', 'k', encodeEnvelope({ metadata: { name: 'a' } }, 42));
    expect(env).toEqual({ v: 1, object: { metadata: { name: 'a' } }, observedAt: 42 });
  });
});
