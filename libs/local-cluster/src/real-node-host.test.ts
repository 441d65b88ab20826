import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createNodeCgroupRoot,
  nodeCgroups,
  isShimOf,
  mountsUnder,
  realNodeUnsupportedReason,
  shimIdentity,
  shimSocketFile,
  type HostFacts,
} from './real-node-host.js';

const ok: HostFacts = {
  platform: 'linux',
  uid: 0,
  cgroupEntries: ['cpu', 'memory', 'pids'],
  filesystems: 'nodev\tsysfs\nnodev\toverlay\n',
  hasIp: true,
};

describe('realNodeUnsupportedReason', () => {
  it('accepts root on Linux with cgroups (v1 or v2), overlayfs and ip', () => {
    expect(realNodeUnsupportedReason(ok)).toBeUndefined();
    expect(realNodeUnsupportedReason({ ...ok, cgroupEntries: ['cgroup.controllers'] })).toBeUndefined();
  });
  it.each<[string, Partial<HostFacts>, RegExp]>([
    ['not Linux', { platform: 'darwin' }, /Linux/],
    ['not root', { uid: 1000 }, /root/],
    ['no cgroups', { cgroupEntries: [] }, /cgroups/],
    ['no overlayfs', { filesystems: 'nodev\tsysfs\n' }, /overlay/],
    ['no ip command', { hasIp: false }, /ip command/],
  ])('says why in one line: %s', (_n, change, reason) => {
    const r = realNodeUnsupportedReason({ ...ok, ...change });
    expect(r).toMatch(reason);
    expect(r).not.toContain('\n');
  });
});

describe('mountsUnder', () => {
  const info = [
    '22 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
    '90 22 0:50 / /s/nodes/real-1/containerd/state/run/abc/rootfs rw - overlay overlay rw',
    '91 22 0:51 / /s/nodes/real-1/containerd/state/netns/cni-1 rw - nsfs nsfs rw',
    '92 22 0:52 / /s/nodes/real-10/x rw - tmpfs tmpfs rw',
    '93 22 0:53 / /s/nodes/real-1/with\\040space rw - tmpfs tmpfs rw',
  ].join('\n');
  it('lists the mounts under the folder only, deepest first, unescaped', () => {
    expect(mountsUnder(info, '/s/nodes/real-1/')).toEqual([
      '/s/nodes/real-1/containerd/state/run/abc/rootfs',
      '/s/nodes/real-1/containerd/state/netns/cni-1',
      '/s/nodes/real-1/with space',
    ]);
  });
});

describe('isShimOf', () => {
  const cmd = (...a: string[]) => a.join('\0');
  it('recognises a runc shim of this containerd only', () => {
    expect(
      isShimOf(
        cmd('/c/containerd-shim-runc-v2', '-namespace', 'k8s.io', '-id', 'x', '-address', '/s/c.sock'),
        '/s/c.sock',
      ),
    ).toBe(true);
    expect(isShimOf(cmd('/c/containerd-shim-runc-v2', '-address', '/other.sock'), '/s/c.sock')).toBe(false);
    expect(isShimOf(cmd('/bin/sleep', '-address', '/s/c.sock'), '/s/c.sock')).toBe(false);
  });
});

describe('shim sockets', () => {
  it('reads the namespace and id, and names the socket as containerd does: sha256 of address/namespace/id', () => {
    const cmd = [
      '/c/containerd-shim-runc-v2',
      '-namespace',
      'k8s.io',
      '-id',
      'abc',
      '-address',
      '/s/c.sock',
    ].join('\0');
    expect(shimIdentity(cmd)).toEqual({ namespace: 'k8s.io', id: 'abc' });
    // sha256("/s/c.sock/k8s.io/abc")
    expect(shimSocketFile('/s/c.sock', 'k8s.io', 'abc')).toMatch(/^\/run\/containerd\/s\/[0-9a-f]{64}$/);
  });
});

describe('a node cgroup root', () => {
  it('is made in every cgroup v1 hierarchy (cpuset with its parent CPUs and memory nodes) and listed children before parents', () => {
    const root = mkdtempSync(join(tmpdir(), 'cg-'));
    for (const h of ['cpu', 'cpuset', 'memory']) {
      mkdirSync(join(root, h));
      writeFileSync(join(root, h, 'cgroup.procs'), '');
    }
    writeFileSync(join(root, 'cpuset', 'cpuset.cpus'), '0-1\n');
    writeFileSync(join(root, 'cpuset', 'cpuset.mems'), '0\n');
    createNodeCgroupRoot('rgtabcd', root);
    expect(readFileSync(join(root, 'cpuset', 'rgtabcd', 'cpuset.cpus'), 'utf8')).toBe('0-1\n');
    mkdirSync(join(root, 'memory', 'rgtabcd', 'kubepods', 'burstable'), { recursive: true });
    const listed = nodeCgroups('rgtabcd', root);
    const at = (...p: string[]) => listed.indexOf(join(root, 'memory', 'rgtabcd', ...p));
    expect(at('kubepods', 'burstable')).toBeGreaterThanOrEqual(0);
    expect(at('kubepods', 'burstable')).toBeLessThan(at('kubepods'));
    expect(at('kubepods')).toBeLessThan(at());
    expect(listed).toContain(join(root, 'cpu', 'rgtabcd'));
    expect(listed).not.toContain(join(root, 'cpu'));
  });
});
