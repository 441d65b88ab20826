// A SidecarSet the webhook would refuse, stored without it (docs/sidecarset.md "Admission of SidecarSets"; issue
// 18's R2, second half): the upgrade reconciler does not act on it (no revision, no status) and says why with an
// InvalidSpec Warning naming the field; a valid one is reconciled. The program is killed and its validating webhook
// configuration deleted while the invalid one is created, then the program is started again.
import { afterAll, describe, expect, it } from 'vitest';
import type { CoreEvent, KubeObject } from '@regatta/kube';
import { useSidecarSetScenarios } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
const bad = `invalid-spec-${s.id}`;

afterAll(async () => {
  await s.client.delete({ ...SCS, name: bad }).catch(() => undefined);
});

const sidecarSet = (name: string, strategy: Record<string, unknown>) => ({
  ...SCS,
  metadata: { name },
  spec: {
    // pods of no app: the two SidecarSets do not overlap, and no pod of another file is selected
    selector: { matchLabels: { app: `${name}-${s.id}` } },
    containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
    updateStrategy: strategy,
  },
});

describe('SidecarSet that fails validation, stored without the webhook', () => {
  it('is refused with an InvalidSpec event naming the field; no status, no revision', async () => {
    const invalid = sidecarSet(bad, { type: 'RollingUpdate', maxUnavailable: 'lots' });
    invalid.metadata = { name: bad, labels: s.scopeLabels } as never;
    await s.storeWithoutWebhooks(invalid as KubeObject);
    await s.startController('b');
    const good = await s.createSidecarSet(
      sidecarSet('valid-spec', { type: 'RollingUpdate', maxUnavailable: 1 }),
    );

    // the valid one is acted on
    await expect
      .poll(
        async () =>
          (
            await s.client.get<KubeObject & { status?: { observedGeneration?: number } }>({
              ...SCS,
              name: good.metadata!.name!,
            })
          ).status?.observedGeneration,
        { timeout: 60_000 },
      )
      .toBe(1);
    const refusals = async () =>
      (await s.client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event' })).items
        .filter((e) => e.involvedObject.name === bad && e.reason === 'InvalidSpec')
        .map((e) => `${e.type}: ${e.message}`);
    await expect
      .poll(refusals, { timeout: 60_000 })
      .toContainEqual(
        expect.stringMatching(
          /^Warning: not acting on this SidecarSet until it is fixed: spec\.updateStrategy\.maxUnavailable: /,
        ),
      );
    const stored = await s.client.get<KubeObject & { status?: unknown }>({ ...SCS, name: bad });
    expect(stored.status ?? {}).toEqual({});
    const revisions = await s.client.list(
      { apiVersion: 'apps/v1', kind: 'ControllerRevision' },
      { labelSelector: `kruise.io/sidecarset-name=${bad}` },
    );
    expect(revisions.items).toEqual([]);

    // fixed: acted on
    await s.client.patch(
      { ...SCS, name: bad },
      { spec: { updateStrategy: { maxUnavailable: 1 } } },
      { type: 'merge' },
    );
    await expect
      .poll(
        async () =>
          (
            await s.client.get<KubeObject & { status?: { observedGeneration?: number } }>({
              ...SCS,
              name: bad,
            })
          ).status?.observedGeneration,
        { timeout: 60_000 },
      )
      .toBe(2);
  }, 200_000);
});
