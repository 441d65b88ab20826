// Wrongly typed CloneSets (issue 8, defects 5, 7, 8): every one is answered with field errors naming the field,
// never with an exception; over-long names and reserved template labels are rejected.
import { describe, expect, it } from 'vitest';
import { formatFieldError } from '@regatta/kube';
import { defaultCloneSet, defaultCloneSetForAdmission } from './defaults.js';
import type { CloneSet } from './types.js';
import { validateCloneSetUpdate } from './update-validation.js';
import { CLONESET_NAME_MAX_LENGTH, validateCloneSet } from './validation.js';

type Json = Record<string, unknown>;

/** A valid raw CloneSet as plain JSON; `edit` changes it (any shape). */
function raw(edit: (cs: Json & { spec: Json; metadata: Json }) => void = () => undefined): CloneSet {
  const cs = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'cs', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'cs' } },
      template: {
        metadata: { labels: { app: 'cs' } },
        spec: { containers: [{ name: 'main', image: 'nginx', ports: [{ name: 'http', containerPort: 80 }], env: [{ name: 'A', value: 'a' }] }] },
      },
    },
  };
  edit(cs);
  return cs as unknown as CloneSet;
}
const podSpec = (cs: Json & { spec: Json }): Json => ((cs.spec['template'] as Json)['spec'] as Json);
const firstContainer = (cs: Json & { spec: Json }): Json => (podSpec(cs)['containers'] as Json[])[0] as Json;

const errorsOf = (cs: unknown): string[] => validateCloneSet(cs).map(formatFieldError);

describe('wrongly typed CloneSets: type errors with the field path, never an exception', () => {
  it.each<[string, (cs: Json & { spec: Json; metadata: Json }) => void, string[]]>([
    ['containers an object', (cs) => (podSpec(cs)['containers'] = {}), ['spec.template.spec.containers: Invalid value: {}: must be an array']],
    ['a null container', (cs) => (podSpec(cs)['containers'] = [null]), ['spec.template.spec.containers[0]: Invalid value: null: must be an object']],
    ['a null port', (cs) => (firstContainer(cs)['ports'] = [null]), ['spec.template.spec.containers[0].ports[0]: Invalid value: null: must be an object']],
    ['volumes a string', (cs) => (podSpec(cs)['volumes'] = 'abc'), ['spec.template.spec.volumes: Invalid value: "abc": must be an array']],
    ['a null env var', (cs) => (firstContainer(cs)['env'] = [null]), ['spec.template.spec.containers[0].env[0]: Invalid value: null: must be an object']],
    ['a null claim template', (cs) => (cs.spec['volumeClaimTemplates'] = [null]), ['spec.volumeClaimTemplates[0]: Invalid value: null: must be an object']],
    [
      'a port name given as a number',
      (cs) => (firstContainer(cs)['ports'] = [{ name: 8080, containerPort: 80 }]),
      ['spec.template.spec.containers[0].ports[0].name: Invalid value: 8080: must be a string'],
    ],
    [
      'a containerPort given as a string',
      (cs) => (firstContainer(cs)['ports'] = [{ containerPort: '80' }]),
      ['spec.template.spec.containers[0].ports[0].containerPort: Invalid value: "80": must be an integer'],
    ],
    ['the template a string', (cs) => (cs.spec['template'] = 'x'), ['spec.template: Invalid value: "x": must be an object']],
    ['the spec an array', (cs) => (cs['spec'] = [] as unknown as Json), ['spec: Invalid value: []: must be an object']],
    ['metadata a number', (cs) => (cs['metadata'] = 5 as unknown as Json), ['metadata: Invalid value: 5: must be an object']],
    [
      'a template label value that is a number',
      (cs) => (((cs.spec['template'] as Json)['metadata'] as Json)['labels'] = { app: 'cs', tier: 1 }),
      ['spec.template.metadata.labels[tier]: Invalid value: 1: must be a string'],
    ],
    ['a float replicas', (cs) => (cs.spec['replicas'] = 1.5), ['spec.replicas: Invalid value: 1.5: must be an integer']],
    [
      'a boolean partition',
      (cs) => (cs.spec['updateStrategy'] = { partition: true }),
      ['spec.updateStrategy.partition: Invalid value: true: must be an integer or a string'],
    ],
    [
      'a probe that is a string',
      (cs) => (firstContainer(cs)['livenessProbe'] = 'tcp'),
      ['spec.template.spec.containers[0].livenessProbe: Invalid value: "tcp": must be an object'],
    ],
    [
      'a volume source that is a string',
      (cs) => (podSpec(cs)['volumes'] = [{ name: 'v', secret: 'x' }]),
      ['spec.template.spec.volumes[0].secret: Invalid value: "x": must be an object'],
    ],
    [
      'a long object shown by its type only',
      (cs) => (podSpec(cs)['containers'] = { main: { name: 'main', image: 'nginx', command: ['sleep', 'forever and ever'] } }),
      ['spec.template.spec.containers: Invalid value: "<object>": must be an array'],
    ],
    ['an env var without a name', (cs) => (firstContainer(cs)['env'] = [{ value: 'x' }]), ['spec.template.spec.containers[0].env[0].name: Required value']],
  ])('%s', (_name, edit, want) => {
    const cs = raw(edit);
    expect(errorsOf(cs)).toEqual(want);
    // defaulting skips what is wrongly typed and leaves it to validation, which says the same
    const defaulted = defaultCloneSetForAdmission(cs);
    expect(errorsOf(defaulted)).toEqual(want);
    // and the update path reports it too
    expect(validateCloneSetUpdate(cs, raw()).map(formatFieldError)).toEqual(want);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'CloneSet'],
    ['an array', [raw()]],
  ])('a CloneSet that is %s', (_name, obj) => {
    expect(errorsOf(obj)).toEqual([expect.stringMatching(/^<object>: Invalid value: .*: must be an object$/)]);
    expect(() => defaultCloneSet(obj as CloneSet)).not.toThrow();
    expect(() => validateCloneSetUpdate(raw(), obj)).not.toThrow();
  });
});

