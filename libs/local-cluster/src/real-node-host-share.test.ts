import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acquireHostShare,
  hostShareHolders,
  leaseLive,
  releaseHostShare,
  withHostLock,
  type HostSnapshot,
} from './real-node-host-share.js';

const pristine: HostSnapshot = {
  ipForwardBefore: '0',
  varLibKubeletExisted: false,
  varLibCniExisted: false,
  varLogContainersExisted: false,
};

/** A fake host: ip_forward and the shared folders as a record the nodes change and the last one restores. */
function fakeHost() {
  const host = { ipForward: '0', varLibKubelet: false };
  return {
    host,
    snapshot: (): HostSnapshot => ({
      ...pristine,
      ipForwardBefore: host.ipForward,
      varLibKubeletExisted: host.varLibKubelet,
    }),
    restore: (s: HostSnapshot) => {
      host.ipForward = s.ipForwardBefore;
      host.varLibKubelet = s.varLibKubeletExisted;
      return Promise.resolve();
    },
    /** What a node does to the host once it runs pods (the bridge plugin, the kubelet's device-plugins folder). */
    run: () => {
      host.ipForward = '1';
      host.varLibKubelet = true;
    },
  };
}

const live = () => true;

describe('host share of real nodes (two sandboxes on one host)', () => {
  it("one sandbox's teardown leaves ip_forward and /var/lib/kubelet to the other's running node; the last restores", async () => {
    const root = mkdtempSync(join(tmpdir(), 'share-'));
    const h = fakeHost();
    const a = await acquireHostShare('/sandbox-a/nodes/real-1', { root, snapshot: h.snapshot, live });
    h.run();
    // B starts after A's pods turned ip_forward on: it still gets the host as A found it
    const b = await acquireHostShare('/sandbox-b/nodes/real-1', { root, snapshot: h.snapshot, live });
    expect(b).toEqual(a);
    expect(a.ipForwardBefore).toBe('0');
    expect(await hostShareHolders({ root, live })).toHaveLength(2);

    expect(await releaseHostShare('/sandbox-a/nodes/real-1', h.restore, { root, live })).toBe(false);
    expect(h.host).toEqual({ ipForward: '1', varLibKubelet: true });
    expect(await releaseHostShare('/sandbox-b/nodes/real-1', h.restore, { root, live })).toBe(true);
    expect(h.host).toEqual({ ipForward: '0', varLibKubelet: false });
    expect(await hostShareHolders({ root, live })).toEqual([]);
  });

  it('a lease whose node is gone (crashed sandbox) does not keep the host from being restored', async () => {
    const root = mkdtempSync(join(tmpdir(), 'share-'));
    const h = fakeHost();
    await acquireHostShare('/crashed/nodes/real-1', { root, snapshot: h.snapshot, live });
    h.run();
    await acquireHostShare('/ok/nodes/real-1', { root, snapshot: h.snapshot, live });
    const onlyOk = (l: { dir: string }) => l.dir.startsWith('/ok/');
    expect(await releaseHostShare('/ok/nodes/real-1', h.restore, { root, live: onlyOk })).toBe(true);
    expect(h.host.ipForward).toBe('0');
  });

  it('a node set up before leases existed restores from its own state file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'share-'));
    const h = fakeHost();
    h.run();
    expect(await releaseHostShare('/old/nodes/real-1', h.restore, { root, live, fallback: pristine })).toBe(
      true,
    );
    expect(h.host.ipForward).toBe('0');
  });

  it('concurrent starts and stops of many nodes are serialized: the host is restored once, at the end', async () => {
    const root = mkdtempSync(join(tmpdir(), 'share-'));
    const h = fakeHost();
    let restores = 0;
    const restore = (s: HostSnapshot) => {
      restores++;
      return h.restore(s);
    };
    const dirs = Array.from({ length: 8 }, (_, i) => `/sandbox-${i}/nodes/real-1`);
    const snaps = await Promise.all(
      dirs.map((d) => acquireHostShare(d, { root, snapshot: h.snapshot, live })),
    );
    h.run();
    expect(new Set(snaps.map((s) => s.ipForwardBefore))).toEqual(new Set(['0']));
    const lasts = await Promise.all(dirs.map((d) => releaseHostShare(d, restore, { root, live })));
    expect(lasts.filter(Boolean)).toHaveLength(1);
    expect(restores).toBe(1);
    expect(h.host.ipForward).toBe('0');
  });

  it('breaks a lock whose owner died, and never runs two holders at once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'share-'));
    await withHostLock(root, () => Promise.resolve());
    writeFileSync(join(root, 'lock'), '999999999 dead');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withHostLock(root, async () => {
          most = Math.max(most, ++inside);
          await new Promise((r) => setTimeout(r, 10));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it('a lease counts while its node is starting or has a process, not after its folder is gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-'));
    writeFileSync(join(dir, 'real-node.json'), '{}');
    expect(leaseLive({ dir, takenAt: Date.now() })).toBe(true);
    // no process names the folder and it started long ago: a crashed node
    expect(leaseLive({ dir, takenAt: Date.now() - 3_600_000 })).toBe(false);
    expect(leaseLive({ dir: join(dir, 'gone'), takenAt: Date.now() })).toBe(false);
  });
});
