import { describe, expect, it } from 'vitest';
import { RolloutUsageError } from './errors.js';
import type { ControllerRevision } from './history.js';
import { ROLLOUT_KINDS, type KindInfo } from './kinds.js';
import { RevisionNotFoundError, planUndo, revisionTemplate, templateMatches } from './undo.js';

const info = (kind: string): KindInfo => ROLLOUT_KINDS.find((k) => k.kind === kind)!;
const template = (image: string) => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image }] },
});
const rev = (name: string, revision: number, image: string, creationTimestamp?: null): ControllerRevision =>
  ({
    metadata: { name },
    revision,
    data: {
      spec: {
        template: {
          ...template(image),
          metadata: { labels: { app: 'web' }, ...(creationTimestamp === null ? { creationTimestamp } : {}) },
          $patch: 'replace',
        },
      },
    },
  }) as ControllerRevision;
const workload = (image: string) => ({ metadata: { name: 'web', resourceVersion: '42' }, spec: { template: template(image) } });
const revisions = [rev('web-c', 3, 'nginx:3'), rev('web-a', 1, 'nginx:1', null), rev('web-b', 2, 'nginx:2')];

describe('planUndo', () => {
  it.each([
    ['CloneSet', 0, 'nginx:3', 2, 'web-b', 'nginx:2'],
    ['StatefulSet', 1, 'nginx:3', 1, 'web-a', 'nginx:1'],
    ['DaemonSet', 3, 'nginx:1', 3, 'web-c', 'nginx:3'],
    ['UnitedDeployment', 2, 'nginx:3', 2, 'web-b', 'nginx:2'],
  ])('%s --to-revision=%i from %s → revision %i (%s, %s)', (kind, to, live, revision, name, image) => {
    const plan = planUndo(info(kind), 'web', workload(live), revisions, to);
    expect(plan).toMatchObject({ action: 'rollback', revision, revisionName: name });
    if (plan.action !== 'rollback') throw new Error('expected a rollback');
    expect(plan.patch).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'replace', path: '/spec/template', value: expect.objectContaining({ spec: template(image).spec }) },
    ]);
    expect(JSON.stringify(plan.patch)).not.toContain('$patch');
  });

  it('refuses a revision that does not exist, naming the ones that do', () => {
    expect(() => planUndo(info('CloneSet'), 'web', workload('nginx:3'), revisions, 7)).toThrow(
      new RevisionNotFoundError('CloneSet "web" has no revision 7 (revisions: 1, 2, 3)'),
    );
  });

  it('refuses when there is no previous revision', () => {
    expect(() => planUndo(info('CloneSet'), 'web', workload('nginx:1'), [rev('web-a', 1, 'nginx:1')])).toThrow(
      RevisionNotFoundError,
    );
  });

  it('skips a revision the template already matches, as kubectl does (a null creationTimestamp is no difference)', () => {
    expect(planUndo(info('StatefulSet'), 'db', workload('nginx:1'), revisions, 1)).toEqual({
      action: 'skip',
      revision: 1,
      revisionName: 'web-a',
    });
  });

  it('refuses a negative revision as a usage error', () => {
    expect(() => planUndo(info('CloneSet'), 'web', workload('nginx:3'), revisions, -1)).toThrow(RolloutUsageError);
  });

  it('reads the template out of a revision and compares it', () => {
    expect(revisionTemplate(rev('web-a', 1, 'nginx:1'))).toEqual(template('nginx:1'));
    expect(revisionTemplate({ metadata: { name: 'x' }, revision: 1 })).toBeUndefined();
    expect(templateMatches(workload('nginx:2'), rev('web-b', 2, 'nginx:2'))).toBe(true);
    expect(templateMatches(workload('nginx:2'), rev('web-a', 1, 'nginx:1'))).toBe(false);
  });
});
