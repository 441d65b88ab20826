import { describe, expect, it } from 'vitest';
import { ChaosArgsError, parseArgs, R2_SINGLE_KINDS, r2AppsOf, r2KindChosen } from './args.js';
import { R2_KINDS } from './r2.js';

describe('parseArgs', () => {
  it('defaults to every check, a small R1', () => {
    const a = parseArgs([]);
    expect(a.only).toEqual(['R0', 'R5', 'R2', 'R4', 'R6', 'R7', 'R8', 'R9', 'R1', 'R3']);
    expect(a.fuzz).toBe(50);
    expect(a.r2Concurrency).toBe(1);
    expect(a.rollouts).toBe(10);
    expect(a.pods).toEqual([30, 100]);
    expect(a.r1Kinds).toEqual(['cloneset', 'asts', 'ads', 'ud', 'sidecarset']);
    expect(a.r1Parallel).toBe(1);
  });

  it.each([
    [['--r1-parallel=3', '--r1-kinds=cloneset,ud'], 3],
    [['--r1-parallel=1'], 1],
    // ads with one at a time, or R1 not run
    [['--r1-parallel=1', '--r1-kinds=ads'], 1],
    [['--r1-parallel=4', '--only=R4'], 4],
  ])('takes %j: %i at once', (argv, n) => {
    expect(parseArgs(argv).r1Parallel).toBe(n);
  });

  it.each([
    [['--r1-parallel=3']], // the default kinds hold ads
    [['--r1-kinds=ads,cloneset', '--r1-parallel=2']],
    [['--r1-parallel=2', '--only=R1', '--r1-kinds=ads']],
  ])('refuses %j: ads runs one at a time, and says so', (argv) => {
    expect(() => parseArgs(argv)).toThrow(/ads.*--r1-parallel above 1 is refused for ads/);
  });

  it('reads the options', () => {
    const a = parseArgs([
      '--only=r1,R6',
      '--rollouts=100',
      '--pods=20-40',
      '--seed=7',
      '--fault-gap=5',
      '--r6-pods=30',
      '--fuzz=10000',
      '--r2-kinds=sidecarset,ads',
      '--r1-kinds=sidecarset,ud,asts',
      '--r2-concurrency=8',
      '--keep',
    ]);
    expect(a).toMatchObject({
      only: ['R6', 'R1'],
      rollouts: 100,
      pods: [20, 40],
      seed: 7,
      gapS: [5, 5],
      r6Pods: 30,
      fuzz: 10000,
      r2Kinds: ['ads', 'sidecarset'],
      r1Kinds: ['asts', 'ud', 'sidecarset'],
      r2Concurrency: 8,
      keep: true,
    });
  });

  it('takes one kind of a program with two (R2_SINGLE_KINDS): its program runs, its other kind does not', () => {
    const a = parseArgs(['--r2-kinds=nodeimage,ads']);
    expect(a.r2Kinds).toEqual(['ads', 'nodeimage']);
    expect(r2AppsOf(a.r2Kinds)).toEqual(['ads', 'imagepull']);
    const nodeImage = { app: 'imagepull', fuzz: { kind: 'NodeImage' } };
    const job = { app: 'imagepull', fuzz: { kind: 'ImagePullJob' } };
    expect([r2KindChosen(nodeImage, a.r2Kinds), r2KindChosen(job, a.r2Kinds)]).toEqual([true, false]);
    expect([r2KindChosen(nodeImage, ['imagepull']), r2KindChosen(job, ['imagepull'])]).toEqual([true, true]);
    expect(r2AppsOf(['imagepulljob', 'nodeimage'])).toEqual(['imagepull']);
  });

  it.each(Object.entries(R2_SINGLE_KINDS))('%s names exactly one of R2_KINDS, of program %s', (name, app) => {
    expect(R2_KINDS.filter((k) => r2KindChosen(k, [name])).map((k) => k.app)).toEqual([app]);
  });

  it.each([
    ['--only=R10'],
    ['--rollouts=0'],
    ['--api-faults=2'],
    ['--pods=40-20'],
    ['--bogus'],
    ['--r2-kinds=pods'],
    ['--r2-kinds=imagepull-agent'],
    ['--r1-kinds=deployment'],
    ['--r2-concurrency=0'],
    ['--r1-parallel=0'],
    ['--r1-parallel=two'],
  ])('refuses %s', (arg) => {
    expect(() => parseArgs([arg])).toThrow(ChaosArgsError);
  });
});
