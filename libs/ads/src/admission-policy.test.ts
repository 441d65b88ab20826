// The ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD:
// deploy/policies/crd-validation/apps.kruise.io_daemonsets.yaml is rendered from DAEMONSET_POLICY; UPDATE_GOLDEN=1 rewrites
// it. Its CEL runs in the API server: apps/ads/src/admission-policy.int.test.ts checks its verdicts against the
// webhook's on the table of admission-policy.cases.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { daemonSetAdmissionPolicies } from './admission-policy.js';

const FILE = new URL('../../../deploy/policies/crd-validation/apps.kruise.io_daemonsets.yaml', import.meta.url);
const HEADER =
  '# Generated from libs/ads/src/admission-policy.ts (UPDATE_GOLDEN=1 npx vitest run --project unit libs/ads/src/admission-policy.test.ts); do not edit.\n';

describe('the daemonsets ValidatingAdmissionPolicy', () => {
  it('deploy/policies/crd-validation/apps.kruise.io_daemonsets.yaml is up to date', () => {
    const text = HEADER + daemonSetAdmissionPolicies().map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
    if (process.env['UPDATE_GOLDEN']) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });

  it('fails closed on CREATE and UPDATE of daemonsets; every message starts with a field path; the binding denies', () => {
    const [policy, binding] = daemonSetAdmissionPolicies() as unknown as { kind: string; spec: Record<string, any> }[];
    expect(policy?.spec['failurePolicy']).toBe('Fail');
    expect(policy?.spec['matchConstraints'].resourceRules[0]).toMatchObject({ resources: ['daemonsets'], operations: ['CREATE', 'UPDATE'] });
    for (const v of policy?.spec['validations'] ?? []) expect(v.messageExpression).toMatch(/^'(spec|metadata)[.:\w[]/);
    expect(binding?.spec).toEqual({ policyName: 'regatta-daemonset-validation', validationActions: ['Deny'] });
  });
});
