import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { isSubsetPod, unitedDeploymentsForPod } from './handlers.js';

const ud = (name: string, app: string): KubeObject =>
  ({ metadata: { name, namespace: 'ns' }, spec: { selector: { matchLabels: { app } } } }) as KubeObject;
const pod = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'p', namespace: 'ns', labels } });

describe('pod → UnitedDeployment mapping', () => {
  it('keeps only subset pods', () => {
    expect(isSubsetPod(pod({ 'apps.kruise.io/subset-name': 'a' }))).toBe(true);
    expect(isSubsetPod(pod({ app: 'x' }))).toBe(false);
  });

  it('enqueues the UnitedDeployments of the namespace whose selector matches', () => {
    const readers = { uniteddeployments: { list: () => [ud('one', 'x'), ud('two', 'y')] } };
    const change = { type: 'update', object: pod({ app: 'x', 'apps.kruise.io/subset-name': 'a' }) } as never;
    expect(unitedDeploymentsForPod(change, readers)).toEqual([{ namespace: 'ns', name: 'one' }]);
  });
});
