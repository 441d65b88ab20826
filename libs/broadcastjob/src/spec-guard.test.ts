import { describe, expect, it } from 'vitest';
import type { BroadcastJob } from '@regatta/api';
import { specProblem } from './spec-guard.js';

const job = (spec: Record<string, unknown>): BroadcastJob =>
  ({ metadata: { name: 'bj', namespace: 'ns' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec } }) as BroadcastJob;

describe('specProblem', () => {
  it('passes a job the webhooks would admit (defaults applied first)', () => {
    expect(specProblem(job({}))).toBeUndefined();
  });
  it.each<[string, Record<string, unknown>, string]>([
    ['restartPolicy Always', { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } }, 'spec.template.spec.restartPolicy'],
    ['a parallelism that is not a number or percentage', { parallelism: 'ten' }, 'spec.parallelism'],
    ['Never with a ttl', { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 1 } }, 'spec.completionPolicy.ttlSecondsAfterFinished'],
  ])('names the field of %s', (_n, spec, field) => {
    expect(specProblem(job(spec))).toContain(field);
  });
});
