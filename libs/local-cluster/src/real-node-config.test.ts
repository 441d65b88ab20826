import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  chooseNetwork,
  cniConflist,
  containerdConfig,
  hostsToml,
  kubeletArgs,
  kubeletConfig,
  nodePaths,
} from './real-node-config.js';

const paths = nodePaths('/s/nodes/real-1');

describe('chooseNetwork', () => {
  it('derives a bridge name (≤ 15 characters) and a 10.88.X.0/24 from the seed, the same each time', () => {
    const a = chooseNetwork('/s/nodes/real-1', []);
    expect(a).toEqual(chooseNetwork('/s/nodes/real-1', []));
    expect(a?.bridge.length).toBeLessThanOrEqual(15);
    expect(a?.subnet).toMatch(/^10\.88\.\d+\.0\/24$/);
    expect(a?.gateway).toBe(a?.subnet.replace('.0/24', '.1'));
  });
  it('differs between two folders', () => {
    expect(chooseNetwork('/a/nodes/real-1', [])?.bridge).not.toBe(
      chooseNetwork('/b/nodes/real-1', [])?.bridge,
    );
  });
  it('skips a /24 already on the host, and gives up when all are taken', () => {
    const first = chooseNetwork('x', []);
    const next = chooseNetwork('x', [`${first?.gateway}/24`]);
    expect(next?.subnet).not.toBe(first?.subnet);
    const all = Array.from({ length: 256 }, (_, i) => `10.88.${i}.1/24`);
    expect(chooseNetwork('x', all)).toBeUndefined();
  });
});

describe('containerd and CNI configuration', () => {
  it('keeps root, state and socket under the node folder, with the settings this machine kind needs', () => {
    const toml = containerdConfig(paths, { runc: '/c/runc', cniBin: '/c/cni' });
    expect(toml).toContain('version = 3');
    expect(toml).toContain('root = "/s/nodes/real-1/containerd/root"');
    expect(toml).toContain('address = "/s/nodes/real-1/containerd/containerd.sock"');
    expect(toml).toContain('restrict_oom_score_adj = true');
    expect(toml).toContain('netns_mounts_under_state_dir = true');
    expect(toml).toContain('sandbox = "registry.k8s.io/pause:3.10"');
    expect(toml).toContain('BinaryName = "/c/runc"');
    expect(toml).toContain('SystemdCgroup = false');
  });
  it('sends docker.io pulls to the sandbox registry over plain HTTP', () => {
    expect(hostsToml('127.0.0.1:5000', 'docker.io')).toContain('[host."http://127.0.0.1:5000"]');
    expect(hostsToml('127.0.0.1:5000', 'docker.io')).toContain('server = "https://registry-1.docker.io"');
    expect(hostsToml('127.0.0.1:5000', '127.0.0.1:5000')).toContain('server = "http://127.0.0.1:5000"');
  });
  it('a bridge network with the node gateway, host-local state under the folder, no masquerade', () => {
    const net = { bridge: 'rgtabcd', subnet: '10.88.7.0/24', gateway: '10.88.7.1' };
    const c = JSON.parse(cniConflist(net, '/s/ipam', 'regatta-real-1')) as {
      plugins: Record<string, unknown>[];
    };
    expect(c.plugins[0]).toMatchObject({
      type: 'bridge',
      bridge: 'rgtabcd',
      isGateway: true,
      ipMasq: false,
      ipam: {
        type: 'host-local',
        dataDir: '/s/ipam',
        ranges: [[{ subnet: '10.88.7.0/24', gateway: '10.88.7.1' }]],
      },
    });
  });
});

describe('kubelet', () => {
  it('is configured for cgroup v1 with cgroupfs, webhook authn/authz, no anonymous access, and its taints', () => {
    const cfg = parse(
      kubeletConfig({
        paths,
        address: '10.88.7.1',
        port: 1234,
        healthzPort: 1235,
        caFile: '/ca',
        tlsCertFile: '/crt',
        tlsKeyFile: '/key',
        taints: [{ key: 'regatta-test-real', value: 'yes', effect: 'NoSchedule' }],
        cgroupRoot: '/rgtabcd',
      }),
    ) as Record<string, unknown>;
    expect(cfg).toMatchObject({
      kind: 'KubeletConfiguration',
      address: '10.88.7.1',
      port: 1234,
      readOnlyPort: 0,
      failCgroupV1: false,
      cgroupDriver: 'cgroupfs',
      cgroupRoot: '/rgtabcd',
      enforceNodeAllocatable: [],
      authentication: {
        anonymous: { enabled: false },
        webhook: { enabled: true },
        x509: { clientCAFile: '/ca' },
      },
      authorization: { mode: 'Webhook' },
      containerRuntimeEndpoint: 'unix:///s/nodes/real-1/containerd/containerd.sock',
      registerWithTaints: [{ key: 'regatta-test-real', value: 'yes', effect: 'NoSchedule' }],
    });
  });
  it('registers under its name and IP with its labels', () => {
    const args = kubeletArgs({ paths, name: 'real-1', nodeIp: '10.88.7.1', labels: { a: '1', b: '2' } });
    expect(args).toContain('--hostname-override=real-1');
    expect(args).toContain('--node-ip=10.88.7.1');
    expect(args).toContain('--node-labels=a=1,b=2');
    expect(args).toContain('--root-dir=/s/nodes/real-1/kubelet');
  });
});
