// Volume claim resize on rolling update (gate StatefulSetAutoResizePVCGate, volumeClaimUpdateStrategy
// OnPodRollingUpdate) on the shared local cluster, whose node simulator makes the `allow-volume-expansion` /
// `disallow-volume-expansion` StorageClasses and resizes claims of expandable classes (docs/asts.md
// "Volume claim resize"; OpenKruise test/e2e/apps/v1beta1/statefulset.go "VolumeExpansion v1beta1").
import { describe, expect, it } from 'vitest';
import { type StatefulSet, demo, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios({ env: { REGATTA_FEATURE_GATES: 'StatefulSetAutoResizePVCGate=true' } });
const { namespace, pods, settled } = h;

interface Claim {
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: { resources?: { requests?: Record<string, string> } };
  status?: { capacity?: Record<string, string> };
}

const template = (name: string, storageClassName: string, storage: string) => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage } } },
});

/** 3 replicas, OrderedReady, one pod at a time, claims on `classes` (1Gi each) resized on rolling update. */
function resizable(ns: string, inPlace: boolean, ...classes: string[]): StatefulSet {
  const sts = demo(ns, 'web');
  sts.spec.replicas = 3;
  sts.spec['podManagementPolicy'] = 'OrderedReady';
  sts.spec.updateStrategy = {
    type: 'RollingUpdate',
    rollingUpdate: { podUpdatePolicy: inPlace ? 'InPlaceIfPossible' : 'ReCreate' },
  };
  if (inPlace)
    (sts.spec['template'] as { spec: Record<string, unknown> }).spec['readinessGates'] = [
      { conditionType: 'InPlaceUpdateReady' },
    ];
  sts.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' };
  sts.spec['volumeClaimTemplates'] = classes.map((sc, i) => template(`data${i}`, sc, '1Gi'));
  return sts;
}

const sizes = async (ns: string) =>
  ((await h.claims(ns)) as Claim[])
    .map(
      (c) =>
        `${c.metadata?.name}=${c.spec?.resources?.requests?.['storage']}/${c.status?.capacity?.['storage']}`,
    )
    .sort();

describe('Advanced StatefulSet volume claim resize (StatefulSetAutoResizePVCGate)', () => {
  it('image and claim size together (ReCreate): every claim grows to 2Gi, then its pod is recreated at the new image', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, false, 'allow-volume-expansion'));
    await settled(ns, 'web', 3);
    expect(await sizes(ns)).toEqual(['data0-web-0=1Gi/1Gi', 'data0-web-1=1Gi/1Gi', 'data0-web-2=1Gi/1Gi']);
    const before = new Map((await pods(ns)).map((p) => [p.metadata!.name!, p.metadata!.uid]));

    await h.patch(ns, 'web', {
      spec: {
        template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } },
        volumeClaimTemplates: [template('data0', 'allow-volume-expansion', '2Gi')],
      },
    });
    await expect
      .poll(() => sizes(ns), { timeout: 180_000, interval: 1000 })
      .toEqual(['data0-web-0=2Gi/2Gi', 'data0-web-1=2Gi/2Gi', 'data0-web-2=2Gi/2Gi']);
    const done = await settled(ns, 'web', 3, 180_000);
    expect(done.status?.volumeClaims).toEqual([
      { volumeClaimName: 'data0', compatibleReplicas: 3, compatibleReadyReplicas: 3 },
    ]);
    for (const p of await pods(ns)) {
      expect(p.spec?.containers?.[0]?.image).toBe('nginx:1.26');
      expect(p.metadata!.uid).not.toBe(before.get(p.metadata!.name!));
    }
    const claims = (await h.claims(ns)) as Claim[];
    for (const c of claims) expect(c.metadata?.annotations?.['apps.kruise.io/owned-by-asts']).toBe('web');
    await expect
      .poll(async () => (await h.events(ns, 'SuccessfulResize')).map((e) => e.message).sort())
      .toEqual([
        'resize Claim data0-web-0 Pod web-0 in StatefulSet web success',
        'resize Claim data0-web-1 Pod web-1 in StatefulSet web success',
        'resize Claim data0-web-2 Pod web-2 in StatefulSet web success',
      ]);
  });

  it('claim size only (InPlaceIfPossible): the claims grow and the pods are kept', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, true, 'allow-volume-expansion', 'disallow-volume-expansion'));
    await settled(ns, 'web', 3);
    const before = new Map((await pods(ns)).map((p) => [p.metadata!.name!, p.metadata!.uid]));
    // only the template on the expandable class grows
    await h.patch(ns, 'web', {
      spec: {
        volumeClaimTemplates: [
          template('data0', 'allow-volume-expansion', '2Gi'),
          template('data1', 'disallow-volume-expansion', '1Gi'),
        ],
      },
    });
    await expect
      .poll(() => sizes(ns), { timeout: 180_000, interval: 1000 })
      .toEqual([
        'data0-web-0=2Gi/2Gi',
        'data0-web-1=2Gi/2Gi',
        'data0-web-2=2Gi/2Gi',
        'data1-web-0=1Gi/1Gi',
        'data1-web-1=1Gi/1Gi',
        'data1-web-2=1Gi/1Gi',
      ]);
    await expect
      .poll(async () => (await h.get(ns, 'web')).status?.volumeClaims, { timeout: 60_000 })
      .toEqual([
        { volumeClaimName: 'data0', compatibleReplicas: 3, compatibleReadyReplicas: 3 },
        { volumeClaimName: 'data1', compatibleReplicas: 3, compatibleReadyReplicas: 3 },
      ]);
    await settled(ns, 'web', 3);
    for (const p of await pods(ns)) expect(p.metadata!.uid).toBe(before.get(p.metadata!.name!));
  });

  it('webhook: growing a claim on a class without expansion, or adding a template, is refused', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, false, 'disallow-volume-expansion'));
    await settled(ns, 'web', 3);
    await expect(
      h.patch(ns, 'web', {
        spec: { volumeClaimTemplates: [template('data0', 'disallow-volume-expansion', '2Gi')] },
      }),
    ).rejects.toThrow(/storage class disallow-volume-expansion does not support volume expansion/);
    await expect(
      h.patch(ns, 'web', {
        spec: {
          volumeClaimTemplates: [
            template('data0', 'disallow-volume-expansion', '1Gi'),
            template('more', 'allow-volume-expansion', '1Gi'),
          ],
        },
      }),
    ).rejects.toThrow(/volumeClaimTemplate can not be added or deleted when OnRollingUpdate/);
    expect(await sizes(ns)).toEqual(['data0-web-0=1Gi/1Gi', 'data0-web-1=1Gi/1Gi', 'data0-web-2=1Gi/1Gi']);
  });
});
