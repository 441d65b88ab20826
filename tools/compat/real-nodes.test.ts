import { describe, expect, it } from 'vitest';
import { provisionedHostPaths, simulatedNodeNames } from './real-nodes.js';

describe('compat on real nodes', () => {
  it('cordons every node but the real ones', () => {
    expect(
      simulatedNodeNames([
        { metadata: { name: 'node1', labels: { 'sim.regatta.dev/simulated': 'true' } } },
        { metadata: { name: 'real-1', labels: { 'regatta.dev/node-kind': 'real' } } },
        { metadata: { name: 'ci-testing-worker' } },
      ]),
    ).toEqual(['node1', 'ci-testing-worker']);
  });
  it("removes only the simulated provisioner's PV folders", () => {
    expect(
      provisionedHostPaths([
        { spec: { hostPath: { path: '/var/lib/regatta-sim/volumes/pvc-1' } } },
        { spec: { hostPath: { path: '/tmp/x/nodes/real-1/volumes/pv-a' } } },
        { spec: { hostPath: { path: '/var/lib/regatta-sim/volumes/../../etc' } } },
        { spec: {} },
      ]),
    ).toEqual(['/var/lib/regatta-sim/volumes/pvc-1']);
  });
});
