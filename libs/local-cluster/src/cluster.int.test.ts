import 'reflect-metadata'; // before @peculiar/x509
import { createServer } from 'node:https';
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { CertificatesV1Api, CoreV1Api, KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { Pkcs10CertificateRequestGenerator } from '@peculiar/x509';
import {
  applyObjects,
  createCertificateAuthority,
  freePort,
  installCrds,
  registerWebhooks,
} from './index.js';
import { kubernetesVersion } from './binaries.js';
import { httpGet } from './http.js';

function client(kubeconfig: string): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return kc.makeApiClient(CoreV1Api);
}

describe('local control plane', () => {
  it('serves the version it was built from, on loopback', async () => {
    const { apiserver } = inject('cluster');
    expect(new URL(apiserver).hostname).toBe('127.0.0.1');
    const { kubeconfig } = inject('cluster');
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const ca = Buffer.from(kc.getCurrentCluster()!.caData!, 'base64').toString();
    const v = JSON.parse((await httpGet(`${apiserver}/version`, { ca })).body) as { gitVersion: string };
    // the pinned release, or the one REGATTA_KUBERNETES_VERSION names (docs/adr/0058)
    expect(v.gitVersion).toBe(`v${kubernetesVersion()}`);
  });

  it('runs the garbage collector: deleting an owner removes its dependents', async () => {
    const core = client(inject('cluster').kubeconfig);
    const ns = `gc-${randomBytes(3).toString('hex')}`;
    await core.createNamespace({ body: { metadata: { name: ns } } });
    const owner = await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! },
          ],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner' });
    await expect
      .poll(
        async () =>
          (await core.listNamespacedConfigMap({ namespace: ns })).items.map((c) => c.metadata?.name),
        {
          timeout: 30_000,
        },
      )
      .not.toContain('dependent');
  });

  it('enforces a ResourceQuota: with pods: 2 the API server refuses the third pod', async () => {
    const core = client(inject('cluster').kubeconfig);
    const ns = `quota-${randomBytes(3).toString('hex')}`;
    await core.createNamespace({ body: { metadata: { name: ns } } });
    await core.createNamespacedResourceQuota({
      namespace: ns,
      body: { metadata: { name: 'pods' }, spec: { hard: { pods: '2' } } },
    });
    // admission enforces what the resourcequota controller has put in status (it ignores a quota
    // whose usage is not yet known): without that controller status.hard stays empty forever
    await expect
      .poll(
        async () =>
          (await core.readNamespacedResourceQuota({ namespace: ns, name: 'pods' })).status?.hard?.['pods'],
        { timeout: 30_000 },
      )
      .toBe('2');
    const pod = (name: string) =>
      core.createNamespacedPod({
        namespace: ns,
        body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'registry.local/app:1' }] } },
      });
    await pod('one');
    await pod('two');
    const refused = (await pod('three').then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; body?: string } | undefined;
    expect(refused?.code).toBe(403);
    expect(String(refused?.body)).toContain('exceeded quota');
    const names = (await core.listNamespacedPod({ namespace: ns })).items.map((p) => p.metadata?.name);
    expect(names.sort()).toEqual(['one', 'two']);
  });

  it('signs an approved CertificateSigningRequest with the cluster CA', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(inject('cluster').kubeconfig);
    const certs = kc.makeApiClient(CertificatesV1Api);
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const keys = (await webcrypto.subtle.generateKey(alg, true, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    const request = await Pkcs10CertificateRequestGenerator.create(
      { name: 'CN=csr-test', keys: keys as never, signingAlgorithm: alg },
      webcrypto as never,
    );
    const name = `csr-${randomBytes(3).toString('hex')}`;
    await certs.createCertificateSigningRequest({
      body: {
        metadata: { name },
        spec: {
          request: Buffer.from(request.toString('pem')).toString('base64'),
          signerName: 'kubernetes.io/kube-apiserver-client',
          usages: ['client auth'],
          expirationSeconds: 600,
        },
      },
    });
    const csr = await certs.readCertificateSigningRequest({ name });
    csr.status = {
      conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }],
    };
    await certs.replaceCertificateSigningRequestApproval({ name, body: csr });
    const issued = await expect
      .poll(async () => (await certs.readCertificateSigningRequest({ name })).status?.certificate, {
        timeout: 30_000,
      })
      .toBeTruthy()
      .then(async () => (await certs.readCertificateSigningRequest({ name })).status!.certificate!);
    const cert = new X509Certificate(Buffer.from(issued, 'base64').toString());
    expect(cert.subject).toBe('CN=csr-test');
    expect(cert.issuer).toBe('CN=regatta-local-ca');
  });

  it('writes every file holding a credential readable by its owner only', async () => {
    const { dir } = inject('cluster');
    const mode = async (f: string) => ((await stat(join(dir, f))).mode & 0o777).toString(8);
    const files = [
      'endpoints.json',
      'pids.json',
      'programs.json',
      'kubeconfig',
      'nats.conf',
      'pki/ca.key',
      'pki/apiserver.key',
      'pki/sa.key',
    ];
    expect(Object.fromEntries(await Promise.all(files.map(async (f) => [f, await mode(f)])))).toEqual(
      Object.fromEntries(files.map((f) => [f, '600'])),
    );
  });

  it('installs CRDs and returns only once discovery serves them', async () => {
    const { kubeconfig } = inject('cluster');
    const plural = `gadgets${randomBytes(3).toString('hex')}`;
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.test.regatta.dev` },
      spec: {
        group: 'test.regatta.dev',
        scope: 'Namespaced',
        names: {
          plural,
          singular: plural.slice(0, -1),
          kind: `Gadget${plural.slice(7)}`,
          listKind: `Gadget${plural.slice(7)}List`,
        },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    await installCrds(kubeconfig, [crd as KubernetesObject]);
    await applyObjects(kubeconfig, [
      {
        apiVersion: 'test.regatta.dev/v1',
        kind: crd.spec.names.kind,
        metadata: { name: 'g1', namespace: 'default' },
      },
    ]);
  });

  it('registers a validating webhook at a local HTTPS URL that the API server then calls', async () => {
    const { kubeconfig } = inject('cluster');
    const ca = await createCertificateAuthority('webhook-ca');
    const serving = await ca.issueServing(['127.0.0.1']);
    const port = await freePort();
    const seen: string[] = [];
    const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as {
          request: { uid: string; name: string; object: { metadata: { labels?: Record<string, string> } } };
        };
        seen.push(review.request.name);
        const allowed = review.request.object.metadata.labels?.['deny'] !== 'yes';
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: {
              uid: review.request.uid,
              allowed,
              status: allowed ? undefined : { code: 403, message: 'no, says the test webhook' },
            },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    const ns = `wh-${randomBytes(3).toString('hex')}`;
    try {
      const core = client(kubeconfig);
      await core.createNamespace({ body: { metadata: { name: ns } } });
      await registerWebhooks(
        kubeconfig,
        [
          {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingWebhookConfiguration',
            metadata: { name: `test-${ns}` },
            webhooks: [
              {
                name: 'configmaps.test.regatta.dev',
                admissionReviewVersions: ['v1'],
                sideEffects: 'None',
                failurePolicy: 'Fail',
                clientConfig: { service: { name: 'unused', namespace: 'unused', path: '/validate' } },
                namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
                rules: [
                  { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
                ],
              },
            ],
          } as KubernetesObject,
        ],
        { baseUrl: `https://127.0.0.1:${port}`, caPem: ca.certPem },
      );
      // registration is eventually consistent in the API server: retry until the webhook is consulted
      await expect
        .poll(
          async () =>
            core
              .createNamespacedConfigMap({
                namespace: ns,
                body: { metadata: { generateName: 'probe-', labels: { deny: 'yes' } } },
              })
              .then(() => 'created')
              .catch((e: { body?: string }) => String(e.body)),
          { timeout: 30_000 },
        )
        .toContain('no, says the test webhook');
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'allowed' } } });
      expect(seen).toContain('allowed');
    } finally {
      server.close();
    }
  });
});
