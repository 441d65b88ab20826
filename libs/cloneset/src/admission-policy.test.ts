// CloneSet's ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD:
// deploy/policies/crd-validation/apps.kruise.io_clonesets.yaml is rendered from CLONESET_POLICY; UPDATE_GOLDEN=1
// rewrites it. Its CEL runs in the API server: apps/cloneset/src/admission-policy.int.test.ts checks its verdicts
// against the webhook's on the table of admission-policy.cases.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cloneSetAdmissionPolicies } from './admission-policy.js';

const FILE = new URL('../../../deploy/policies/crd-validation/apps.kruise.io_clonesets.yaml', import.meta.url);
const HEADER =
  '# Generated from libs/cloneset/src/admission-policy.ts (UPDATE_GOLDEN=1 npx vitest run --project unit libs/cloneset/src/admission-policy.test.ts); do not edit.\n';

describe('the CloneSet ValidatingAdmissionPolicy', () => {
  it('deploy/policies/crd-validation/apps.kruise.io_clonesets.yaml is up to date', () => {
    const text = HEADER + cloneSetAdmissionPolicies().map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
    if (process.env['UPDATE_GOLDEN']) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });

  it('is one policy on CREATE and UPDATE of clonesets, failing closed, and a Deny binding', () => {
    const [policy, binding] = cloneSetAdmissionPolicies() as unknown as { kind: string; spec: Record<string, any> }[];
    expect(policy?.kind).toBe('ValidatingAdmissionPolicy');
    expect(policy?.spec['failurePolicy']).toBe('Fail');
    expect(policy?.spec['matchConstraints'].resourceRules).toEqual([
      { apiGroups: ['apps.kruise.io'], apiVersions: ['v1alpha1'], resources: ['clonesets'], operations: ['CREATE', 'UPDATE'], scope: '*' },
    ]);
    // every message starts with a field path, as the webhook's do
    for (const v of policy?.spec['validations'] ?? []) expect(v.messageExpression).toMatch(/^'(spec|metadata)[.:\w[]/);
    expect(binding?.spec).toEqual({ policyName: 'regatta-cloneset-validation', validationActions: ['Deny'] });
  });
});
