// CloneSets the CRD schema lets through and the admission rules do not (issue 8, defects 5, 7, 8): wrongly typed
// templates, names over 52 characters and template labels the controller sets itself. With the webhooks on, each is
// denied with 422 naming the field (cloneset.int.test.ts); with them off, the reconciler says InvalidSpec once per
// change, creates nothing and does not spin (cloneset-robustness.int.test.ts). With them, pod templates Kubernetes'
// ValidatePodTemplateSpec refuses (as OpenKruise's webhook runs it; found by R2 of `npm run chaos`, issue 18): a
// duplicate container name, a quantity that does not parse, a required node affinity without terms, an env name
// with a space, a claim template asking `storage: huge`.
import { type CloneSet, seed } from './scenario-harness.js';

/** cs-demo named `name`, selecting and labelling its pods `app: <name>` (no two CloneSets share pods). */
export function demo(ns: string, name: string, edit: (cs: CloneSet) => void): CloneSet {
  const cs = seed('s1-2-cs-demo.yaml');
  cs.metadata = { name, namespace: ns };
  cs.spec['selector'] = { matchLabels: { app: name } };
  (cs.spec['template'] as { metadata: { labels: Record<string, string> } }).metadata.labels = { app: name };
  edit(cs);
  return cs;
}

type Json = Record<string, unknown>;
const podSpecOf = (cs: CloneSet): Json => (cs.spec['template'] as { spec: Json }).spec;
const firstContainerOf = (cs: CloneSet): Json => (podSpecOf(cs)['containers'] as Json[])[0]!;
const templateLabelsOf = (cs: CloneSet): Json =>
  (cs.spec['template'] as { metadata: { labels: Json } }).metadata.labels;

/** Bad shapes the CRD schema lets through (the template is kept whole): name → [edit, field the error names]. */
export const BAD_SHAPES: Record<string, [(cs: CloneSet) => void, string]> = {
  'containers-object': [(cs) => (podSpecOf(cs)['containers'] = {}), 'spec.template.spec.containers'],
  'container-null': [(cs) => (podSpecOf(cs)['containers'] = [null]), 'spec.template.spec.containers[0]'],
  'port-null': [
    (cs) => (firstContainerOf(cs)['ports'] = [null]),
    'spec.template.spec.containers[0].ports[0]',
  ],
  'volumes-string': [(cs) => (podSpecOf(cs)['volumes'] = 'abc'), 'spec.template.spec.volumes'],
  'env-null': [(cs) => (firstContainerOf(cs)['env'] = [null]), 'spec.template.spec.containers[0].env[0]'],
  'port-name-number': [
    (cs) => (firstContainerOf(cs)['ports'] = [{ name: 8080, containerPort: 80 }]),
    'spec.template.spec.containers[0].ports[0].name',
  ],
  'duplicate-container': [
    (cs) => {
      const first = firstContainerOf(cs);
      podSpecOf(cs)['containers'] = [first, { ...first }];
    },
    'spec.template.spec.containers[1].name',
  ],
  'quantity-lots': [
    (cs) => (firstContainerOf(cs)['resources'] = { limits: { cpu: 'lots' } }),
    'spec.template.spec.containers[0].resources.limits[cpu]',
  ],
  'affinity-no-terms': [
    (cs) => (podSpecOf(cs)['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } }),
    'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
  ],
  'env-name-space': [
    (cs) => (firstContainerOf(cs)['env'] = [{ name: 'MY VAR', value: 'x' }]),
    'spec.template.spec.containers[0].env[0].name',
  ],
  'claim-storage-huge': [
    (cs) =>
      (cs.spec['volumeClaimTemplates'] = [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: 'huge' } } } },
      ]),
    'spec.volumeClaimTemplates[0].spec.resources.requests[storage]',
  ],
  'specified-delete': [
    (cs) => (templateLabelsOf(cs)['apps.kruise.io/specified-delete'] = 'true'),
    'spec.template.metadata.labels[apps.kruise.io/specified-delete]',
  ],
};
export const LONG_NAME = `long-${'n'.repeat(48)}`; // 53 characters
