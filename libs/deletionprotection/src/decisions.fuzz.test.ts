// Any JSON as the DELETE's old object, the namespace's pods and claims, or a CRD's objects: the decisions answer a
// reason or undefined and never throw (a handler that throws answers 500, and the DELETE is refused for no reason).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import type { AdmissionInput } from '@regatta/runtime';
import { deletionProblem } from './webhooks.js';

const json = fc.jsonValue({ maxDepth: 4 });
const labelled = fc.record({
  metadata: fc.record({
    labels: fc.constantFrom({ 'policy.kruise.io/delete-protection': 'Cascading' }, {}, 'x', null),
  }),
  spec: json,
  status: json,
});
const anyObject = fc.oneof(json, labelled);

describe('deletionProblem on any JSON', () => {
  it('answers a string or undefined, never throws', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Namespace', 'CustomResourceDefinition', 'DaemonSet', 'BroadcastJob', 'CloneSet'),
        anyObject,
        fc.array(anyObject, { maxLength: 3 }),
        async (kind, old, children) => {
          const input = {
            operation: 'DELETE',
            object: null,
            oldObject: old as KubeObject,
            kind: { group: '', version: 'v1', kind },
            userInfo: { username: 'u' },
            dryRun: true,
            uid: 'u',
          } as AdmissionInput<KubeObject>;
          const lookups = {
            podsInNamespace: () => children as KubeObject[],
            claimsInNamespace: () => children as KubeObject[],
            podsControlledBy: () => children as KubeObject[],
            crdObjects: () => Promise.resolve(children as KubeObject[]),
          };
          const got = await deletionProblem(input, { lookups, crdCascading: true });
          expect(got === undefined || typeof got === 'string').toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
