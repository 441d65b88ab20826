import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  apiserverArgs,
  CONTROLLER_MANAGER_LEFT_OFF,
  controllerManagerArgs,
  controllerManagerControllers,
  etcdArgs,
  kubeconfigYaml,
  natsConfig,
  REQUEST_AUDIT_POLICY,
  WRITE_AUDIT_POLICY,
} from './components.js';
import { createCertificateAuthority } from '@regatta/runtime';

describe('etcd command line', () => {
  it('listens on loopback only and names itself as the single member', () => {
    const args = etcdArgs({ dataDir: '/d', clientPort: 1, peerPort: 2 });
    expect(args).toContain('--listen-client-urls=http://127.0.0.1:1');
    expect(args).toContain('--initial-cluster=default=http://127.0.0.1:2');
  });
});

describe('kube-apiserver command line', () => {
  const pki = {
    caCert: 'ca',
    caKey: 'cak',
    servingCert: 'c',
    servingKey: 'k',
    serviceAccountKey: 'sk',
    serviceAccountPub: 'sp',
  };

  it('has no audit log unless asked', () => {
    expect(apiserverArgs({ etcdPort: 1, securePort: 2, pki }).some((a) => a.startsWith('--audit-'))).toBe(
      false,
    );
  });

  it('writes a JSON audit log with the given policy when asked', () => {
    const args = apiserverArgs({
      etcdPort: 1,
      securePort: 2,
      pki,
      audit: { policyFile: '/p.yaml', logPath: '/a.log' },
    });
    expect(args).toContain('--audit-policy-file=/p.yaml');
    expect(args).toContain('--audit-log-path=/a.log');
    expect(args).toContain('--audit-log-format=json');
  });

  it('audits writes at Metadata level and nothing else', () => {
    expect(WRITE_AUDIT_POLICY).toContain(
      'level: Metadata\n    verbs: [create, update, patch, delete, deletecollection]',
    );
    expect(WRITE_AUDIT_POLICY.trimEnd().endsWith('- level: None')).toBe(true);
  });

  it('audits reads too when asked, at the same level', () => {
    expect(REQUEST_AUDIT_POLICY).toContain(
      'level: Metadata\n    verbs: [get, list, watch, create, update, patch, delete, deletecollection]',
    );
    expect(REQUEST_AUDIT_POLICY.trimEnd().endsWith('- level: None')).toBe(true);
  });
});

describe('nats-server configuration', () => {
  it('enables JetStream on loopback with payloads that carry an 8 MiB mirror value (docs/adr/0008)', () => {
    const conf = natsConfig({ port: 4222, monitorPort: 8222, storeDir: '/js' });
    expect(conf).toContain('listen: "127.0.0.1:4222"');
    expect(conf).toContain(`max_payload: ${9 * 1024 * 1024}`);
    expect(conf).toMatch(/jetstream \{\n {2}store_dir: "\/js"/);
  });
});

describe('PKI', () => {
  it('issues a serving certificate for names and IPs, signed by the CA', async () => {
    const ca = await createCertificateAuthority('test-ca');
    const leaf = await ca.issueServing(['localhost', '127.0.0.1']);
    const caCert = new X509Certificate(ca.certPem);
    const cert = new X509Certificate(leaf.certPem);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('puts client groups into the subject organisation, as Kubernetes reads them', async () => {
    const ca = await createCertificateAuthority('test-ca');
    const admin = await ca.issueClient('admin', ['system:masters']);
    expect(new X509Certificate(admin.certPem).subject).toBe('O=system:masters\nCN=admin');
  });
});

describe('kubeconfig', () => {
  it('embeds the CA and client credentials', () => {
    const y = kubeconfigYaml({ server: 'https://127.0.0.1:6443', caPem: 'CA', certPem: 'C', keyPem: 'K' });
    expect(y).toContain('server: https://127.0.0.1:6443');
    expect(y).toContain(`certificate-authority-data: ${Buffer.from('CA').toString('base64')}`);
  });
});

describe('kube-controller-manager command line', () => {
  const pki = {
    caCert: '/pki/ca.crt',
    caKey: '/pki/ca.key',
    servingCert: 'c',
    servingKey: 'k',
    serviceAccountKey: '/pki/sa.key',
    serviceAccountPub: 'sp',
  };
  const args = controllerManagerArgs({ kubeconfig: '/kc', securePort: 1, pki });
  const controllers = args
    .find((a) => a.startsWith('--controllers='))!
    .slice('--controllers='.length)
    .split(',');

  it('runs every on-by-default controller except node lifecycle and the cloud ones', () => {
    expect(controllers[0]).toBe('*');
    expect(controllers.slice(1).sort()).toEqual(
      [
        '-cloud-node-lifecycle-controller',
        '-node-lifecycle-controller',
        '-node-route-controller',
        '-service-lb-controller',
      ].sort(),
    );
    expect(Object.values(CONTROLLER_MANAGER_LEFT_OFF).every((why) => why.length > 0)).toBe(true);
  });

  it('gives the credentials the token, root-CA and CSR-signing controllers need', () => {
    expect(args).toEqual(
      expect.arrayContaining([
        '--root-ca-file=/pki/ca.crt',
        '--service-account-private-key-file=/pki/sa.key',
        '--cluster-signing-cert-file=/pki/ca.crt',
        '--cluster-signing-key-file=/pki/ca.key',
        '--bind-address=127.0.0.1',
      ]),
    );
  });
});

describe('controllerManagerControllers', () => {
  it('names the cloud controllers up to 1.36 and leaves them out from 1.37 on (kube-controller-manager dropped them)', () => {
    expect(controllerManagerControllers('1.34.4')).toContain('-service-lb-controller');
    expect(controllerManagerControllers('1.36.3')).toContain('-cloud-node-lifecycle-controller');
    expect([...controllerManagerControllers('1.37.2')]).toEqual(['*', '-node-lifecycle-controller']);
  });
});
