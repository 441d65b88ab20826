import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { CrdSchemaError } from '../errors.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { StringMap } from '../schemas/scalars.js';
import type { JsonSchemaProps } from './definition.js';
import { structuralSchemaViolations, toStructuralSchema } from './structural.js';

describe('toStructuralSchema', () => {
  it('writes maps as additionalProperties, int-or-string without a type, keys sorted', () => {
    const out = toStructuralSchema(
      Type.Object({ spec: Type.Object({ labels: Type.Optional(StringMap()), partition: IntOrString(), name: Type.String() }) }),
    );
    expect(out).toEqual({
      type: 'object',
      required: ['spec'],
      properties: {
        spec: {
          type: 'object',
          required: ['name', 'partition'],
          properties: {
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            name: { type: 'string' },
            partition: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          },
        },
      },
    });
    expect(Object.keys(out)).toEqual(['properties', 'required', 'type']);
  });

  it('drops the empty properties of an object kept whole', () => {
    expect(toStructuralSchema(Type.Object({ t: Type.Object({}, { 'x-kubernetes-preserve-unknown-fields': true }) }))).toEqual({
      type: 'object',
      required: ['t'],
      properties: { t: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    });
  });

  it.each([
    ['a literal (const)', Type.Object({ a: Type.Literal('x') }), /keyword "const"/],
    ['a union of objects', Type.Object({ a: Type.Union([Type.Object({ x: Type.String() }), Type.String()]) }), /must have a type/],
    ['a regex-keyed record', Type.Object({ a: Type.Record(Type.TemplateLiteral('x-${string}'), Type.String()) }), /only maps with any string key/],
    ['a tuple', Type.Object({ a: Type.Tuple([Type.String(), Type.Number()]) }), /tuple|keyword/],
  ])('refuses %s', (_name, schema, message) => {
    expect(() => toStructuralSchema(schema)).toThrow(CrdSchemaError);
    expect(() => toStructuralSchema(schema)).toThrow(message);
  });
});

describe('structuralSchemaViolations', () => {
  const root = (props: Record<string, JsonSchemaProps>): JsonSchemaProps => ({ type: 'object', properties: props });

  it.each<[string, JsonSchemaProps, string]>([
    ['a node without type', root({ a: { properties: {} } }), '/properties/a: must have a type'],
    ['properties next to additionalProperties', root({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } }), 'mutually exclusive'],
    ['a typed int-or-string', root({ a: { type: 'string', 'x-kubernetes-int-or-string': true } }), 'must not have a type with x-kubernetes-int-or-string'],
    ['a type inside anyOf', root({ a: { type: 'string', anyOf: [{ type: 'string' }] } }), 'not allowed inside anyOf'],
    ['a $ref', root({ a: { $ref: '#/definitions/x' } }), 'keyword "$ref" is not allowed'],
    ['an array without items', root({ a: { type: 'array' } }), 'an array must have items'],
    ['a required property that does not exist', { type: 'object', properties: {}, required: ['x'] }, 'required property "x"'],
    ['metadata with properties at the root', root({ metadata: { type: 'object', properties: { name: { type: 'string' } } } }), 'metadata may only be'],
    ['a root that is not an object', { type: 'string' }, 'the root must be of type object'],
    ['an embedded resource that is not an object', root({ a: { type: 'string', 'x-kubernetes-embedded-resource': true } }), 'embedded resource must be of type object'],
    ['an unknown type', root({ a: { type: 'date' } }), 'type "date" is not one of'],
  ])('finds %s', (_name, schema, message) => {
    expect(structuralSchemaViolations(schema).join('\n')).toContain(message);
  });

  it.each<[string, JsonSchemaProps]>([
    ['a preserve-unknown node without type', root({ a: { 'x-kubernetes-preserve-unknown-fields': true } })],
    ['an int-or-string without anyOf', root({ a: { 'x-kubernetes-int-or-string': true } })],
    ['an embedded resource kept whole', root({ a: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } })],
    ['value validations in anyOf', root({ a: { type: 'string', anyOf: [{ pattern: '^a' }, { maxLength: 3 }] } })],
  ])('accepts %s', (_name, schema) => {
    expect(structuralSchemaViolations(schema)).toEqual([]);
  });
});
