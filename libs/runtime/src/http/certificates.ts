import 'reflect-metadata'; // required by @peculiar/x509's dependency injection container
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const crypto = webcrypto;
// Node's webcrypto implements the Web Crypto API; the library types it with the DOM's `Crypto`.
type DomCrypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.create>[1]>;
// cast through unknown: the same API under two declarations (node:crypto's and the DOM lib's), which TypeScript cannot relate
x509.cryptoProvider.set(crypto as unknown as DomCrypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** A PEM certificate with its PKCS#8 PEM private key. */
export interface KeyPairPem {
  certPem: string;
  keyPem: string;
}

export interface CertificateAuthority extends KeyPairPem {
  /** Issues a serving certificate for the given DNS names and IP addresses. */
  issueServing(hosts: string[], commonName?: string): Promise<KeyPairPem>;
  /** Issues a client certificate; `groups` become the subject's O= entries (Kubernetes groups). */
  issueClient(commonName: string, groups?: string[]): Promise<KeyPairPem>;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ALG, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function publicKeyPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey('spki', key);
  return x509.PemConverter.encode(der, 'PUBLIC KEY');
}

function validity(): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - 3600_000), notAfter: new Date(now + TEN_YEARS_MS) };
}

function isIp(host: string): boolean {
  return /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(':');
}

/** An authority from its certificate and private key: issues with that key. */
function authority(caCert: x509.X509Certificate, caKey: CryptoKey, caKeyPem: string): CertificateAuthority {
  async function issue(subject: string, extensions: x509.Extension[]): Promise<KeyPairPem> {
    const keys = await keyPair();
    const cert = await x509.X509CertificateGenerator.create({
      subject,
      issuer: caCert.subject,
      ...validity(),
      signingAlgorithm: ALG,
      publicKey: keys.publicKey,
      signingKey: caKey,
      extensions: [
        new x509.BasicConstraintsExtension(false),
        await x509.AuthorityKeyIdentifierExtension.create(caCert),
        ...extensions,
      ],
    });
    return { certPem: cert.toString('pem'), keyPem: await privateKeyPem(keys.privateKey) };
  }

  return {
    certPem: caCert.toString('pem'),
    keyPem: caKeyPem,
    issueServing: (hosts, cn = hosts[0] ?? 'localhost') =>
      issue(`CN=${cn}`, [
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
          true,
        ),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(
          hosts.map((h) => ({ type: isIp(h) ? 'ip' : 'dns', value: h })),
        ),
      ]),
    issueClient: (cn, groups = []) =>
      issue([...groups.map((g) => `O=${g}`), `CN=${cn}`].join(', '), [
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      ]),
  };
}

/**
 * The authority stored as PEM (a CA shared by the replicas of a program through a Secret): issues leaf certificates
 * signed by that CA. Throws when the PEM does not parse or the key is not an ECDSA P-256 PKCS#8 key.
 */
export async function certificateAuthorityFromPem(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const caCert = new x509.X509Certificate(certPem);
  const der = x509.PemConverter.decodeFirst(keyPem);
  const caKey = await crypto.subtle.importKey('pkcs8', der, ALG, true, ['sign']);
  return authority(caCert, caKey, keyPem);
}

/** Creates a new self-signed certificate authority (ECDSA P-256) that can issue leaf certificates. */
export async function createCertificateAuthority(commonName: string): Promise<CertificateAuthority> {
  const caKeys = await keyPair();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${commonName}`,
    ...validity(),
    signingAlgorithm: ALG,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  return authority(caCert, caKeys.privateKey, await privateKeyPem(caKeys.privateKey));
}

/** A key pair for signing service-account tokens: PKCS#8 private key and SPKI public key, PEM. */
export async function createSigningKey(): Promise<{ privateKeyPem: string; publicKeyPem: string }> {
  const keys = await keyPair();
  return {
    privateKeyPem: await privateKeyPem(keys.privateKey),
    publicKeyPem: await publicKeyPem(keys.publicKey),
  };
}
