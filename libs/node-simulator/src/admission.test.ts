import { describe, expect, it } from 'vitest';
import { hostPortConflict, hostPorts, isRejected, rejectedStatus } from './admission.js';
import type { Pod } from './types.js';

const pod = (uid: string, ports: { hostPort?: number; hostIP?: string; protocol?: string }[]): Pod => ({
  metadata: { uid, name: uid, namespace: 'ns' },
  spec: { nodeName: 'node1', containers: [{ name: 'c', image: 'nginx', ports } as never] },
});

describe('kubelet admission: host ports', () => {
  it('reads the host ports a pod asks for, defaulting IP and protocol', () => {
    expect(hostPorts(pod('a', [{ hostPort: 80 }, { hostPort: 0 }, {}]))).toEqual([
      { ip: '0.0.0.0', protocol: 'TCP', port: 80 },
    ]);
  });
  it.each([
    ['same port, both wildcard', { hostPort: 21017 }, { hostPort: 21017 }, true],
    ['other port', { hostPort: 21017 }, { hostPort: 21018 }, false],
    ['other protocol', { hostPort: 53, protocol: 'UDP' }, { hostPort: 53 }, false],
    ['wildcard against an IP', { hostPort: 80 }, { hostPort: 80, hostIP: '10.0.0.1' }, true],
    ['two different IPs', { hostPort: 80, hostIP: '10.0.0.2' }, { hostPort: 80, hostIP: '10.0.0.1' }, false],
  ])('%s → conflict %s', (_name, wanted, held, conflict) => {
    expect(hostPortConflict(pod('new', [wanted]), [pod('old', [held])])).toBe(conflict);
  });
  it('a pod without host ports, or alone, is admitted', () => {
    expect(hostPortConflict(pod('new', []), [pod('old', [{ hostPort: 80 }])])).toBe(false);
    expect(hostPortConflict(pod('new', [{ hostPort: 80 }]), [pod('new', [{ hostPort: 80 }])])).toBe(false);
  });
  it('a rejected pod is Failed with the predicate as the reason, and stays rejected', () => {
    const status = rejectedStatus();
    expect(status).toMatchObject({ phase: 'Failed', reason: 'NodePorts' });
    expect(isRejected({ ...pod('a', []), status })).toBe(true);
    expect(isRejected({ ...pod('a', []), status: { phase: 'Failed', reason: 'Evicted' } })).toBe(false);
  });
});
