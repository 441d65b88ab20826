import { describe, expect, it } from 'vitest';
import {
  EVICTION_WEBHOOK_NAME,
  POD_STATUS_WEBHOOK_NAME,
  POD_WEBHOOK_NAME,
  guardedPodsCondition,
  pubWebhookConfigurations,
} from './webhooks.js';

type Hook = {
  name: string;
  objectSelector?: unknown;
  rules: { operations: string[]; resources: string[] }[];
  matchConditions: { expression: string }[];
};
const hooks = (guardUpdates: boolean, guarded: Map<string, Set<string>>) =>
  (
    pubWebhookConfigurations('https://x', 'CA', undefined, { guardUpdates, guarded })[0] as unknown as {
      webhooks: Hook[];
    }
  ).webhooks;

describe('the budget admission configuration (docs/adr/0080)', () => {
  it('the pod entry selects guarded pods only, DELETE (and UPDATE with the gate)', () => {
    const pod = hooks(false, new Map()).find((h) => h.name === POD_WEBHOOK_NAME)!;
    expect(pod.objectSelector).toEqual({ matchLabels: { 'pub.regatta.dev/protected': 'true' } });
    expect(pod.rules[0]!.operations).toEqual(['DELETE']);
    expect(hooks(true, new Map()).find((h) => h.name === POD_WEBHOOK_NAME)!.rules[0]!.operations).toEqual([
      'UPDATE',
      'DELETE',
    ]);
  });
  it('with the update gate, the status write that starts an in-place update is guarded too', () => {
    expect(hooks(false, new Map()).some((h) => h.name === POD_STATUS_WEBHOOK_NAME)).toBe(false);
    const st = hooks(true, new Map()).find((h) => h.name === POD_STATUS_WEBHOOK_NAME)!;
    expect(st.rules[0]!.resources).toEqual(['pods/status']);
    expect(st.objectSelector).toEqual({ matchLabels: { 'pub.regatta.dev/protected': 'true' } });
  });
  it('no eviction entry while no pod is guarded; with guarded pods, a condition naming them', () => {
    expect(hooks(false, new Map()).some((h) => h.name === EVICTION_WEBHOOK_NAME)).toBe(false);
    const ev = hooks(false, new Map([['ns', new Set(['b', 'a'])]])).find(
      (h) => h.name === EVICTION_WEBHOOK_NAME,
    )!;
    expect(ev.rules[0]!.resources).toEqual(['pods/eviction']);
    expect(ev.matchConditions[0]!.expression).toBe(
      `request.namespace + '/' + request.name in {"ns/a": true, "ns/b": true}`,
    );
  });
  it('the condition over several namespaces', () => {
    expect(
      guardedPodsCondition(
        new Map([
          ['y', new Set(['p'])],
          ['x', new Set(['q'])],
        ]),
      ).expression,
    ).toBe(`request.namespace + '/' + request.name in {"x/q": true, "y/p": true}`);
  });
});
