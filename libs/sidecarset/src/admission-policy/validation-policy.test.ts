// SidecarSet's ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD:
// deploy/policies/crd-validation/apps.kruise.io_sidecarsets.yaml is rendered from SIDECARSET_POLICY; UPDATE_GOLDEN=1
// rewrites it. Its CEL runs in the API server: apps/sidecarset/src/admission-policy.int.test.ts checks its verdicts
// against the webhook's on the table of validation-policy.cases.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sidecarSetAdmissionPolicies } from './validation-policy.js';

const FILE = new URL('../../../../deploy/policies/crd-validation/apps.kruise.io_sidecarsets.yaml', import.meta.url);
const HEADER =
  '# Generated from libs/sidecarset/src/admission-policy/validation-policy.ts (UPDATE_GOLDEN=1 npx vitest run --project unit libs/sidecarset/src/admission-policy/validation-policy.test.ts); do not edit.\n';

describe('the sidecarsets ValidatingAdmissionPolicy', () => {
  it('deploy/policies/crd-validation/apps.kruise.io_sidecarsets.yaml is up to date', () => {
    const text = HEADER + sidecarSetAdmissionPolicies().map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
    if (process.env['UPDATE_GOLDEN']) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });

  it('fails closed on CREATE and UPDATE of sidecarsets; every message starts with a field path; the binding denies', () => {
    const [policy, binding] = sidecarSetAdmissionPolicies() as unknown as { kind: string; spec: Record<string, any> }[];
    expect(policy?.spec['failurePolicy']).toBe('Fail');
    expect(policy?.spec['matchConstraints'].resourceRules[0]).toMatchObject({ resources: ['sidecarsets'], operations: ['CREATE', 'UPDATE'] });
    for (const v of policy?.spec['validations'] ?? []) expect(v.messageExpression).toMatch(/^'(spec|metadata)[.:\w[]/);
    expect(binding?.spec).toEqual({ policyName: 'regatta-sidecarset-validation', validationActions: ['Deny'] });
  });
});
