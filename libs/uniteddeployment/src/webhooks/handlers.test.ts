import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { type AdmissionInput, Mutation } from '@regatta/runtime';
import {
  MUTATE_UNITED_DEPLOYMENT_PATH,
  VALIDATE_UNITED_DEPLOYMENT_PATH,
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

  it('deletion protection (gate ResourcesDeletionProtection)', async () => {
    const protectedUd = udWith(
      (u) => (u.metadata = { ...u.metadata, labels: { 'policy.kruise.io/delete-protection': 'Cascading' } }),
    );
    expect(await unitedDeploymentValidator()(input('DELETE', null, protectedUd))).toEqual({ allowed: true });
    const denied = await unitedDeploymentValidator({ resourcesDeletionProtection: true })(
      input('DELETE', null, protectedUd),
    );
    expect(denied).toEqual({
      allowed: false,
      status: {
        code: 403,
        reason: 'Forbidden',
        message:
          'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and replicas 4>0',
      },
    });
    const scaledIn = udWith((u) => {
      u.metadata = { ...u.metadata, labels: { 'policy.kruise.io/delete-protection': 'Cascading' } };
      u.spec.replicas = 0;
    });
    expect(
      await unitedDeploymentValidator({ resourcesDeletionProtection: true })(input('DELETE', null, scaledIn)),
    ).toEqual({ allowed: true });
  });

  it('registers both versions at the upstream paths, and DELETE only with the gate', () => {
    const pair = unitedDeploymentWebhookConfigurations('https://127.0.0.1:9443', 'PEM');
    const mutating = pair.mutating.webhooks[0] as Any;
    expect(mutating.clientConfig.url).toBe(`https://127.0.0.1:9443${MUTATE_UNITED_DEPLOYMENT_PATH}`);
    expect(mutating.rules[0]).toMatchObject({
      apiVersions: ['v1alpha1', 'v1beta1'],
      resources: ['uniteddeployments'],
      operations: ['CREATE', 'UPDATE'],
    });
    expect(pair.validating.webhooks).toHaveLength(1);
    const gated = unitedDeploymentWebhookConfigurations('https://127.0.0.1:9443', 'PEM', undefined, {
      resourcesDeletionProtection: true,
    });
    const del = gated.validating.webhooks[1] as Any;
    expect(del.clientConfig.url).toBe(`https://127.0.0.1:9443${VALIDATE_UNITED_DEPLOYMENT_PATH}`);
    expect(del.rules[0].operations).toEqual(['DELETE']);
    expect(del.matchConditions).toBeUndefined();
  });
});
