import { describe, expect, it } from 'vitest';
import { type FieldError, aggregateFieldErrors, fieldErrors, fieldPath, formatFieldError } from './field-errors.js';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from './names.js';

describe('field errors', () => {
  it('builds paths', () => {
    expect(fieldPath('spec', 'template').child('spec', 'containers').index(2).child('image').toString()).toBe(
      'spec.template.spec.containers[2].image',
    );
    expect(fieldPath('metadata', 'labels').key('app').toString()).toBe('metadata.labels[app]');
    expect(fieldPath().child('spec').toString()).toBe('spec');
  });

  const formats: [FieldError, string][] = [
    [fieldErrors.required('spec.selector'), 'spec.selector: Required value'],
    [fieldErrors.required('spec.selector', 'must be set'), 'spec.selector: Required value: must be set'],
    [fieldErrors.invalid('spec.replicas', -1, 'must be greater than or equal to 0'), 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    [fieldErrors.invalid('spec.partition', '5', 'bad'), 'spec.partition: Invalid value: "5": bad'],
    [fieldErrors.invalid('spec.x', { a: 1 }, 'bad'), 'spec.x: Invalid value: {"a":1}: bad'],
    [fieldErrors.forbidden('spec.maxSurge', 'can not use maxSurge with strategy type InPlaceOnly'), 'spec.maxSurge: Forbidden: can not use maxSurge with strategy type InPlaceOnly'],
    [fieldErrors.notSupported('spec.type', 'X', ['A', 'B']), 'spec.type: Unsupported value: "X": supported values: "A", "B"'],
    [fieldErrors.duplicate('spec.names[1]', 'n'), 'spec.names[1]: Duplicate value: "n"'],
  ];
  it.each(formats)('%j', (e, expected) => {
    expect(formatFieldError(e)).toBe(expected);
  });

  it('aggregates like apimachinery', () => {
    const a = fieldErrors.required('a');
    const b = fieldErrors.required('b');
    expect(aggregateFieldErrors([a])).toBe('a: Required value');
    expect(aggregateFieldErrors([a, b, a])).toBe('[a: Required value, b: Required value]');
  });
});

describe('name syntax', () => {
  const qualified: [string, boolean][] = [
    ['app', true],
    ['apps.kruise.io/specified-delete', true],
    ['a/b/c', false],
    ['/a', false],
    ['a/', false],
    ['-a', false],
    ['a'.repeat(63), true],
    ['a'.repeat(64), false],
    ['Example.com/a', false],
    ['A_b.c-D', true],
  ];
  it.each(qualified)('isQualifiedName(%j) valid=%s', (v, ok) => {
    expect(isQualifiedName(v).length === 0).toBe(ok);
  });

  const values: [string, boolean][] = [
    ['', true],
    ['v1', true],
    ['a-b_c.d', true],
    ['-a', false],
    ['a b', false],
    ['a'.repeat(64), false],
  ];
  it.each(values)('isValidLabelValue(%j) valid=%s', (v, ok) => {
    expect(isValidLabelValue(v).length === 0).toBe(ok);
  });

  it('checks DNS names', () => {
    expect(isDns1123Subdomain('web.example-1')).toEqual([]);
    expect(isDns1123Subdomain('Web')).toHaveLength(1);
    expect(isDns1123Label('kube-system')).toEqual([]);
    expect(isDns1123Label('a.b')).toHaveLength(1);
  });
});
