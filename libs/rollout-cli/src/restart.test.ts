import { describe, expect, it } from 'vitest';
import { ROLLOUT_KINDS } from './kinds.js';
import { restartPatch } from './restart.js';

const kind = (k: string) => ROLLOUT_KINDS.find((i) => i.kind === k)!;
const at = new Date('2026-12-07T12:34:56.789Z');
const w = { metadata: { name: 'web' } };

describe('rollout restart', () => {
  it.each(['CloneSet', 'StatefulSet', 'DaemonSet'])('stamps the pod template of a %s with restartedAt (RFC 3339)', (k) => {
    expect(restartPatch(kind(k), w, false, at)).toEqual({
      spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-12-07T12:34:56Z' } } } },
    });
  });

  it.each([
    ['UnitedDeployment', false, 'UnitedDeployment cannot be restarted'],
    ['SidecarSet', false, 'SidecarSet cannot be restarted'],
    ['CloneSet', true, 'CloneSet "web" is paused; run `regatta rollout resume` first'],
  ])('refuses a %s (paused %s)', (k, paused, message) => {
    expect(() => restartPatch(kind(k), w, paused, at)).toThrow(message);
  });
});
