import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { defaultCloneSet } from '../cloneset/defaults.js';
import { CloneSetSchema } from '../cloneset/types.js';
import { registerSchemaFormats } from './formats.js';

describe('registerSchemaFormats', () => {
  const cs = defaultCloneSet({
    metadata: { name: 'a' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [{ name: 'c', image: 'x' }] } } },
  });
  const withCondition = (lastTransitionTime: string) => ({
    ...cs,
    status: {
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      updatedReplicas: 1,
      updatedReadyReplicas: 1,
      conditions: [{ type: 'Progressing', status: 'True', lastTransitionTime }],
    },
  });

  it('lets TypeBox check CloneSets with timestamps', () => {
    registerSchemaFormats();
    registerSchemaFormats();
    expect(Value.Check(CloneSetSchema, cs)).toBe(true);
    expect(Value.Check(CloneSetSchema, withCondition('2025-01-02T03:04:05Z'))).toBe(true);
    expect(Value.Check(CloneSetSchema, withCondition('yesterday'))).toBe(false);
    expect(Value.Check(CloneSetSchema, { ...cs, spec: { ...cs.spec, updateStrategy: { partition: true } } })).toBe(false);
  });
});
