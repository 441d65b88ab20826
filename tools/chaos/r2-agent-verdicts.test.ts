import { describe, expect, it } from 'vitest';
import { agentStatusProblem, R2_AGENT_NODES, storedActedOn, tagsIn } from './r2-agent-verdicts.js';

const tag = (t: string) => ({ tag: t, pullPolicy: { ttlSecondsAfterFinished: 60 } });

describe('R2 agent nodes', () => {
  it('are the simulator names of three nodes', () => {
    expect(R2_AGENT_NODES).toEqual(['chaos-r2-node-1', 'chaos-r2-node-2', 'chaos-r2-node-3']);
  });
});

describe('tagsIn', () => {
  it.each([
    ['no spec', undefined, 0],
    ['no images', {}, 0],
    ['two images, three tags', { images: { a: { tags: [tag('1'), tag('2')] }, b: { tags: [tag('x')] } } }, 3],
    ['images as a list (wrong type)', { images: [] }, 0],
    ['tags as a string (wrong type)', { images: { a: { tags: 'not a list' }, b: { tags: [tag('1')] } } }, 1],
    ['an image as a string', { images: { a: 'busybox:1.37' } }, 0],
    ['an image null', { images: { a: null } }, 0],
  ])('%s', (_, spec, n) => {
    expect(tagsIn(spec)).toBe(n);
  });
});

describe('agentStatusProblem (an admitted NodeImage)', () => {
  const spec = { images: { a: { tags: [tag('1'), tag('2')] } } };
  it.each([
    ['no status', { spec }, 'no status from the agent (the spec holds 2 tags)'],
    ['an empty status', { spec, status: {} }, 'no status from the agent (the spec holds 2 tags)'],
    ['desired counts the spec', { spec, status: { desired: 2, succeeded: 1 } }, undefined],
    ['desired of an older spec', { spec, status: { desired: 3 } }, 'status.desired 3, the spec holds 2 tags'],
    ['an empty spec with desired 0', { spec: {}, status: { desired: 0 } }, undefined],
  ])('%s', (_, ni, want) => {
    expect(agentStatusProblem(ni)).toBe(want);
  });
});

describe('storedActedOn (a NodeImage stored invalid)', () => {
  it.each([
    ['nothing', {}, [], undefined],
    ['an empty status', { status: {} }, [], undefined],
    ['a status', { status: { desired: 1 } }, [], 'status written ({"desired":1})'],
    ['a pull', {}, ['docker.io/library/busybox:1.37'], 'pulled docker.io/library/busybox:1.37'],
    [
      'both, many pulls',
      { status: { desired: 5 } },
      ['a', 'b', 'c', 'd', 'e'],
      'status written ({"desired":5}); pulled a, b, c and 2 more',
    ],
  ])('%s', (_, ni, pulled, want) => {
    expect(storedActedOn(ni, pulled)).toBe(want);
  });
});
