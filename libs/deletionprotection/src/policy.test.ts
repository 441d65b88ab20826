// The ValidatingAdmissionPolicies as the chart ships them: deploy/policies/deletion-protection.yaml is rendered from
// deletionProtectionPolicies(); UPDATE_GOLDEN=1 rewrites it. Their CEL runs in the API server: the scenario test
// apps/deletionprotection/src/deletionprotection.int.test.ts checks what they refuse.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ALWAYS_PROTECTED, deletionProtectionPolicies, REPLICAS_WORKLOADS } from './policy.js';

const FILE = new URL('../../../deploy/policies/deletion-protection.yaml', import.meta.url);
const HEADER =
  '# Generated from libs/deletionprotection/src/policy.ts (UPDATE_GOLDEN=1 npx vitest run --project unit libs/deletionprotection); do not edit.\n';

const renderPolicies = (): string =>
  HEADER +
  deletionProtectionPolicies()
    .map((o) => `---\n${stringify(o, { lineWidth: 0 })}`)
    .join('');

describe('deletion protection policies', () => {
  it('deploy/policies/deletion-protection.yaml is up to date', () => {
    const text = renderPolicies();
    if (process.env['UPDATE_GOLDEN']) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8')).toBe(text);
  });

  it('only DELETEs of labelled objects are evaluated; every binding denies', () => {
    const objs = deletionProtectionPolicies() as unknown as { kind: string; spec: Record<string, any> }[];
    const policies = objs.filter((o) => o.kind === 'ValidatingAdmissionPolicy');
    expect(policies).toHaveLength(2);
    for (const p of policies) {
      expect(p.spec['matchConstraints'].objectSelector.matchExpressions[0].key).toBe(
        'policy.kruise.io/delete-protection',
      );
      for (const r of p.spec['matchConstraints'].resourceRules) expect(r.operations).toEqual(['DELETE']);
      expect(p.spec['validations'][0].messageExpression).toContain(
        'forbidden by ResourcesProtectionDeletion',
      );
      expect(p.spec['validations'][0].messageExpression).toContain('Regatta');
    }
    for (const b of objs.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding'))
      expect(b.spec['validationActions']).toEqual(['Deny']);
  });

  it('Always covers every kind whose replicas Cascading counts', () => {
    const always = new Set(ALWAYS_PROTECTED.flatMap((r) => r.resources.map((x) => `${r.apiGroups[0]}/${x}`)));
    for (const r of REPLICAS_WORKLOADS)
      for (const x of r.resources) expect(always).toContain(`${r.apiGroups[0]}/${x}`);
  });
});
