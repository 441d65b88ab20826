import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  CRD_FILE_HEADER,
  crdDefinition,
  generateCrds,
  renderCrdFiles,
  structuralSchemaViolations,
  UnknownKindError,
  type CustomResourceDefinition,
} from './index.js';

const CRD_DIR = fileURLToPath(new URL('../../../deploy/crds/', import.meta.url));

describe('deploy/crds', () => {
  it('is up to date with the schemas (run `npm run crds` after changing libs/api)', () => {
    const present = new Set(readdirSync(CRD_DIR).filter((f) => f.endsWith('.yaml')));
    for (const { fileName, text } of renderCrdFiles()) {
      const onDisk = present.has(fileName) ? readFileSync(`${CRD_DIR}${fileName}`, 'utf8') : undefined;
      expect(onDisk, `deploy/crds/${fileName} is missing or stale: run npm run crds`).toBe(text);
      present.delete(fileName);
    }
    const stale = [...present].filter((f) => readFileSync(`${CRD_DIR}${f}`, 'utf8').startsWith(CRD_FILE_HEADER));
    expect(stale, 'generated files for kinds that no longer exist: run npm run crds').toEqual([]);
  });

  it('round-trips: every file parses back to the generated object', () => {
    for (const crd of generateCrds()) {
      const text = readFileSync(`${CRD_DIR}${crd.spec.group}_${crd.spec.names.plural}.yaml`, 'utf8');
      expect(parse(text)).toEqual(JSON.parse(JSON.stringify(crd)));
    }
  });
});

