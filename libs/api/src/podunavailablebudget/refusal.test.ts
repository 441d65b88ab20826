import { describe, expect, it } from 'vitest';
import { isBudgetRefusal } from './refusal.js';

describe('isBudgetRefusal: a PodUnavailableBudget refusal is a wait', () => {
  const msg =
    'admission webhook "vpod.kb.io" denied the request: podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative';
  it.each([
    ['the budget webhook’s 403', { status: 403, message: msg }, true],
    ['another 403 (RBAC)', { status: 403, message: 'pods "a" is forbidden: User cannot patch' }, false],
    ['a conflict', { status: 409, message: msg }, false],
    ['not an API error', new Error(msg), false],
    ['nothing', undefined, false],
  ])('%s', (_, err, want) => expect(isBudgetRefusal(err)).toBe(want));
});
