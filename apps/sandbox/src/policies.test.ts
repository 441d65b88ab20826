import { describe, expect, it } from 'vitest';
import { loadCrdValidationPolicies } from './crd-validation-policies.js';
import { loadPolicies } from './sandbox.js';

describe('deletion protection policies in a sandbox (docs/adr/0079)', () => {
  it('are applied with the deletionprotection controller and gate ResourcesDeletionProtection on, as the chart does', async () => {
    const on = { REGATTA_FEATURE_GATES: 'CloneSetShortHash=true, ResourcesDeletionProtection=true' };
    expect((await loadPolicies(['deletionprotection'], on)).map((o) => `${o.kind} ${o.metadata?.name}`)).toEqual([
      'ValidatingAdmissionPolicy regatta-deletion-protection-always',
      'ValidatingAdmissionPolicyBinding regatta-deletion-protection-always',
      'ValidatingAdmissionPolicy regatta-deletion-protection-replicas',
      'ValidatingAdmissionPolicyBinding regatta-deletion-protection-replicas',
    ]);
    expect(await loadPolicies(['cloneset'], on)).toEqual([]);
    expect(await loadPolicies(['deletionprotection'], {})).toEqual([]);
    expect(
      await loadPolicies(['deletionprotection'], { REGATTA_FEATURE_GATES: 'ResourcesDeletionProtection=false' }),
    ).toEqual([]);
  });
});

describe('CRD validation policies in a sandbox (docs/adr/0088)', () => {
  it('are applied with the CRDs, whatever the controllers', async () => {
    const root = new URL('../../../', import.meta.url).pathname;
    const names = (await loadCrdValidationPolicies(root)).map((o) => `${o.kind} ${o.metadata?.name}`);
    expect(names).toContain('ValidatingAdmissionPolicy regatta-cloneset-validation');
    expect(names).toContain('ValidatingAdmissionPolicyBinding regatta-cloneset-validation');
  });
});
