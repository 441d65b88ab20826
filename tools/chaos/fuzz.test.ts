import { describe, expect, it } from 'vitest';
import {
  ADVANCED_STATEFULSET,
  CLONESET,
  depthOf,
  HUNG_MS,
  namesFieldPath,
  nested,
  setPath,
  SHAPES,
  verdictOf,
  violationOf,
  type Obj,
} from './fuzz.js';
import { allOf, fuzzSequence } from './fuzz-sequence.js';

describe('shape helpers', () => {
  it('nests and measures depth', () => {
    expect(nested(3)).toEqual({ a: { a: { a: 'x' } } });
    expect(depthOf(nested(50))).toBe(50);
    expect(depthOf('x')).toBe(0);
    expect(depthOf([[1]])).toBe(2);
  });

  it('sets a dotted path, creating objects and arrays', () => {
    const o: Obj = { spec: { replicas: 1 } };
    setPath(o, 'spec.template.spec.containers.0.name', 'c');
    setPath(o, 'spec.replicas', 5);
    expect(o).toEqual({ spec: { replicas: 5, template: { spec: { containers: [{ name: 'c' }] } } } });
  });
});

// building hundreds of hostile objects (huge annotations, deep nesting), or importing R2's whole module graph, takes
// seconds on a loaded two-core machine: these tests get more than the unit project's 5 s
const SLOW_MS = 30_000;

describe('fuzzed CloneSets', () => {
  it('is reproducible from its seed and names every object', () => {
    const a = allOf(fuzzSequence(CLONESET, 'ns', 40, 7));
    expect(JSON.stringify(a)).toBe(JSON.stringify(allOf(fuzzSequence(CLONESET, 'ns', 40, 7))));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(allOf(fuzzSequence(CLONESET, 'ns', 40, 8))));
    expect(a.map((f) => (f.object['metadata'] as { name: string }).name)).toEqual(a.map((_, i) => `fz-${i}`));
  }, SLOW_MS);

  it('covers every shape; a valid one is untouched, others name their mutations', () => {
    const xs = allOf(fuzzSequence(CLONESET, 'ns', 300, 1));
    expect(new Set(xs.map((f) => f.shape))).toEqual(new Set(SHAPES));
    for (const f of xs) {
      expect(f.object['kind']).toBe('CloneSet');
      expect((f.object['metadata'] as { namespace: string }).namespace).toBe('ns');
      if (f.shape === 'valid') expect(f.mutations).toEqual([]);
      else expect(f.mutations.length).toBeGreaterThan(0);
    }
    const valid = xs.find((f) => f.shape === 'valid')!.object as {
      spec: {
        selector: { matchLabels: Record<string, string> };
        template: { metadata: { labels: Record<string, string> } };
      };
    };
    expect(valid.spec.template.metadata.labels).toEqual(valid.spec.selector.matchLabels);
  }, SLOW_MS);

  it('objects do not share values (a mutation of one never shows in another)', () => {
    const xs = allOf(fuzzSequence(CLONESET, 'ns', 200, 3));
    const before = JSON.stringify(xs[0]);
    for (const f of xs.slice(1)) setPath(f.object, 'spec.selector', 'changed');
    expect(JSON.stringify(xs[0])).toBe(before);
  }, SLOW_MS);
});

describe('verdictOf / violationOf', () => {
  it('accepted, and hung over the webhook timeout', () => {
    expect(verdictOf({ ms: 20, accepted: true })).toEqual({ result: 'accepted' });
    const hung = verdictOf({
      ms: HUNG_MS + 1,
      accepted: false,
      status: 500,
      message: 'context deadline exceeded',
    });
    expect(hung).toEqual({ result: 'hung' });
    expect(violationOf(hung)).toBe('hung');
  });

  it('a webhook rejection must name a field', () => {
    const named = verdictOf({
      ms: 30,
      accepted: false,
      status: 422,
      message:
        'admission webhook "vcloneset.kb.io" denied the request: spec.updateStrategy.maxUnavailable: Invalid value: "120%"',
    });
    expect(named).toEqual({ result: 'rejected', by: 'webhook', fieldPath: true });
    expect(violationOf(named)).toBeUndefined();
    const bare = verdictOf({
      ms: 30,
      accepted: false,
      status: 400,
      message: 'admission webhook "vcloneset.kb.io" denied the request: invalid',
    });
    expect(bare).toEqual({ result: 'rejected', by: 'webhook', fieldPath: false });
    expect(violationOf(bare)).toBe('webhook rejection without a field path');
  });

  it("the API server's own rejections: a path from the causes or the message; none is noted, not a violation", () => {
    const v = verdictOf({
      ms: 5,
      accepted: false,
      status: 422,
      message: 'is invalid',
      causes: [{ field: 'spec.replicas' }],
    });
    expect(v).toEqual({ result: 'rejected', by: 'apiserver', fieldPath: true });
    const big = verdictOf({ ms: 5, accepted: false, status: 413, message: 'Request entity too large' });
    expect(big).toEqual({ result: 'rejected', by: 'apiserver', fieldPath: false });
    expect(violationOf(big)).toBeUndefined();
  });

  it('a webhook that could not be called, or no answer, is a failure', () => {
    const v = verdictOf({
      ms: 50,
      accepted: false,
      status: 500,
      message: 'Internal error occurred: failed calling webhook "mcloneset.kb.io": connection refused',
    });
    expect(v.result).toBe('failed');
    expect(violationOf(v)).toMatch(/^failed/);
    expect(verdictOf({ ms: 50, accepted: false, message: 'socket hang up' }).result).toBe('failed');
  });

  it('recognises field paths', () => {
    expect(namesFieldPath('metadata.annotations: Too long')).toBe(true);
    expect(namesFieldPath('spec.template.spec.containers[0].name: Invalid value')).toBe(true);
    expect(namesFieldPath('metadata: Invalid value')).toBe(true);
    expect(namesFieldPath('the request is invalid')).toBe(false);
  });
});

describe('Advanced StatefulSet', () => {
  it('is reproducible, and the mutations land where the kind keeps the field', () => {
    const a = allOf(fuzzSequence(ADVANCED_STATEFULSET, 'ns', 300, 5));
    expect(JSON.stringify(a)).toBe(JSON.stringify(allOf(fuzzSequence(ADVANCED_STATEFULSET, 'ns', 300, 5))));
    expect(
      a.every(
        (f) => f.object['kind'] === 'StatefulSet' && f.object['apiVersion'] === 'apps.kruise.io/v1beta1',
      ),
    ).toBe(true);
    const names = a.flatMap((f) => f.mutations);
    expect(names.some((n) => n.startsWith('spec.updateStrategy.rollingUpdate.'))).toBe(true);
    expect(names.some((n) => /^spec\.updateStrategy\.(maxUnavailable|partition) /.test(n))).toBe(false);
  }, SLOW_MS);
});

describe('isErrorLine', () => {
  it('reads pino levels as numbers or names', async () => {
    const { isErrorLine } = await import('./r2-requests.js');
    expect(isErrorLine('{"level":50,"msg":"x"}')).toBe(true);
    expect(isErrorLine('{"level":"error","msg":"x"}')).toBe(true);
    expect(isErrorLine('{"level":"fatal","msg":"x"}')).toBe(true);
    expect(isErrorLine('{"level":"info","msg":"x"}')).toBe(false);
    expect(isErrorLine('{"level":30}')).toBe(false);
  }, SLOW_MS);
});
