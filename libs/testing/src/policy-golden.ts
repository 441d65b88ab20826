// A kind's ValidatingAdmissionPolicy as the chart and the sandbox ship it beside the CRD: the golden file
// deploy/policies/crd-validation/<group>_<resource>.yaml is rendered from the kind's policy (UPDATE_GOLDEN=1 rewrites
// it), and the policy's shape is checked: one policy on CREATE and UPDATE, failing closed, each message starting
// with a field path as the webhook's do, and a Deny binding (docs/adr/0088-admission-policies.md). Its CEL runs in
// the API server in the parity test (policy-parity.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { KubeObject } from '@regatta/kube';

export interface PolicyGoldenKind {
  /** The policy's source file from the repository root, without `.ts`; its unit test is `<source>.test.ts`. */
  source: string;
  /** What the policy matches (the kind's KindPolicy): `regatta-<name>-validation` names it. */
  policy: { name: string; group: string; version: string; resource: string };
  /** The policy and its binding as shipped. */
  objects: () => KubeObject[];
}

const ROOT = new URL('../../../', import.meta.url);

export function describePolicyGolden(title: string, kind: PolicyGoldenKind): void {
  const { name, group, version, resource } = kind.policy;
  const golden = `deploy/policies/crd-validation/${group}_${resource}.yaml`;
  const header = `# Generated from ${kind.source}.ts (UPDATE_GOLDEN=1 npx vitest run --project unit ${kind.source}.test.ts); do not edit.\n`;

  describe(title, () => {
    it(`${golden} is up to date`, () => {
      const text =
        header +
        kind
          .objects()
          .map((o) => `---\n${stringify(o, { lineWidth: 0 })}`)
          .join('');
      const file = new URL(golden, ROOT);
      if (process.env['UPDATE_GOLDEN']) writeFileSync(file, text);
      expect(readFileSync(file, 'utf8')).toBe(text);
    });

    it(`is one policy on CREATE and UPDATE of ${resource}, failing closed, each message starting with a field path, and a Deny binding`, () => {
      const [policy, binding] = kind.objects() as unknown as { kind: string; spec: Record<string, any> }[];
      expect(policy?.kind).toBe('ValidatingAdmissionPolicy');
      expect(policy?.spec['failurePolicy']).toBe('Fail');
      expect(policy?.spec['matchConstraints'].resourceRules).toEqual([
        {
          apiGroups: [group],
          apiVersions: [version],
          resources: [resource],
          operations: ['CREATE', 'UPDATE'],
          scope: '*',
        },
      ]);
      for (const v of policy?.spec['validations'] ?? [])
        expect(v.messageExpression).toMatch(/^'(spec|metadata)[.:\w[]/);
      expect(binding?.spec).toEqual({
        policyName: `regatta-${name}-validation`,
        validationActions: ['Deny'],
      });
    });
  });
}
