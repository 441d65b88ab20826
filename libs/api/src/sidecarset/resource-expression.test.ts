import { describe, expect, it } from 'vitest';
import { parseResourceExpression } from './resource-expression.js';

describe('parseResourceExpression (resourcesPolicy.resourcesExpr)', () => {
  it.each(['cpu', 'cpu*0.5', 'max(cpu*50%, 50m)', 'cpu * 12.5%', 'min(cpu, 2) + 100m', '(cpu + 1) / 2', '-cpu + 3', 'max(cpu, 1, 2)'])('cpu: %s is valid', (e) => {
    expect(parseResourceExpression(e, 'cpu').ok).toBe(true);
  });
  it.each(['memory - 200Mi', 'max(memory, 1Gi)', 'memory * 2'])('memory: %s is valid', (e) => {
    expect(parseResourceExpression(e, 'memory').ok).toBe(true);
  });
  it.each([
    ['', 'empty expression'],
    ['cpu +', 'unexpected end'],
    ['cpu * memory', 'unknown variable'],
    ['max(cpu', 'expected ")"'],
    ['avg(cpu)', 'unknown variable'],
    ['cpu $ 2', 'unexpected character'],
    ['cpu 2', 'unexpected "2"'],
    ['cpu * 50%%', 'unexpected character'],
  ])('cpu: %j is rejected (%s)', (e, why) => {
    const r = parseResourceExpression(e, 'cpu');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(why);
  });
  it('returns the tree', () => {
    expect(parseResourceExpression('max(cpu, 100m) * 2', 'cpu')).toEqual({
      ok: true,
      node: {
        kind: 'binary',
        op: '*',
        left: { kind: 'call', fn: 'max', args: [{ kind: 'variable', name: 'cpu' }, { kind: 'number', text: '100m' }] },
        right: { kind: 'number', text: '2' },
      },
    });
  });
});