describe('generated CRDs', () => {
  const crds = generateCrds();

  it('are structural, with exactly one storage version each', () => {
    for (const crd of crds) {
      for (const v of crd.spec.versions) {
        expect(structuralSchemaViolations(v.schema.openAPIV3Schema), `${crd.metadata.name} ${v.name}`).toEqual([]);
      }
      expect(crd.spec.versions.filter((v) => v.storage)).toHaveLength(1);
      expect(crd.metadata.name).toBe(`${crd.spec.names.plural}.${crd.spec.group}`);
    }
  });

  // names, scope, versions and subresources as in OpenKruise v1.9's config/crd/bases
  const expected: [string, string, string[], 'Namespaced' | 'Cluster', string[], string, string | undefined][] = [
    // kind, plural, shortNames, scope, served versions, storage version, scale labelSelectorPath
    ['CloneSet', 'clonesets', ['clone'], 'Namespaced', ['v1alpha1'], 'v1alpha1', '.status.labelSelector'],
    ['StatefulSet', 'statefulsets', ['sts', 'asts'], 'Namespaced', ['v1alpha1', 'v1beta1'], 'v1beta1', '.status.labelSelector'],
    ['DaemonSet', 'daemonsets', ['daemon', 'ads'], 'Namespaced', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['SidecarSet', 'sidecarsets', [], 'Cluster', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['UnitedDeployment', 'uniteddeployments', ['ud'], 'Namespaced', ['v1alpha1', 'v1beta1'], 'v1beta1', '.status.labelSelector'],
    ['ResourceDistribution', 'resourcedistributions', ['distributor'], 'Cluster', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['ImagePullJob', 'imagepulljobs', [], 'Namespaced', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['NodeImage', 'nodeimages', [], 'Cluster', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['BroadcastJob', 'broadcastjobs', ['bcj'], 'Namespaced', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['AdvancedCronJob', 'advancedcronjobs', ['acj'], 'Namespaced', ['v1alpha1', 'v1beta1'], 'v1beta1', undefined],
    ['WorkloadSpread', 'workloadspreads', ['ws'], 'Namespaced', ['v1alpha1'], 'v1alpha1', undefined],
  ];
  it.each(expected)('%s: names, scope, versions and subresources as OpenKruise', (kind, plural, shortNames, scope, versions, storage, selectorPath) => {
    const crd = crds.find((c) => c.spec.names.kind === kind) as CustomResourceDefinition;
    expect(crd.spec.group).toBe('apps.kruise.io');
    expect(crd.spec.names).toEqual({
      kind,
      listKind: `${kind}List`,
      plural,
      singular: kind.toLowerCase(),
      ...(shortNames.length > 0 ? { shortNames } : {}),
    });
    expect(crd.spec.scope).toBe(scope);
    expect(crd.spec.versions.map((v) => v.name)).toEqual(versions);
    expect(crd.spec.versions.every((v) => v.served)).toBe(true);
    expect(crd.spec.versions.find((v) => v.storage)?.name).toBe(storage);
    for (const v of crd.spec.versions) {
      expect(v.subresources?.status).toEqual({});
      if (selectorPath) {
        expect(v.subresources?.scale).toEqual({
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: selectorPath,
        });
      } else {
        expect(v.subresources?.scale).toBeUndefined();
      }
    }
  });

  const columns = (kind: string, version?: string) => {
    const crd = crds.find((c) => c.spec.names.kind === kind) as CustomResourceDefinition;
    const v = version ? crd.spec.versions.find((x) => x.name === version) : crd.spec.versions[0];
    return (v?.additionalPrinterColumns ?? []).map((c) => `${c.name} ${c.type} ${c.jsonPath}${c.priority ? ` p${c.priority}` : ''}`);
  };

  it('CloneSet printer columns are OpenKruise v1.9 ones', () => {
    expect(columns('CloneSet')).toEqual([
      'DESIRED integer .spec.replicas',
      'UPDATED integer .status.updatedReplicas',
      'UPDATED_READY integer .status.updatedReadyReplicas',
      'UPDATED_AVAILABLE integer .status.updatedAvailableReplicas',
      'READY integer .status.readyReplicas',
      'TOTAL integer .status.replicas',
      'AGE date .metadata.creationTimestamp',
      'CONTAINERS string .spec.template.spec.containers[*].name p1',
      'IMAGES string .spec.template.spec.containers[*].image p1',
      'SELECTOR string .status.labelSelector p1',
    ]);
  });

  it.each([
    ['StatefulSet', undefined, ['DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE', 'CONTAINERS', 'IMAGES']],
    ['DaemonSet', undefined, ['DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES']],
    ['SidecarSet', undefined, ['MATCHED', 'UPDATED', 'READY', 'AGE']],
    ['UnitedDeployment', undefined, ['DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE']],
    ['ResourceDistribution', undefined, ['TOTAL', 'SUCCEED', 'FAILED']],
    ['ImagePullJob', 'v1alpha1', ['TOTAL', 'ACTIVE', 'SUCCEED', 'FAILED', 'AGE', 'MESSAGE']],
    ['ImagePullJob', 'v1beta1', ['TOTAL', 'ACTIVE', 'SUCCEED', 'FAILED', 'AGE']],
    ['NodeImage', undefined, ['DESIRED', 'PULLING', 'SUCCEED', 'FAILED', 'AGE']],
    ['BroadcastJob', undefined, ['Desired', 'Active', 'Succeeded', 'Failed', 'AGE']],
    ['AdvancedCronJob', undefined, ['Schedule', 'Type', 'LastScheduleTime', 'AGE']],
    ['WorkloadSpread', undefined, ['WorkloadName', 'WorkloadKind', 'Adaptive', 'Age']],
  ] as const)('%s %s printer column names', (kind, version, names) => {
    expect(columns(kind, version).map((c) => c.split(' ')[0])).toEqual(names);
  });

  it('finds definitions by kind, plural or short name', () => {
    expect(crdDefinition('clone').kind).toBe('CloneSet');
    expect(crdDefinition('CloneSet').plural).toBe('clonesets');
    expect(crdDefinition('asts').kind).toBe('StatefulSet');
    expect(() => crdDefinition('Deployment')).toThrow(UnknownKindError);
  });
});
