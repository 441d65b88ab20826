// The ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD:
// deploy/policies/crd-validation/apps.kruise.io_statefulsets.yaml is rendered from STATEFULSET_POLICY; UPDATE_GOLDEN=1 rewrites
// it. Its CEL runs in the API server: apps/asts/src/admission-policy.int.test.ts checks its verdicts against the
// webhook's on the table of admission-policy.cases.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { statefulSetAdmissionPolicies } from './admission-policy.js';

const FILE = new URL('../../../deploy/policies/crd-validation/apps.kruise.io_statefulsets.yaml', import.meta.url);
const HEADER =
  '# Generated from libs/asts/src/admission-policy.ts (UPDATE_GOLDEN=1 npx vitest run --project unit libs/asts/src/admission-policy.test.ts); do not edit.\n';

describe('the statefulsets ValidatingAdmissionPolicy', () => {
  it('deploy/policies/crd-validation/apps.kruise.io_statefulsets.yaml is up to date', () => {
    const text = HEADER + statefulSetAdmissionPolicies().map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
    if (process.env['UPDATE_GOLDEN']) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });

  it('fails closed on CREATE and UPDATE of statefulsets; every message starts with a field path; the binding denies', () => {
    const [policy, binding] = statefulSetAdmissionPolicies() as unknown as { kind: string; spec: Record<string, any> }[];
    expect(policy?.spec['failurePolicy']).toBe('Fail');
    expect(policy?.spec['matchConstraints'].resourceRules[0]).toMatchObject({ resources: ['statefulsets'], operations: ['CREATE', 'UPDATE'] });
    for (const v of policy?.spec['validations'] ?? []) expect(v.messageExpression).toMatch(/^'(spec|metadata)[.:\w[]/);
    expect(binding?.spec).toEqual({ policyName: 'regatta-statefulset-validation', validationActions: ['Deny'] });
  });
});
