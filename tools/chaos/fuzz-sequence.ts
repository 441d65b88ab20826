// R2's fuzzed objects, made one at a time (issue 18: 10 000 objects per kind). `fc.sample(arb, { seed, numRuns })`
// builds every object at once; a run of 10 000 hostile objects (26–53 KiB each) held them all, twice. A run's i-th
// sample is made from its own random source (fast-check jumps the seeded generator once per run, and hands each run a
// copy) and its bias (from i): so a sample of `Draws` keeps only those, a few numbers per object, and the object is made
// from its draw when it is sent, the same object `fc.sample` would have made at index i (table test:
// fuzz-sequence.test.ts), in any order and as often as asked. Pure.
import fc from 'fast-check';
import { fuzzed, setPath, type Fuzzed, type FuzzKind } from './fuzz.js';

interface Draw {
  random: fc.Random;
  bias: number | undefined;
}

/** An arbitrary that keeps what fast-check hands its generator (a copy of the run's random source, the bias). */
class Draws extends fc.Arbitrary<Draw> {
  generate(random: fc.Random, bias: number | undefined): fc.Value<Draw> {
    return new fc.Value({ random: random.clone(), bias }, undefined);
  }
  canShrinkWithoutContext(_value: unknown): _value is Draw {
    return false;
  }
  shrink(): fc.Stream<fc.Value<Draw>> {
    return fc.Stream.nil();
  }
}

/** `length` fuzzed objects of a kind from a seed; `at(i)` makes the i-th (named `<prefix>-<i>`) anew at each call. */
export interface FuzzSequence {
  readonly length: number;
  at(i: number): Fuzzed;
}

/** The objects `fc.sample(fuzzed(k, ns), { seed, numRuns: n })` gives, named `<prefix>-<i>`, made on demand. */
export function fuzzSequence(k: FuzzKind, ns: string, n: number, seed: number, prefix = 'fz'): FuzzSequence {
  const arb = fuzzed(k, ns);
  const draws = fc.sample(new Draws(), { seed, numRuns: n });
  return {
    length: n,
    at(i) {
      const d = draws[i];
      if (!d) throw new RangeError(`fuzzed object ${i} of ${n}`);
      const f = arb.generate(d.random.clone(), d.bias).value_;
      setPath(f.object, 'metadata.name', `${prefix}-${i}`);
      return f;
    },
  };
}

/** Every object of `s`, in order (a small sequence: tests, R2's 30 agent NodeImages). */
export function allOf(s: FuzzSequence): Fuzzed[] {
  return Array.from({ length: s.length }, (_, i) => s.at(i));
}
