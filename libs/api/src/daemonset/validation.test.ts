import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { defaultDaemonSet } from './defaults.js';
import type { DaemonSet, DaemonSetV1alpha1, RollingUpdateDaemonSet } from './types.js';
import { validateDaemonSet } from './validation.js';

/** A valid, defaulted v1beta1 DaemonSet; `mutate` edits it before validation. */
function daemonSet(mutate?: (ds: DaemonSet) => void): DaemonSet {
  const ds = defaultDaemonSet<DaemonSet>({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'DaemonSet',
    metadata: { name: 'ds', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'ds' } },
      template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] } },
    },
  });
  mutate?.(ds);
  return ds;
}

/** The same DaemonSet with `rollingUpdate` replaced (not defaulted). */
const withRollingUpdate = (ru: Record<string, unknown>, version: 'v1alpha1' | 'v1beta1' = 'v1beta1'): unknown =>
  daemonSet((ds) => {
    ds.apiVersion = `apps.kruise.io/${version}`;
    ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: ru as RollingUpdateDaemonSet };
  });

const errorsOf = (ds: unknown) => validateDaemonSet(ds).map(formatFieldError);
const RU = 'spec.updateStrategy.rollingUpdate';

describe('validateDaemonSet', () => {
  it('accepts a valid defaulted DaemonSet', () => {
    expect(errorsOf(daemonSet())).toEqual([]);
  });

  it('accepts a raw DaemonSet the same way (missing strategy fields read as their defaults)', () => {
    const raw = {
      metadata: { name: 'ds', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'ds' } }, template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect(errorsOf(raw)).toEqual([]);
    expect(errorsOf({ ...raw, spec: { ...raw.spec, updateStrategy: { type: 'RollingUpdate' } } })).toEqual([]);
  });

  it('validates the template after the pod defaults: no restartPolicy is Always (upstream test "selector match")', () => {
    expect(errorsOf(daemonSet((ds) => delete ds.spec.template.spec?.restartPolicy))).toEqual([]);
  });

  // one row per validation rule of OpenKruise's pkg/webhook/daemonset/validating
  it.each<[string, (ds: DaemonSet) => void, string[]]>([
    ['selector not matching the template labels (upstream "selector not match")', (ds) => (ds.spec.selector = { matchLabels: { app: 'other' } }), [
      'spec.template.metadata.labels: Invalid value: {"app":"ds"}: `selector` does not match template `labels`',
    ]],
    ['empty selector', (ds) => (ds.spec.selector = {}), ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset']],
    ['missing selector', (ds) => delete (ds.spec as Partial<DaemonSet['spec']>).selector, [
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: {"app":"ds"}: `selector` does not match template `labels`',
    ]],
    ['invalid selector operator', (ds) => (ds.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near' }] }), [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    ]],
    ['restartPolicy OnFailure', (ds) => ((ds.spec.template.spec ??= { containers: [] }).restartPolicy = 'OnFailure'), [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]],
    ['activeDeadlineSeconds', (ds) => ((ds.spec.template.spec ??= { containers: [] }).activeDeadlineSeconds = 30), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]],
    ['no containers', (ds) => ((ds.spec.template.spec ??= { containers: [] }).containers = []), ['spec.template.spec.containers: Required value']],
    ['negative minReadySeconds', (ds) => (ds.spec.minReadySeconds = -1), ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']],
    ['negative revisionHistoryLimit', (ds) => (ds.spec.revisionHistoryLimit = -1), [
      'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['lifecycle.inPlaceUpdate', (ds) => (ds.spec.lifecycle = { inPlaceUpdate: { labelsHandler: { hold: 'true' } } }), [
      'spec.lifecycle.inPlaceUpdate: Forbidden: inPlaceUpdate hook has not supported yet',
    ]],
    ['unknown updateStrategy.type', (ds) => (ds.spec.updateStrategy = { type: 'Recreate' }), [
      'spec.updateStrategy.type: Unsupported value: "Recreate": supported values: "RollingUpdate", "OnDelete"',
    ]],
    ['burstReplicas that is not an int or percentage', (ds) => (ds.spec.burstReplicas = 'ten'), [
      "spec.burstReplicas: Invalid value: \"ten\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]],
    ['negative burstReplicas', (ds) => (ds.spec.burstReplicas = -1), ['spec.burstReplicas: Invalid value: -1: must be greater than or equal to 0']],
    ['metadata.name not a DNS subdomain', (ds) => ((ds.metadata ??= {}).name = 'Bad_Name'), [
      "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ])('%s', (_name, mutate, expected) => {
    expect(errorsOf(daemonSet(mutate))).toEqual(expected);
  });

  it('accepts OnDelete without rollingUpdate', () => {
    expect(errorsOf(daemonSet((ds) => (ds.spec.updateStrategy = { type: 'OnDelete' })))).toEqual([]);
  });
});

describe('validateDaemonSet: rollingUpdate (maxUnavailable / maxSurge / partition / rollingUpdateType)', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['maxUnavailable 1', { maxUnavailable: 1 }, []],
    ['maxUnavailable 100%', { maxUnavailable: '100%' }, []],
    ['maxSurge 2, maxUnavailable 0', { maxSurge: 2, maxUnavailable: 0 }, []],
    ['maxSurge 50% only', { maxSurge: '50%' }, []],
    ['maxUnavailable 0% and maxSurge 1', { maxUnavailable: '0%', maxSurge: 1 }, []],
    ['both zero', { maxUnavailable: 0, maxSurge: 0 }, [`${RU}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`]],
    ['both "0%"', { maxUnavailable: '0%', maxSurge: '0%' }, [`${RU}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`]],
    ['both non-zero', { maxUnavailable: 1, maxSurge: 1 }, [`${RU}.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`]],
    ['maxUnavailable 120%', { maxUnavailable: '120%' }, [`${RU}.maxUnavailable: Invalid value: "120%": must not be greater than 100%`]],
    ['maxSurge 101%', { maxUnavailable: 0, maxSurge: '101%' }, [`${RU}.maxSurge: Invalid value: "101%": must not be greater than 100%`]],
    ['negative maxUnavailable', { maxUnavailable: -1 }, [`${RU}.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`]],
    ['numeric string maxUnavailable "5"', { maxUnavailable: '5' }, [
      `${RU}.maxUnavailable: Invalid value: "5": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]],
    ['decimal percentage maxSurge "1.5%"', { maxUnavailable: 0, maxSurge: '1.5%' }, [
      `${RU}.maxSurge: Invalid value: "1.5%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]],
    ['InPlaceIfPossible with maxUnavailable', { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 }, []],
    ['InPlaceIfPossible with maxSurge', { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 0, maxSurge: 1 }, [
      `${RU}.maxSurge: Required value: must be 0 for InPlaceIfPossible type`,
    ]],
    ['unknown rollingUpdateType', { rollingUpdateType: 'Fast', maxUnavailable: 1 }, [
      `${RU}.rollingUpdateType: Unsupported value: "Fast": supported values: "Standard", "InPlaceIfPossible"`,
    ]],
    ['Surging is not a v1beta1 type', { rollingUpdateType: 'Surging', maxUnavailable: 0, maxSurge: 1 }, [
      `${RU}.rollingUpdateType: Unsupported value: "Surging": supported values: "Standard", "InPlaceIfPossible"`,
    ]],
    ['partition 0', { maxUnavailable: 1, partition: 0 }, []],
    ['partition 10 (more than nodes is fine)', { maxUnavailable: 1, partition: 10 }, []],
    ['partition 100%', { maxUnavailable: 1, partition: '100%' }, []],
    ['negative partition', { maxUnavailable: 1, partition: -1 }, [`${RU}.partition: Invalid value: -1: must be greater than or equal to 0`]],
    ['partition 150%', { maxUnavailable: 1, partition: '150%' }, [`${RU}.partition: Invalid value: "150%": must not be greater than 100%`]],
    ['partition "3"', { maxUnavailable: 1, partition: '3' }, [
      `${RU}.partition: Invalid value: "3": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]],
    ['node selector', { maxUnavailable: 1, selector: { matchLabels: { 'kubernetes.io/hostname': 'node1' } } }, []],
    ['invalid node selector', { maxUnavailable: 1, selector: { matchLabels: { 'bad key!': 'x' } } }, [
      `${RU}.selector.matchLabels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]],
    ['paused', { maxUnavailable: 1, paused: true }, []],
  ])('v1beta1 %s', (_name, ru, expected) => {
    expect(errorsOf(withRollingUpdate(ru))).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['Surging alone (maxSurge 1 / maxUnavailable 0 by default)', { rollingUpdateType: 'Surging' }, []],
    ['Surging with maxSurge 2', { rollingUpdateType: 'Surging', maxSurge: 2 }, []],
    ['Surging with maxUnavailable', { rollingUpdateType: 'Surging', maxUnavailable: 1, maxSurge: 0 }, [
      `${RU}.maxUnavailable: Required value: must be 0 for Surging type`,
    ]],
    ['unknown rollingUpdateType', { rollingUpdateType: 'Fast', maxUnavailable: 1 }, [
      `${RU}.rollingUpdateType: Unsupported value: "Fast": supported values: "Standard", "Surging", "InPlaceIfPossible"`,
    ]],
    // upstream "DeprecatedSurgingRollingUpdate with maxUnavailable": maxSurge then defaults to 1, so both rules fire
    ['Surging with maxUnavailable only', { rollingUpdateType: 'Surging', maxUnavailable: 1 }, [
      `${RU}.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`,
      `${RU}.maxUnavailable: Required value: must be 0 for Surging type`,
    ]],
  ])('v1alpha1 %s', (_name, ru, expected) => {
    expect(errorsOf(withRollingUpdate(ru, 'v1alpha1'))).toEqual(expected);
  });

  it('the version option overrides the apiVersion', () => {
    const ds = withRollingUpdate({ rollingUpdateType: 'Surging' }, 'v1beta1');
    expect(validateDaemonSet(ds, { version: 'v1alpha1' })).toEqual([]);
    expect(validateDaemonSet(ds).length).toBe(1);
  });

  it('a defaulted v1alpha1 Surging DaemonSet is a valid v1beta1 one', () => {
    const alpha: DaemonSetV1alpha1 = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      metadata: { name: 'ds', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'ds' } },
        template: { metadata: { labels: { app: 'ds' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging' } },
      },
    };
    const defaulted = defaultDaemonSet(alpha);
    expect(validateDaemonSet(defaulted, { version: 'v1beta1' })).toEqual([]);
  });
});

describe('validateDaemonSet: JSON types', () => {
  it.each<[string, unknown, string[]]>([
    ['not an object', 'ds', ['<object>: Invalid value: "ds": must be an object']],
    ['maxUnavailable a boolean', { metadata: { name: 'ds', namespace: 'd' }, spec: { updateStrategy: { rollingUpdate: { maxUnavailable: true } } } }, [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: true: must be an integer or a string',
    ]],
    ['burstReplicas a float', { metadata: { name: 'ds', namespace: 'd' }, spec: { burstReplicas: 1.5 } }, [
      'spec.burstReplicas: Invalid value: 1.5: must be an integer or a string',
    ]],
  ])('%s', (_name, obj, expected) => {
    expect(errorsOf(obj)).toEqual(expected);
  });
});

describe('validateDaemonSet: a member named __proto__', () => {
  it('is an ordinary member, as JSON.parse reads it: a selector requirement `{"__proto__": []}` is missing its key and operator (fast-check counterexample)', () => {
    const ds = daemonSet();
    ds.spec.selector.matchExpressions = [JSON.parse('{"__proto__": []}')];
    expect(errorsOf(ds)).toEqual([
      'spec.selector.matchExpressions[0].operator: Invalid value: null: not a valid selector operator',
      'spec.selector.matchExpressions[0].key: Invalid value: null: name part must be non-empty',
      expect.stringMatching(/^spec\.selector\.matchExpressions\[0\]\.key: Invalid value: null: name part must consist of/),
    ]);
  });
});
