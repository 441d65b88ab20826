import { describe, expect, it } from 'vitest';
import { RolloutUsageError, UnknownKindError } from './errors.js';
import { parseTarget } from './kinds.js';

describe('parseTarget', () => {
  it.each([
    ['clone/web', 'CloneSet', 'web'],
    ['cloneset/web', 'CloneSet', 'web'],
    ['CloneSets/web', 'CloneSet', 'web'],
    ['cloneset.apps.kruise.io/web', 'CloneSet', 'web'],
    ['asts/db', 'StatefulSet', 'db'],
    ['sts.apps.kruise.io/db', 'StatefulSet', 'db'],
    ['statefulset.apps.kruise.io/db', 'StatefulSet', 'db'],
    ['statefulsets.apps.kruise.io/db', 'StatefulSet', 'db'],
    ['ads/agent', 'DaemonSet', 'agent'],
    ['daemon/agent', 'DaemonSet', 'agent'],
    ['daemonset.apps.kruise.io/agent', 'DaemonSet', 'agent'],
    ['ud/spread', 'UnitedDeployment', 'spread'],
    ['uniteddeployment/spread', 'UnitedDeployment', 'spread'],
    ['sidecarset/logging', 'SidecarSet', 'logging'],
    ['sidecarset.apps.kruise.io/logging', 'SidecarSet', 'logging'],
  ])('%s → %s %s', (arg, kind, name) => {
    const t = parseTarget(arg);
    expect([t.info.kind, t.name]).toEqual([kind, name]);
  });

  it.each(['sts/db', 'deployment/web', 'daemonset/agent', 'sidecar/x'])('%s is an unknown kind listing the valid ones', (arg) => {
    expect(() => parseTarget(arg)).toThrow(UnknownKindError);
    expect(() => parseTarget(arg)).toThrow(/valid kinds: cloneset, clonesets, clone, asts, .*ud, .*sidecarset/);
  });

  it.each(['web', '/web', 'clone/', 'clone/a/b', ''])('%j is not KIND/NAME', (arg) => {
    expect(() => parseTarget(arg)).toThrow(RolloutUsageError);
  });

  it('gives exit code 2 to usage errors', () => {
    try {
      parseTarget('pod/x');
    } catch (e) {
      expect((e as UnknownKindError).exitCode).toBe(2);
      expect((e as UnknownKindError).code).toBe('REGATTA_ROLLOUT_UNKNOWN_KIND');
    }
  });
});
