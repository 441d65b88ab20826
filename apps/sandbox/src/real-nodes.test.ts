import { describe, expect, it } from 'vitest';
import { DEFAULT_REAL_NODES, planRealNodes, realNodeName } from './real-nodes.js';

describe('real nodes of a sandbox', () => {
  it('--real-nodes 0 plans none and says nothing', async () => {
    const lines: string[] = [];
    expect(
      await planRealNodes({ requested: 0, zones: ['a'], detach: true, log: (l) => lines.push(l) }),
    ).toEqual([]);
    expect(lines).toEqual([]);
  });
  it('names them real-<k>, apart from the simulator’s node<k>; one by default', () => {
    expect([1, 2].map(realNodeName)).toEqual(['real-1', 'real-2']);
    expect(DEFAULT_REAL_NODES).toBe(1);
  });
});
