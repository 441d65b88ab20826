import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { daemonSetRequestVersion, defaultDaemonSetForAdmission, validateDaemonSetAdmission } from './admission.js';

const ds = (rollingUpdate: Record<string, unknown>, selector = { app: 'a' }) => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  metadata: { name: 'a', namespace: 'default' },
  spec: {
    selector: { matchLabels: selector },
    template: { metadata: { labels: { app: 'a', x: 'y' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate },
  },
});

describe('DaemonSet admission entry points', () => {
  it('reads the version of the request', () => {
    expect(daemonSetRequestVersion('v1alpha1')).toBe('v1alpha1');
    expect(daemonSetRequestVersion('v1beta1')).toBe('v1beta1');
    expect(daemonSetRequestVersion('v1')).toBeUndefined();
  });

  it('a v1alpha1 Surging DaemonSet is defaulted to Standard with surge and then admitted', () => {
    const defaulted = defaultDaemonSetForAdmission(ds({ rollingUpdateType: 'Surging' }), 'v1alpha1');
    expect(defaulted.spec.updateStrategy.rollingUpdate).toEqual({ rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 });
    expect(validateDaemonSetAdmission({ operation: 'CREATE', object: defaulted, version: 'v1alpha1' })).toEqual([]);
  });

  it('UPDATE checks the immutable selector', () => {
    const old = defaultDaemonSetForAdmission(ds({}), 'v1beta1');
    const next = defaultDaemonSetForAdmission(ds({}, { app: 'a', x: 'y' } as never), 'v1beta1');
    expect(validateDaemonSetAdmission({ operation: 'UPDATE', object: next, oldObject: old, version: 'v1beta1' }).map(formatFieldError)).toEqual([
      "spec: Forbidden: updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', and 'revisionHistoryLimit' are forbidden",
    ]);
    expect(validateDaemonSetAdmission({ operation: 'CREATE', object: next, version: 'v1beta1' })).toEqual([]);
  });
});
