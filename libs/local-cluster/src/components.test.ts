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
import { newNatsAuth } from './cluster.js';
import { natsServerConfig, planNatsServers } from './nats-cluster.js';

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

describe('a clustered bus (docs/operations.md "A clustered bus")', () => {
  it('gives one server today\'s names and no cluster block', () => {
    const [s, ...rest] = planNatsServers('/d', 1, [4222, 8222]);
    expect(rest).toEqual([]);
    expect(s).toEqual({
      name: 'nats-server',
      url: 'nats://127.0.0.1:4222',
      monitor: 'http://127.0.0.1:8222',
      conf: '/d/nats.conf',
      storeDir: '/d/jetstream',
    });
    const conf = natsServerConfig(s!, [s!], {});
    expect(conf).not.toContain('cluster {');
    expect(conf).toContain('sync_interval: always');
  });

  it('gives three servers their own ports, store and name, the same users, and routes to all', () => {
    const servers = planNatsServers('/d', 3, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(servers.map((s) => [s.name, s.url, s.routePort, s.storeDir])).toEqual([
      ['nats-server-1', 'nats://127.0.0.1:1', 3, '/d/jetstream-1'],
      ['nats-server-2', 'nats://127.0.0.1:4', 6, '/d/jetstream-2'],
      ['nats-server-3', 'nats://127.0.0.1:7', 9, '/d/jetstream-3'],
    ]);
    const auth = newNatsAuth();
    const confs = servers.map((s) => natsServerConfig(s, servers, { auth, sync: '1s' }));
    for (const [i, conf] of confs.entries()) {
      expect(conf).toContain(`server_name: "nats-server-${i + 1}"`);
      expect(conf).toContain(`listen: "127.0.0.1:${servers[i]!.routePort}"`);
      expect(conf).toContain(
        'routes: ["nats-route://127.0.0.1:3", "nats-route://127.0.0.1:6", "nats-route://127.0.0.1:9"]',
      );
      expect(conf).toContain('sync_interval: 1s');
      // the same authorization block on every server
      expect(conf.slice(conf.indexOf('authorization {'), conf.indexOf('server_name'))).toBe(
        confs[0]!.slice(confs[0]!.indexOf('authorization {'), confs[0]!.indexOf('server_name')),
      );
    }
    expect(() => planNatsServers('/d', 3, [1, 2, 3])).toThrow(RangeError);
  });

  it('leaves nats-server\'s own fsync when asked', () => {
    expect(natsConfig({ port: 1, monitorPort: 2, storeDir: '/js', sync: 'default' })).not.toContain('sync_interval');
  });
});
