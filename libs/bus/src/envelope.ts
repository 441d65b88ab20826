import { createHash } from 'node:crypto';
import { EnvelopeError } from './errors.js';
import type { KubeObject } from './kinds.js';

/**
 * What a mirror bucket stores under a key. KV entries carry no headers in nats.js, so the trace
 * context of the watcher's write rides in the value (ADR 0003).
 */
export interface Envelope<T extends KubeObject = KubeObject> {
  v: 1;
  object: T;
  /** W3C traceparent of the watcher span that mirrored this change, when tracing is on. */
  traceparent?: string;
  /** When the watcher saw the change (ms since epoch): lets a cache measure the bus's lag. */
  observedAt: number;
}

/** The fields of a Secret that never travel the bus. */
type SecretFields = KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> };

const SECRET_HASH_ANNOTATION = 'regatta.dev/data-sha256';

/**
 * The mirrored form of an object: managedFields dropped; a Secret's data replaced by a hash of it
 * (secrets never travel the bus in clear; a controller that needs them reads the API server).
 */
export function trimForMirror<T extends KubeObject>(obj: T): T {
  const metadata = { ...obj.metadata };
  delete metadata.managedFields;
  const out: SecretFields = { ...obj, metadata };
  if (obj.kind === 'Secret') {
    const secret = obj as SecretFields;
    const data = { ...secret.data, ...secret.stringData };
    const h = createHash('sha256');
    for (const k of Object.keys(data).sort())
      h.update(k)
        .update('\0')
        .update(data[k] ?? '')
        .update('\0');
    delete out.data;
    delete out.stringData;
    out.metadata = {
      ...metadata,
      annotations: { ...metadata.annotations, [SECRET_HASH_ANNOTATION]: h.digest('hex') },
    };
  }
  return out as T;
}

export function encodeEnvelope(obj: KubeObject, traceparent?: string, now = Date.now()): Uint8Array {
  const env: Envelope = {
    v: 1,
    object: trimForMirror(obj),
    observedAt: now,
    ...(traceparent ? { traceparent } : {}),
  };
  return new TextEncoder().encode(JSON.stringify(env));
}

export function decodeEnvelope<T extends KubeObject>(
  bucket: string,
  key: string,
  data: Uint8Array,
): Envelope<T> {
  let env: Envelope<T>;
  try {
    env = JSON.parse(new TextDecoder().decode(data)) as Envelope<T>;
  } catch (err) {
    throw new EnvelopeError(bucket, key, `not JSON (${(err as Error).message})`);
  }
  if (env?.v !== 1 || typeof env.object !== 'object' || env.object === null) {
    throw new EnvelopeError(bucket, key, `unknown envelope version ${String((env as { v?: unknown })?.v)}`);
  }
  return env;
}
