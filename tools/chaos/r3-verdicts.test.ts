import { describe, expect, it } from 'vitest';
import { R3_PROGRAMS } from './r3-programs.js';
import {
  CONTROL,
  r3Figures,
  r3Violations,
  type OwnWrite,
  type ProgramRun,
  type UnrelatedWrite,
} from './r3-verdicts.js';

/** `n` unrelated writes of `ms` each, every one followed by its control write (a ConfigMap) of `control` ms. */
const writes = (ms: number, n = 6, control = 50): UnrelatedWrite[] =>
  Array.from({ length: n }, (_, i) => {
    const op = i < n / 2 ? ('create' as const) : ('update' as const);
    return [
      { family: i % 2 ? 'pod' : 'deployment', op, ms },
      { family: CONTROL, op, ms: control },
    ];
  }).flat();

const own = (phase: OwnWrite['phase'], admitted: boolean, ms = 20): OwnWrite[] =>
  (['create', 'update'] as const).map((op) => ({ kind: 'CloneSet', op, phase, ms, admitted }));

/** A run that passes: the same speed in every state, its kind refused while down, admitted again. */
const good = (): ProgramRun => ({
  program: 'cloneset',
  at: 1000,
  unrelated: { absent: writes(50), running: writes(55), killed: writes(48), hung: writes(60) },
  own: [...own('running', true), ...own('killed', false, 5), ...own('hung', false, 10_000)],
  admittedAgainMs: { killed: 3000, hung: 400 },
  exitedAfterResume: true,
  admittedAfterExitMs: 2500,
});

describe('R3 verdicts', () => {
  it('passes a program whose state changes nothing for others and whose kind fails safe', () => {
    expect(r3Violations(good())).toEqual([]);
  });

  it.each([
    [
      'an unrelated write refused',
      (r: ProgramRun) => (r.unrelated.killed[0]!.error = 'failed calling webhook'),
      'refused with the program killed',
    ],
    [
      'an unrelated write paying a timeout',
      (r: ProgramRun) => (r.unrelated.hung[2]!.ms = 10_050),
      'took over 5 s with the program hung',
    ],
    [
      'unrelated writes slowed down',
      (r: ProgramRun) => (r.unrelated.running = writes(400)),
      'slowed down with the program running',
    ],
    [
      'its kind admitted while killed',
      (r: ProgramRun) => (r.own[2]!.admitted = true),
      'CloneSet create was admitted with the program killed',
    ],
    [
      'its kind admitted while hung',
      (r: ProgramRun) => (r.own[5]!.admitted = true),
      'CloneSet update was admitted with the program hung',
    ],
    [
      'a valid object refused while running',
      (r: ProgramRun) => (r.own[0]!.admitted = false),
      'refused with the program running',
    ],
    [
      'not admitted again after a restart',
      (r: ProgramRun) => (r.admittedAgainMs.killed = undefined),
      'not admitted again after it was restarted',
    ],
    [
      'not admitted again after SIGCONT',
      (r: ProgramRun) => (r.admittedAgainMs.hung = undefined),
      'not admitted again after it was resumed',
    ],
    [
      'not admitted again after its exit',
      (r: ProgramRun) => (r.admittedAfterExitMs = undefined),
      'after its exit on SIGCONT and its restart',
    ],
  ])('reports %s', (_, spoil, detail) => {
    const run = good();
    spoil(run);
    const v = r3Violations(run);
    expect(v).toHaveLength(1);
    expect(v[0]!.detail).toContain(detail);
    expect(v[0]!.detail).toMatch(/^cloneset: /);
    expect(v[0]!.at).toBe(1000);
  });

  it('tolerates a loaded machine: a state whose control writes slowed down as much is no slowdown', () => {
    const run = good();
    run.unrelated.absent = writes(20, 6, 20);
    run.unrelated.hung = writes(200, 6, 200); // 10× slower, and so were the ConfigMaps beside them
    expect(r3Violations(run)).toEqual([]);
  });

  it('flags a slowdown only the unrelated writes see, however few milliseconds (no fixed margin)', () => {
    const run = good();
    run.unrelated.absent = writes(10, 6, 10);
    run.unrelated.hung = writes(31, 6, 10); // 3.1× with the controls where they were: 21 ms more
    const v = r3Violations(run);
    expect(v).toHaveLength(1);
    expect(v[0]!.detail).toContain('slowed down with the program hung');
    expect(v[0]!.detail).toContain('3.10× once divided by their control writes');
  });

  it('prints p50 / p99 by operation, the ratio to the baseline, refusals and the time to admit again', () => {
    const f = Object.fromEntries(r3Figures(good(), ['CloneSet']));
    expect(f['unrelated writes (6 per state), program absent']).toBe(
      'create 50.0 / 50.0 ms, update 50.0 / 50.0 ms',
    );
    expect(f['… hung (SIGSTOP)']).toBe(
      'create 60.0 / 60.0 ms, update 60.0 / 60.0 ms (p50 1.20× absent, 1.20× over controls)',
    );
    expect(f['control writes (ConfigMaps) p50: absent / running / killed / hung']).toBe('50.0 / 50.0 / 50.0 / 50.0 ms');
    expect(f['CloneSet writes, killed']).toBe('refused 2/2 (slowest answer 0.0 s)');
    expect(f['… hung']).toBe('refused 2/2 (slowest answer 10.0 s)');
    expect(f['admitted again after restart / SIGCONT / exit after SIGCONT']).toBe('3.0 s / 0.4 s / 2.5 s');
    const noExit = Object.fromEntries(
      r3Figures({ ...good(), exitedAfterResume: false, admittedAfterExitMs: undefined }, ['CloneSet']),
    );
    expect(noExit['admitted again after restart / SIGCONT / exit after SIGCONT']).toBe(
      '3.0 s / 0.4 s / no exit',
    );
    expect(r3Violations({ ...good(), exitedAfterResume: false, admittedAfterExitMs: undefined })).toEqual([]);
  });
});

describe('R3 programs', () => {
  it('covers every program with kind webhooks but the SidecarSet one (r3.ts), each kind once', () => {
    expect(R3_PROGRAMS.map((p) => p.app)).toEqual([
      'cloneset',
      'asts',
      'ads',
      'uniteddeployment',
      'resourcedistribution',
      'imagepull',
    ]);
    const kinds = R3_PROGRAMS.flatMap((p) => p.kinds.map((k) => k.kind));
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('writes another program’s kind, never its own, and names objects as asked', () => {
    for (const p of R3_PROGRAMS) {
      expect(p.kinds.map((k) => k.kind)).not.toContain(p.other.kind);
      for (const k of [...p.kinds, p.other]) {
        const o = k.make('ns-a', 'obj-1');
        expect(o.metadata?.name).toBe('obj-1');
        expect(o.metadata?.namespace).toBe(k.clusterScoped ? undefined : 'ns-a');
        expect(o.kind).toBe(k.kind);
      }
    }
  });
});
