import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { type AdmissionInput, Mutation } from '@regatta/runtime';
import {
  MUTATE_UNITED_DEPLOYMENT_PATH,
  unitedDeploymentDefaulter,
  unitedDeploymentValidator,
  unitedDeploymentWebhookConfigurations,
} from './handlers.js';
import { ud, udWith } from './test-objects.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function input(
  operation: AdmissionInput['operation'],
  object: unknown,
  oldObject: unknown = null,
): AdmissionInput<KubeObject> {
  return {
    operation,
    object: object as KubeObject,
    oldObject: oldObject as KubeObject,
    kind: { group: 'apps.kruise.io', version: 'v1beta1', kind: 'UnitedDeployment' },
    name: 'web',
    namespace: 'default',
    userInfo: {},
    dryRun: false,
    uid: 'u1',
  };
}

describe('UnitedDeployment admission handlers', () => {
  it('the defaulter answers with the defaulted object and the shorthand warnings', async () => {
    const seed = udWith((u) => {
      delete (u.spec as Any)['revisionHistoryLimit'];
      u.spec.topology = { subsets: [{ name: 'east', nodeSelector: { zone: 'east' } }] };
    });
    const answer = await unitedDeploymentDefaulter()(input('CREATE', seed));
    expect(answer).toBeInstanceOf(Mutation);
    const m = answer as Mutation<Any>;
    expect(m.object?.['spec'].revisionHistoryLimit).toBe(10);
    expect(m.object?.['spec'].topology.subsets[0].nodeSelectorTerm).toEqual({
      matchExpressions: [{ key: 'zone', operator: 'In', values: ['east'] }],
    });
    expect(m.warnings).toHaveLength(1);
    expect(await unitedDeploymentDefaulter()(input('DELETE', null, ud()))).toBeUndefined();
  });

  it('the validator answers 422 with one cause per field error', async () => {
    const bad = udWith(
      (u) => (u.spec.updateStrategy = { type: 'Manual', manualUpdate: { partitions: { zz: 1 } } }),
    );
    const result = await unitedDeploymentValidator()(input('CREATE', bad));
    expect(result.allowed).toBe(false);
    if (result.allowed) return;
    expect(result.status.code).toBe(422);
    expect(result.status.details?.causes).toEqual([
      expect.objectContaining({
        field: 'spec.updateStrategy.manualUpdate.partitions',
        reason: 'FieldValueInvalid',
      }),
    ]);
    expect(await unitedDeploymentValidator()(input('UPDATE', ud(), ud()))).toEqual({ allowed: true });
  });

  it('registers both versions at the upstream paths, never DELETE (deletion protection is libs/deletionprotection)', () => {
    const pair = unitedDeploymentWebhookConfigurations('https://127.0.0.1:9443', 'PEM');
    const mutating = pair.mutating.webhooks[0] as Any;
    expect(mutating.clientConfig.url).toBe(`https://127.0.0.1:9443${MUTATE_UNITED_DEPLOYMENT_PATH}`);
    expect(mutating.rules[0]).toMatchObject({
      apiVersions: ['v1alpha1', 'v1beta1'],
      resources: ['uniteddeployments'],
      operations: ['CREATE', 'UPDATE'],
    });
    expect(pair.validating.webhooks).toHaveLength(1);
    expect((pair.validating.webhooks[0] as Any).rules[0].operations).toEqual(['CREATE', 'UPDATE']);
  });
});
