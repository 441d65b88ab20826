/**
 * One CA and serving certificate for all replicas of a controller, kept in a Secret (as OpenKruise keeps its webhook
 * certificates in `kruise-webhook-certs`, `pkg/webhook/util/controller/webhook_controller.go`). The first replica
 * creates it; a replica that loses the create race reads the winner's, so every replica serves with certificates
 * signed by the one CA the webhook configurations trust. Read from the API server: Secrets never travel the bus.
 */
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { type KubeClient, type KubeObject, isAlreadyExists } from '@regatta/kube';
import {
  certificateAuthorityFromPem,
  createCertificateAuthority,
  type KeyPairPem,
  type Logger,
} from '@regatta/runtime';
import { KitError } from './errors.js';

const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;
const KEYS = { caCert: 'ca.crt', caKey: 'ca.key', cert: 'tls.crt', key: 'tls.key' } as const;

interface Secret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

export interface SharedCertificates {
  /** The CA the webhook configurations carry as caBundle. */
  caPem: string;
  /** What this replica serves with: the Secret's certificate, or one issued by the shared CA for hosts it lacks. */
  serving: KeyPairPem;
}

/** `regatta-<controller>-webhook-certs`. */
export function webhookSecretName(controller: string): string {
  return `regatta-${controller}-webhook-certs`;
}

/** Whether a PEM certificate's subject alternative names cover every host (DNS names and IP addresses). */
export function certificateCovers(certPem: string, hosts: readonly string[]): boolean {
  try {
    const cert = new X509Certificate(certPem);
    return hosts.every((h) => (isIP(h) ? cert.checkIP(h) : cert.checkHost(h)) !== undefined);
  } catch {
    return false;
  }
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');

/**
 * Reads the Secret `name` in `namespace`, creating it (a new CA and a serving certificate for `hosts`) when absent.
 * Create semantics make replicas converge: on AlreadyExists the existing Secret is used. When its serving
 * certificate does not cover this replica's hosts, one is issued here from the shared CA (not stored).
 */
export async function sharedWebhookCertificates(
  client: Pick<KubeClient, 'create' | 'getOrUndefined'>,
  opts: { namespace: string; name: string; hosts: readonly string[]; commonName: string; log: Logger },
): Promise<SharedCertificates> {
  const ref = { ...SECRET, namespace: opts.namespace, name: opts.name };
  let secret = await client.getOrUndefined<Secret>(ref);
  if (!secret) {
    const ca = await createCertificateAuthority(`${opts.commonName}-ca`);
    const serving = await ca.issueServing([...opts.hosts], opts.commonName);
    try {
      secret = await client.create<Secret>({
        ...SECRET,
        metadata: {
          name: opts.name,
          namespace: opts.namespace,
          labels: { 'app.kubernetes.io/managed-by': 'regatta' },
        },
        type: 'Opaque',
        data: {
          [KEYS.caCert]: b64(ca.certPem),
          [KEYS.caKey]: b64(ca.keyPem),
          [KEYS.cert]: b64(serving.certPem),
          [KEYS.key]: b64(serving.keyPem),
        },
      });
      opts.log.info({ secret: opts.name, namespace: opts.namespace }, 'created the webhook certificates');
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      secret = await client.getOrUndefined<Secret>(ref);
    }
  }
  const data = secret?.data ?? {};
  const caPem = unb64(data[KEYS.caCert]);
  const caKeyPem = unb64(data[KEYS.caKey]);
  if (!caPem || !caKeyPem) {
    throw new KitError(
      'REGATTA_WEBHOOK_CERTS',
      `Secret ${opts.namespace}/${opts.name} has no ${KEYS.caCert}/${KEYS.caKey}; delete it and every replica ` +
        'converges on a new one',
    );
  }
  const stored = { certPem: unb64(data[KEYS.cert]), keyPem: unb64(data[KEYS.key]) };
  if (stored.keyPem && certificateCovers(stored.certPem, opts.hosts)) return { caPem, serving: stored };
  const ca = await certificateAuthorityFromPem(caPem, caKeyPem);
  opts.log.info(
    { hosts: opts.hosts },
    'the shared serving certificate lacks this replica’s hosts; issued one from the shared CA',
  );
  return { caPem, serving: await ca.issueServing([...opts.hosts], opts.commonName) };
}
