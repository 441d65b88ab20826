// The in-place updates of one rollout round: as many pods as maxUnavailable allows, their writes in flight together
// (each pod's writes in order), through the reconciler on a MemoryCluster (libs/ads/src/testing/world.ts).
import { describe, expect, it } from 'vitest';
import { daemonSet, fiveNodes, world } from '../testing/world.js';

/** True when some pod's writes began before another's had ended (more than one pod write in flight). */
const interleaved = (names: string[]): boolean =>
  names.some((n, i) => names.slice(i + 1).some((m, j) => m !== n && names.slice(i + 1 + j + 1).includes(n)));

describe('rolling update: in-place pod writes in flight', () => {
  it.each([
    { maxUnavailable: 3, pods: 3, together: true },
    { maxUnavailable: 1, pods: 1, together: false },
  ])(
    'maxUnavailable $maxUnavailable → $pods pods in one round',
    async ({ maxUnavailable, pods, together }) => {
      const w = world(fiveNodes());
      w.c.add(
        daemonSet({
          updateStrategy: {
            type: 'RollingUpdate',
            rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable },
          },
        }),
      );
      for (let i = 0; i < 2; i++) {
        await w.sync();
        w.kubelet();
      }
      w.setImage('nginx:2');
      const { writes, creates, deletes } = await w.sync();
      expect([creates, deletes]).toEqual([0, 0]);
      const names = writes.filter((x) => x.kind === 'Pod').map((x) => x.name);
      expect(new Set(names).size).toBe(pods);
      expect(w.pods().filter((p) => p.spec?.containers?.[0]?.image === 'nginx:2')).toHaveLength(pods);
      expect(interleaved(names)).toBe(together);
    },
  );
});
