import { createHmac } from 'node:crypto';
import { EnvelopeError, SecretHashKeyMissingError } from './errors.js';
import type { KindRef, KubeObject } from './kinds.js';

/**
 * What a mirror bucket stores under a key: the trimmed object and when the watcher saw it. Trace context does
 * not cross the bus: a rollout's trace lives on the workload (docs/adr/0003, 0007).
 */
export interface Envelope<T extends KubeObject = KubeObject> {
  v: 1;
  object: T;
  /**
   * When the watcher received the change from the API server (ms since epoch; the watch event's or the list's
   * arrival, not the put): lets a cache measure the bus's lag, the watcher's own queue included.
   */
  observedAt: number;
}

/** Where a mirrored Secret's keyed hash of its data is kept (docs/adr/0009). */
export const SECRET_HASH_ANNOTATION = 'regatta.dev/data-hmac-sha256';
/** kubectl apply's copy of the applied object: a Secret's `stringData` in clear, so never mirrored. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The API resource an object was listed from; scrubbing is decided by it, never by the object's `kind`. */
export type MirrorResource = Pick<KindRef, 'group' | 'plural'>;

/** Core Secrets: their data is replaced by a keyed hash. */
export function isSecretResource(r: MirrorResource): boolean {
  return r.group === '' && r.plural === 'secrets';
}

export interface TrimOptions {
  /** HMAC key for Secrets' data (REGATTA_SECRET_HASH_KEY); required to trim a Secret. */
  secretHashKey?: string | Uint8Array;
}

/** ResourceDistributions: a Secret they embed in `spec.resource` is scrubbed as a Secret (docs/resourcedistribution.md). */
export function isResourceDistributionResource(r: MirrorResource): boolean {
  return r.group === 'apps.kruise.io' && r.plural === 'resourcedistributions';
}

/** The fields of a Secret that never travel the bus. */
type SecretFields = KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> };

/** HMAC-SHA256 of a Secret's data and stringData (keys sorted, each key and value NUL-terminated). */
function secretDataHmac(secret: SecretFields, key: string | Uint8Array): string {
  const data = { ...secret.data, ...secret.stringData };
  const h = createHmac('sha256', key);
  for (const k of Object.keys(data).sort())
    h.update(k)
      .update('\0')
      .update(data[k] ?? '')
      .update('\0');
  return h.digest('hex');
}

/** Annotations without kubectl's last-applied copy (and, for a Secret, without any JSON copy of the object). */
function keptAnnotations(annotations: Record<string, string>, secret: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) {
    if (k === LAST_APPLIED_ANNOTATION || (secret && looksLikeJson(v))) continue;
    out[k] = v;
  }
  return out;
}

/**
 * A Secret without its data: `data`/`stringData` replaced by the keyed hash annotation (dropped without a hash when
 * `key` is absent), JSON annotations dropped.
 */
function scrubSecret<T extends SecretFields>(secret: T, key: string | Uint8Array | undefined): T {
  const metadata = { ...secret.metadata };
  const annotations = keptAnnotations(secret.metadata?.annotations ?? {}, true);
  const out: SecretFields = { ...secret, metadata };
  delete out.data;
  delete out.stringData;
  if (key && key.length > 0) annotations[SECRET_HASH_ANNOTATION] = secretDataHmac(secret, key);
  if (secret.metadata?.annotations || (key && key.length > 0)) metadata.annotations = annotations;
  return out as T;
}

/** A ResourceDistribution whose `spec.resource` is a Secret. */
type DistributionFields = KubeObject & { spec?: { resource?: SecretFields } & Record<string, unknown> };

/**
 * The mirrored form of an object listed from `resource`: managedFields and kubectl's last-applied copy dropped.
 * A Secret's `data`/`stringData` are replaced by an HMAC-SHA256 of them, and every annotation holding JSON (a
 * copy of the object by some tool) is dropped: secrets never travel the bus in clear, and a short secret cannot
 * be guessed from its hash without the key. A ResourceDistribution embedding a Secret is scrubbed the same way,
 * its embedded Secret as a Secret and its own JSON annotations dropped. A controller that needs the values reads
 * the API server.
 */
export function trimForMirror<T extends KubeObject>(obj: T, resource: MirrorResource, o: TrimOptions = {}): T {
  const secret = isSecretResource(resource);
  const embedded = (obj as DistributionFields).spec?.resource;
  const distribution = isResourceDistributionResource(resource) && embedded?.kind === 'Secret';
  const metadata = { ...obj.metadata };
  delete metadata.managedFields;
  if (obj.metadata?.annotations) metadata.annotations = keptAnnotations(obj.metadata.annotations, secret || distribution);
  if (secret) {
    if (!o.secretHashKey || o.secretHashKey.length === 0) throw new SecretHashKeyMissingError();
    // cast through unknown: a Secret's mirror value is the Secret with its data hashed, the same object type T the caller gave
    return scrubSecret({ ...obj, metadata } as SecretFields, o.secretHashKey) as unknown as T;
  }
  const out = { ...obj, metadata } as DistributionFields;
  if (distribution && embedded && out.spec) out.spec = { ...out.spec, resource: scrubSecret(embedded, o.secretHashKey) };
  return out as T;
}

/** An annotation value that is a JSON object or array (a serialized object, possibly this one). */
function looksLikeJson(v: string): boolean {
  const s = v.trimStart();
  if (!s.startsWith('{') && !s.startsWith('[')) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

// one of each per process: every bus update is decoded here, and neither keeps state between whole-buffer calls
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Encodes an already trimmed object (see {@link trimForMirror}) as a bucket value; `now` is its `observedAt`. */
export function encodeEnvelope(trimmed: KubeObject, now = Date.now()): Uint8Array {
  const env: Envelope = { v: 1, object: trimmed, observedAt: now };
  return utf8Encoder.encode(JSON.stringify(env));
}

export function decodeEnvelope<T extends KubeObject>(
  bucket: string,
  key: string,
  data: Uint8Array,
): Envelope<T> {
  let env: Envelope<T>;
  try {
    env = JSON.parse(utf8Decoder.decode(data)) as Envelope<T>;
  } catch (err) {
    throw new EnvelopeError(bucket, key, `not JSON (${(err as Error).message})`);
  }
  if (env?.v !== 1 || typeof env.object !== 'object' || env.object === null) {
    throw new EnvelopeError(bucket, key, `unknown envelope version ${String((env as { v?: unknown })?.v)}`);
  }
  return env;
}