describe('metadata.name: at most 52 characters (the revision label `<name>-<hash>` must fit 63)', () => {
  const named = (name: string): CloneSet => raw((cs) => (cs.metadata['name'] = name));
  it('accepts 52 characters and rejects 53 on CREATE', () => {
    expect(CLONESET_NAME_MAX_LENGTH).toBe(52);
    expect(errorsOf(named('a'.repeat(52)))).toEqual([]);
    const long = 'a'.repeat(53);
    expect(errorsOf(named(long))).toEqual([`metadata.name: Invalid value: "${long}": must be no more than 52 characters`]);
  });

  it('does not deny an UPDATE of an object stored with a long name (a name cannot change; finalizers must go)', () => {
    const long = named('a'.repeat(60));
    expect(validateCloneSetUpdate(long, long)).toEqual([]);
  });
});

describe('template labels the controller sets itself are forbidden', () => {
  const withLabel = (key: string, value = 'x'): CloneSet =>
    raw((cs) => (((cs.spec['template'] as Json)['metadata'] as Json)['labels'] = { app: 'cs', [key]: value }));

  it.each([
    'apps.kruise.io/specified-delete',
    'controller-revision-hash',
    'pod-template-hash',
    'apps.kruise.io/cloneset-instance-id',
    'lifecycle.apps.kruise.io/state',
  ])('%s', (key) => {
    expect(errorsOf(withLabel(key))).toEqual([
      `spec.template.metadata.labels[${key}]: Forbidden: is set by the CloneSet controller on its pods; remove it from the template`,
    ]);
    // UPDATE: an object that already had it may still be edited (the reconciler still refuses to act on it) ...
    expect(validateCloneSetUpdate(withLabel(key), withLabel(key))).toEqual([]);
    // ... but adding it, or changing its value, is denied
    expect(validateCloneSetUpdate(withLabel(key), raw())).toHaveLength(1);
    expect(validateCloneSetUpdate(withLabel(key, 'y'), withLabel(key))).toHaveLength(1);
  });

  it('accepts the other Kruise labels users set (e.g. delete protection)', () => {
    expect(errorsOf(withLabel('policy.kruise.io/delete-protection', 'Always'))).toEqual([]);
  });
});
