import { describe, expect, it } from 'vitest';
import { UsageError } from './controllers.js';
import { nodeAddManifest } from './node-command.js';

// nodeAddManifest loads @regatta/node-simulator on first use; on a loaded two-core machine that import alone can
// take longer than vitest's default 5 s
const FIRST_IMPORT_MS = 60_000;

describe('sandbox node add', () => {
  it('builds the Node for the sandbox simulator from kubectl-style flags', async () => {
    expect(
      await nodeAddManifest('edge1', { zone: 'zone-d', label: ['disk=ssd'], taint: ['dedicated=edge:NoSchedule'], capacity: 'cpu=2' }),
    ).toEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'edge1',
        labels: { disk: 'ssd', 'topology.kubernetes.io/zone': 'zone-d' },
        annotations: { 'sim.regatta.dev/name-prefix': 'node', 'sim.regatta.dev/capacity': 'cpu=2' },
      },
      spec: { taints: [{ key: 'dedicated', value: 'edge', effect: 'NoSchedule' }] },
    });
  }, FIRST_IMPORT_MS);

  it('refuses malformed flags as usage errors', async () => {
    await expect(nodeAddManifest('x', { label: ['novalue'], taint: [] })).rejects.toBeInstanceOf(UsageError);
    await expect(nodeAddManifest('x', { label: [], taint: ['k=v'] })).rejects.toBeInstanceOf(UsageError);
  }, FIRST_IMPORT_MS);
});
