import { KINDS } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { type KindRef, type Registration } from '@regatta/bus';
import { kindsToMirror, planMirrors } from './admission.js';
import { DEFAULT_ALLOW_LIST } from './catalogue.js';

const reg = (controller: string, kinds: KindRef[], at = 1000): Registration => ({
  controller,
  instance: 'pod-0',
  kinds,
  at,
});
const opts = { allow: DEFAULT_ALLOW_LIST, secretHashKey: true, now: 1000 };

describe('kindsToMirror', () => {
  it("mirrors the cloneset controller's kinds with the catalogue's definitions", () => {
    const { needed, refused } = kindsToMirror(
      [reg('cloneset', [KINDS.clonesets, KINDS.pods, { ...KINDS.namespaces, kind: 'Whatever', namespaced: true }])],
      opts,
    );
    expect(refused).toEqual([]);
    expect([...needed.keys()]).toEqual(['clonesets.v1alpha1.apps.kruise.io', 'pods.v1', 'namespaces.v1']);
    expect(needed.get('namespaces.v1')).toEqual(KINDS.namespaces);
  });

  it('refuses Secrets for the controller role, whatever the kind field says', () => {
    const { needed, refused } = kindsToMirror(
      [reg('cloneset', [KINDS.secrets, { ...KINDS.secrets, kind: 'secret' }])],
      opts,
    );
    expect(needed.size).toBe(0);
    expect(refused.map((r) => r.reason)).toEqual(['not_allowed', 'not_allowed']);
  });

  it('refuses kinds it does not know and controllers it does not know', () => {
    const { needed, refused } = kindsToMirror(
      [
        reg('cloneset', [{ group: 'evil.example', version: 'v1', kind: 'X', plural: 'xs', namespaced: true }]),
        reg('unknown', [KINDS.pods]),
      ],
      opts,
    );
    expect(needed.size).toBe(0);
    expect(refused).toEqual([
      { registration: 'cloneset.pod-0', resource: 'xs.v1.evil.example', reason: 'unknown_kind' },
      { registration: 'unknown.pod-0', resource: 'pods.v1', reason: 'not_allowed' },
    ]);
  });

  it('gives resourcedistribution Secrets only when the watcher holds a hash key', () => {
    const r = [reg('resourcedistribution', [KINDS.secrets])];
    expect([...kindsToMirror(r, opts).needed.keys()]).toEqual(['secrets.v1']);
    expect(kindsToMirror(r, { ...opts, secretHashKey: false }).refused[0]?.reason).toBe('no_secret_hash_key');
  });

  it('ignores registrations older than the TTL', () => {
    expect(kindsToMirror([reg('cloneset', [KINDS.pods], 0)], { ...opts, now: 31_000 }).needed.size).toBe(0);
  });
});

describe('planMirrors', () => {
  const needed = new Map([['pods.v1', KINDS.pods]]);
  it('starts what is needed and not running', () => {
    expect(planMirrors([], needed)).toEqual({ start: [KINDS.pods], stop: [] });
  });

  it('stops a kind only after it has been unneeded for the grace period (a wiped registration heals first)', () => {
    const lastNeeded = new Map([['configmaps.v1', 10_000]]);
    const plan = (now: number) => planMirrors(['pods.v1', 'configmaps.v1'], needed, { lastNeeded, now, graceMs: 30_000 });
    expect(plan(20_000).stop).toEqual([]);
    expect(plan(40_000).stop).toEqual(['configmaps.v1']);
    // running without ever having been needed in this process: stopped at once
    expect(planMirrors(['nodes.v1'], needed).stop).toEqual(['nodes.v1']);
  });
});
