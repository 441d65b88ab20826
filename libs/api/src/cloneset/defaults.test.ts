import { describe, expect, it } from 'vitest';
import { defaultCloneSet, defaultCloneSetForAdmission } from './defaults.js';
import type { CloneSet } from './types.js';

const minimal = (): CloneSet => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'cs', namespace: 'ns' },
  spec: {
    selector: { matchLabels: { app: 'cs' } },
    template: { metadata: { labels: { app: 'cs' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] } },
  },
});

describe('defaultCloneSet (SetDefaultsCloneSet)', () => {
  it('fills every CloneSet default of an empty spec', () => {
    const out = defaultCloneSet(minimal());
    expect(out.spec).toEqual({
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'cs' } },
      template: {
        metadata: { labels: { app: 'cs' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:alpine',
              imagePullPolicy: 'Always',
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          schedulerName: 'default-scheduler',
        },
      },
      scaleStrategy: {},
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
    });
  });

  it.each([
    // given updateStrategy → expected updateStrategy
    [{}, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 }],
    [{ type: 'InPlaceIfPossible' }, { type: 'InPlaceIfPossible', inPlaceUpdateStrategy: {}, partition: 0, maxUnavailable: '20%', maxSurge: 0 }],
    [{ type: 'InPlaceOnly', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 } }, { type: 'InPlaceOnly', inPlaceUpdateStrategy: { gracePeriodSeconds: 10 }, partition: 0, maxUnavailable: '20%', maxSurge: 0 }],
    [{ type: 'ReCreate', partition: '50%', maxUnavailable: 0, maxSurge: '10%' }, { type: 'ReCreate', partition: '50%', maxUnavailable: 0, maxSurge: '10%' }],
    [{ type: 'OnDelete' }, { type: 'OnDelete', partition: 0, maxUnavailable: '20%', maxSurge: 0 }],
  ] as const)('updateStrategy %j → %j', (given, want) => {
    const cs = minimal();
    cs.spec.updateStrategy = { ...given };
    expect(defaultCloneSet(cs).spec.updateStrategy).toEqual(want);
  });

  it('keeps replicas 0 and a set revisionHistoryLimit', () => {
    const cs = minimal();
    cs.spec.replicas = 0;
    cs.spec.revisionHistoryLimit = 3;
    const out = defaultCloneSet(cs);
    expect(out.spec.replicas).toBe(0);
    expect(out.spec.revisionHistoryLimit).toBe(3);
  });

  it('sets status.phase Pending on volume claim templates (SetDefaults_PersistentVolumeClaim)', () => {
    const cs = minimal();
    cs.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }];
    expect(defaultCloneSet(cs).spec.volumeClaimTemplates).toEqual([
      { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] }, status: { phase: 'Pending' } },
    ]);
  });

  it('leaves the templates alone without injectTemplateDefaults', () => {
    const cs = minimal();
    cs.spec.volumeClaimTemplates = [{ metadata: { name: 'data' } }];
    const out = defaultCloneSet(cs, { injectTemplateDefaults: false });
    expect(out.spec.template).toEqual(cs.spec.template);
    expect(out.spec.volumeClaimTemplates).toEqual(cs.spec.volumeClaimTemplates);
    expect(out.spec.updateStrategy?.type).toBe('ReCreate');
  });

  it('is pure and idempotent', () => {
    const cs = minimal();
    const snapshot = JSON.parse(JSON.stringify(cs)) as CloneSet;
    const once = defaultCloneSet(cs);
    expect(cs).toEqual(snapshot);
    expect(defaultCloneSet(once)).toEqual(once);
  });
});

describe('defaultCloneSetForAdmission (the mutating webhook)', () => {
  it('injects template defaults on CREATE', () => {
    expect(defaultCloneSetForAdmission(minimal()).spec.template.spec?.dnsPolicy).toBe('ClusterFirst');
  });

  it('does not touch an unchanged template on UPDATE', () => {
    const old = minimal();
    const changed = minimal();
    changed.spec.replicas = 5;
    const out = defaultCloneSetForAdmission(changed, old);
    expect(out.spec.template).toEqual(old.spec.template);
    expect(out.spec.replicas).toBe(5);
  });

  it('injects template defaults when the template changed on UPDATE', () => {
    const old = minimal();
    const changed = minimal();
    changed.spec.template.spec = { containers: [{ name: 'nginx', image: 'nginx:1.27' }] };
    expect(defaultCloneSetForAdmission(changed, old).spec.template.spec?.containers[0]?.imagePullPolicy).toBe('Always');
  });

  it('never injects template defaults with the TemplateNoDefaults gate', () => {
    const out = defaultCloneSetForAdmission(minimal(), undefined, { templateNoDefaults: true });
    expect(out.spec.template).toEqual(minimal().spec.template);
    expect(out.spec.replicas).toBe(1);
  });
});
