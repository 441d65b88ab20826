import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatFieldError } from '@regatta/kube';
import { broadcastJobAdmissionDefaults, validateBroadcastJobAdmission } from './admission.js';
import { defaultBroadcastJob } from './defaults.js';
import type { BroadcastJob } from './types.js';
import { validateBroadcastJob } from './validation.js';

/** A valid BroadcastJob; `mutate` edits it before validation. */
function job(mutate?: (bj: BroadcastJob) => void): BroadcastJob {
  const bj: BroadcastJob = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name: 'bj', namespace: 'default' },
    spec: {
      template: { spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' } },
      completionPolicy: { type: 'Always' },
    },
  };
  mutate?.(bj);
  return bj;
}

const errorsOf = (bj: unknown) => validateBroadcastJob(bj).map(formatFieldError);
const fieldsOf = (bj: unknown) => validateBroadcastJob(bj).map((e) => e.field);

describe('validateBroadcastJob', () => {
  it('accepts a valid job', () => {
    expect(errorsOf(job())).toEqual([]);
  });

  it.each<[string, (bj: BroadcastJob) => void, string[]]>([
    ['Never with ttlSecondsAfterFinished', (bj) => (bj.spec.completionPolicy = { type: 'Never', ttlSecondsAfterFinished: 5 }), ['spec.completionPolicy.ttlSecondsAfterFinished']],
    ['Never with activeDeadlineSeconds', (bj) => (bj.spec.completionPolicy = { type: 'Never', activeDeadlineSeconds: 5 }), ['spec.completionPolicy.activeDeadlineSeconds']],
    ['unknown completionPolicy type', (bj) => (bj.spec.completionPolicy = { type: 'Sometimes' as never }), ['spec.completionPolicy.type']],
    ['negative activeDeadlineSeconds', (bj) => (bj.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: -1 }), ['spec.completionPolicy.activeDeadlineSeconds']],
    ['restartPolicy Always', (bj) => (bj.spec.template.spec!.restartPolicy = 'Always'), ['spec.template.spec.restartPolicy']],
    ['reserved pod label', (bj) => (bj.spec.template.metadata = { labels: { 'broadcastjob-name': 'x' } }), ['spec.template.metadata.labels']],
    ['reserved uid label', (bj) => (bj.spec.template.metadata = { labels: { 'broadcastjob-controller-uid': 'x' } }), ['spec.template.metadata.labels']],
    ['parallelism not a percentage', (bj) => (bj.spec.parallelism = 'ten'), ['spec.parallelism']],
    ['negative parallelism', (bj) => (bj.spec.parallelism = -1), ['spec.parallelism']],
    ['unknown failurePolicy type', (bj) => (bj.spec.failurePolicy = { type: 'Retry' as never }), ['spec.failurePolicy.type']],
    ['negative restartLimit', (bj) => (bj.spec.failurePolicy = { type: 'Continue', restartLimit: -2 }), ['spec.failurePolicy.restartLimit']],
    ['name with a dot', (bj) => (bj.metadata!.name = 'a.b'), ['metadata.name']],
    ['name too long', (bj) => (bj.metadata!.name = 'a'.repeat(64)), ['metadata.name']],
    ['no namespace', (bj) => delete bj.metadata!.namespace, ['metadata.namespace']],
    ['no containers', (bj) => (bj.spec.template.spec!.containers = []), ['spec.template.spec.containers']],
  ])('rejects %s with its field path', (_name, mutate, fields) => {
    expect(fieldsOf(job(mutate))).toEqual(fields);
  });

  it.each<[string, (bj: BroadcastJob) => void]>([
    ['OnFailure', (bj) => (bj.spec.template.spec!.restartPolicy = 'OnFailure')],
    ['no restartPolicy (defaulted to Never)', (bj) => delete bj.spec.template.spec!.restartPolicy],
    ['a percentage parallelism', (bj) => (bj.spec.parallelism = '30%')],
    ['Always with deadline and ttl', (bj) => (bj.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 10, ttlSecondsAfterFinished: 0 })],
    ['no completionPolicy', (bj) => delete bj.spec.completionPolicy],
    ['every failure policy', (bj) => (bj.spec.failurePolicy = { type: 'Pause', restartLimit: 3 })],
    ['an uppercase name (upstream allows it)', (bj) => (bj.metadata!.name = 'Patch-1')],
  ])('accepts %s', (_name, mutate) => {
    expect(errorsOf(job(mutate))).toEqual([]);
  });

  it('reports JSON type errors before any rule', () => {
    expect(fieldsOf({ metadata: { name: 'x', namespace: 'd' }, spec: { paused: 'yes', parallelism: 1.5 } }).sort()).toEqual([
      'spec.parallelism',
      'spec.paused',
    ]);
    expect(errorsOf(null)).toHaveLength(1);
  });
});

describe('defaultBroadcastJob', () => {
  it('sets upstream defaults and restartPolicy Never', () => {
    const out = defaultBroadcastJob<BroadcastJob>({ spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } });
    expect(out.spec.completionPolicy).toEqual({ type: 'Always' });
    expect(out.spec.parallelism).toBe(2147483647);
    expect(out.spec.failurePolicy).toEqual({ type: 'FailFast' });
    expect(out.spec.template.spec?.restartPolicy).toBe('Never');
    expect(out.spec.template.spec?.dnsPolicy).toBe('ClusterFirst');
  });

  it('keeps what is set', () => {
    const spec = { parallelism: '50%', completionPolicy: { type: 'Never' }, failurePolicy: { type: 'Pause', restartLimit: 2 }, template: { spec: { restartPolicy: 'OnFailure' } } };
    const out = defaultBroadcastJob({ spec });
    expect(out.spec).toMatchObject(spec);
  });

  it('never throws on wrong JSON types', () => {
    expect(defaultBroadcastJob({ spec: 5 })).toEqual({ spec: 5 });
    expect(defaultBroadcastJob('x')).toBe('x');
  });

  it('injects template defaults on UPDATE only when the template changed, never with TemplateNoDefaults', () => {
    const old = job();
    const same = broadcastJobAdmissionDefaults({ operation: 'UPDATE', object: job((b) => (b.spec.paused = true)), oldObject: old });
    expect(same.spec.template.spec?.dnsPolicy).toBeUndefined();
    const changed = broadcastJobAdmissionDefaults({ operation: 'UPDATE', object: job((b) => (b.spec.template.spec!.containers[0]!.image = 'x')), oldObject: old });
    expect(changed.spec.template.spec?.dnsPolicy).toBe('ClusterFirst');
    const gated = broadcastJobAdmissionDefaults({ operation: 'CREATE', object: job() }, { templateNoDefaults: true });
    expect(gated.spec.template.spec?.dnsPolicy).toBeUndefined();
  });
});

describe('the seed security-patch BroadcastJob', () => {
  const seed = parse(readFileSync(fileURLToPath(new URL('./fixtures/seed-security-patch.yaml', import.meta.url)), 'utf8')) as BroadcastJob;

  it('is admitted as written (in a namespace), parallelism 10, Always', () => {
    const obj = { ...seed, metadata: { ...seed.metadata, namespace: 'default' } };
    const defaulted = broadcastJobAdmissionDefaults({ operation: 'CREATE', object: obj });
    expect(validateBroadcastJobAdmission({ operation: 'CREATE', object: defaulted }).map(formatFieldError)).toEqual([]);
    expect(defaulted.spec.parallelism).toBe(10);
    expect(defaulted.spec.completionPolicy?.type).toBe('Always');
    expect(defaulted.spec.failurePolicy?.type).toBe('FailFast');
  });
});
