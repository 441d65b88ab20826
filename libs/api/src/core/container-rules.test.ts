import { describe, expect, it } from 'vitest';
import { fieldPath, formatFieldError } from '@regatta/kube';
import { envVarNameErrors, validateClaimTemplateQuantities } from './container-rules.js';
import { validatePodTemplateSpecSubset } from './pod-template-validation.js';

const TEMPLATE = fieldPath('spec', 'template');
/** The formatted errors of a template whose only container gets `container`'s fields and whose spec gets `spec`'s. */
const errorsOf = (container: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
  validatePodTemplateSpecSubset({ spec: { containers: [{ name: 'c', image: 'x', ...container }], ...spec } }, TEMPLATE).map(formatFieldError);

const C = 'spec.template.spec.containers[0]';
const ENV_MSG =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit " +
  "(e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
const QTY_MSG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

describe('container rules in validatePodTemplateSpecSubset', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['env names that are valid', { env: [{ name: 'MY_VAR' }, { name: 'my.env-name' }, { name: '_x' }] }, []],
    ['an env var without name', { env: [{ name: '' }] }, [`${C}.env[0].name: Required value`]],
    ['an env name starting with a digit', { env: [{ name: '1X' }] }, [`${C}.env[0].name: Invalid value: "1X": ${ENV_MSG}`]],
    ['an env name with a space', { env: [{ name: 'A B' }] }, [`${C}.env[0].name: Invalid value: "A B": ${ENV_MSG}`]],
    ['an env name ..x', { env: [{ name: '..x' }] }, [`${C}.env[0].name: Invalid value: "..x": must not start with '..'`]],
    ['resources as written by users', { resources: { requests: { cpu: '100m', memory: 64 }, limits: { cpu: 1, memory: '1Gi' } } }, []],
    [
      'quantities that do not parse',
      { resources: { limits: { cpu: 'lots', memory: '-1Gi' } } },
      [`${C}.resources.limits[cpu]: Invalid value: "lots": ${QTY_MSG}`, `${C}.resources.limits[memory]: Invalid value: "-1Gi": must be greater than or equal to 0`],
    ],
    ['a quantity of the wrong JSON type', { resources: { requests: { cpu: [1] } } }, [`${C}.resources.requests[cpu]: Invalid value: "[1]": must be a string or a number`]],
    ['a quantity 1e308 (no exponent that large)', { resources: { requests: { memory: 1e308 } } }, [`${C}.resources.requests[memory]: Invalid value: 1e+308: ${QTY_MSG}`]],
    [
      'a request over its limit',
      { resources: { requests: { cpu: '1500m' }, limits: { cpu: '1' } } },
      [`${C}.resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1`],
    ],
    ['an unknown unprefixed resource', { resources: { limits: { gpu: '1' } } }, [`${C}.resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`]],
    ['a standard resource that is not a container resource', { resources: { limits: { pods: '1' } } }, [`${C}.resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers`]],
    [
      'an extended resource: whole, requests equal to limits',
      { resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } } },
      [`${C}.resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`],
    ],
    ['an extended resource without a limit', { resources: { requests: { 'example.com/gpu': '1' } } }, [`${C}.resources.limits: Required value: Limit must be set for non overcommitable resources`]],
    ['half an extended resource', { resources: { limits: { 'example.com/gpu': '500m' } } }, [`${C}.resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer`]],
  ])('%s', (_name, container, want) => {
    expect(errorsOf(container)).toEqual(want);
  });

  const NA = 'spec.template.spec.affinity.nodeAffinity';
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a required node selector without terms', { requiredDuringSchedulingIgnoredDuringExecution: {} }, [`${NA}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term`]],
    [
      'requirements whose operator and values disagree',
      {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'zone', operator: 'In', values: [] },
                { key: 'zone', operator: 'Exists', values: ['a'] },
                { key: 'cpus', operator: 'Gt', values: ['1', '2'] },
                { key: 'bad key!', operator: 'Near', values: ['a'] },
              ],
            },
          ],
        },
      },
      [
        `${NA}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
        `${NA}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        `${NA}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
        `${NA}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: "Near": not a valid selector operator`,
        expect.stringMatching(/matchExpressions\[3\]\.key: Invalid value: "bad key!": name part must consist of/) as unknown as string,
      ],
    ],
    [
      'a preferred term weighing 0',
      { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } }] },
      [`${NA}.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100`],
    ],
    ['a valid node affinity', { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } }, []],
  ])('node affinity: %s', (_name, nodeAffinity, want) => {
    expect(errorsOf({}, { affinity: { nodeAffinity } })).toEqual(want);
  });

  it.each<[number, string[]]>([
    [1, []],
    [2147483647, []],
    [0, ['spec.template.spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
    [2147483648, ['spec.template.spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive']],
  ])('activeDeadlineSeconds %d', (v, want) => {
    expect(errorsOf({}, { activeDeadlineSeconds: v })).toEqual(want);
  });

  it('reports a wrongly typed affinity or resources as type errors only', () => {
    expect(errorsOf({ resources: { limits: 'lots' } }, { affinity: { nodeAffinity: [] } })).toEqual([
      `${C}.resources.limits: Invalid value: "lots": must be an object`,
      'spec.template.spec.affinity.nodeAffinity: Invalid value: []: must be an object',
    ]);
  });
});

describe('validateClaimTemplateQuantities', () => {
  const P = fieldPath('spec', 'volumeClaimTemplates');
  it.each<[string, unknown, string[]]>([
    ['a valid claim', [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } }], []],
    [
      'storage "huge" and a negative limit',
      [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: 'huge' }, limits: { storage: '-1' } } } }],
      [
        `spec.volumeClaimTemplates[0].spec.resources.requests[storage]: Invalid value: "huge": ${QTY_MSG}`,
        'spec.volumeClaimTemplates[0].spec.resources.limits[storage]: Invalid value: "-1": must be greater than or equal to 0',
      ],
    ],
    ['anything that is not a list', { a: 1 }, []],
    ['members of other types', [null, 'x', { spec: { resources: { requests: [] } } }], []],
  ])('%s', (_name, claims, want) => {
    expect(validateClaimTemplateQuantities(claims, P).map(formatFieldError)).toEqual(want);
  });
});

describe('envVarNameErrors', () => {
  it.each([
    ['A', 0],
    ['a.b-c_d', 0],
    ['.', 1],
    ['..', 1],
    ['', 1],
    ['9a', 1],
    ['ä', 1],
  ])('%j has %d problem(s)', (name, n) => {
    expect(envVarNameErrors(name)).toHaveLength(n);
  });
});
