import { describe, expect, it } from 'vitest';
import { fieldPath, formatFieldError } from '@regatta/kube';
import { isValidPortName, validatePodTemplateSpecSubset } from './pod-template-validation.js';
import type { PodSpec, PodTemplateSpec } from './pod-types.js';

const errorsOf = (spec: Partial<PodSpec>, meta: PodTemplateSpec['metadata'] = {}) =>
  validatePodTemplateSpecSubset({ metadata: meta, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } }, fieldPath('spec', 'template')).map(
    formatFieldError,
  );

describe('validatePodTemplateSpecSubset', () => {
  it('accepts a minimal template', () => {
    expect(errorsOf({})).toEqual([]);
  });

  it.each<[string, Partial<PodSpec>, string[]]>([
    [
      'duplicate names across init and regular containers',
      { initContainers: [{ name: 'c', image: 'i' }] },
      ['spec.template.spec.initContainers[0].name: Duplicate value: "c"'],
    ],
    [
      'a container name that is not a DNS label',
      { containers: [{ name: 'Main_1', image: 'x' }] },
      [expect.stringMatching(/^spec\.template\.spec\.containers\[0\]\.name: Invalid value: "Main_1": a lowercase RFC 1123 label/) as unknown as string],
    ],
    ['a container without name', { containers: [{ name: '', image: 'x' }] }, ['spec.template.spec.containers[0].name: Required value']],
    [
      'duplicate port names and a bad host port',
      { containers: [{ name: 'c', image: 'x', ports: [{ name: 'web', containerPort: 80 }, { name: 'web', containerPort: 81, hostPort: 70000 }] }] },
      [
        'spec.template.spec.containers[0].ports[1].name: Duplicate value: "web"',
        'spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'a volume with two sources and a duplicate volume',
      { volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/' } }, { name: 'v', emptyDir: {} }] },
      [
        'spec.template.spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type',
        'spec.template.spec.volumes[1].name: Duplicate value: "v"',
      ],
    ],
    ['a volume without source', { volumes: [{ name: 'v' }] }, ['spec.template.spec.volumes[0]: Required value: must specify a volume type']],
    [
      'mounts with a missing path and a repeated path',
      {
        volumes: [{ name: 'v', emptyDir: {} }],
        containers: [{ name: 'c', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/a' }, { name: 'v', mountPath: '/a' }, { name: 'v', mountPath: '' }] }],
      },
      [
        'spec.template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique',
        'spec.template.spec.containers[0].volumeMounts[2].mountPath: Required value',
      ],
    ],
    ['dnsPolicy None without dnsConfig', { dnsPolicy: 'None' }, ['spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
    [
      'an unknown restart policy',
      { restartPolicy: 'Sometimes' },
      ['spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"'],
    ],
    [
      'ephemeral containers',
      { ephemeralContainers: [{ name: 'e', image: 'x' }] },
      ['spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template'],
    ],
    [
      'a bad termination message policy',
      { containers: [{ name: 'c', image: 'x', terminationMessagePolicy: 'Log' }] },
      ['spec.template.spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "FallbackToLogsOnError", "File"'],
    ],
  ])('rejects %s', (_name, spec, want) => {
    expect(errorsOf(spec)).toEqual(want);
  });

  it('checks template labels, annotations and node selector labels', () => {
    const errs = errorsOf({ nodeSelector: { zone: 'bad value!' } }, { labels: { ok: 'fine', 'a/b/c': 'x' }, annotations: { 'Valid.Case/Key': 'x', '-bad': 'y' } });
    expect(errs.map((e) => e.split(':')[0])).toEqual(['spec.template.labels', 'spec.template.annotations', 'spec.template.spec.nodeSelector']);
  });
});

describe('isValidPortName', () => {
  it.each([
    ['http', []],
    ['web-8080', []],
    ['', ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)', 'must contain at least one letter (a-z)']],
    ['8080', ['must contain at least one letter (a-z)']],
    ['-web', ['must not begin or end with a hyphen']],
    ['we--b', ['must not contain consecutive hyphens']],
    ['Web', ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
    ['a-very-long-port-name', ['must be no more than 15 characters']],
  ])('%j', (name, want) => {
    expect(isValidPortName(name)).toEqual(want);
  });
});
