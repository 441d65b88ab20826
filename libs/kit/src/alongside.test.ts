import { describe, expect, it } from 'vitest';
import { busAuthCallout, withAlongside, type Alongside } from './alongside.js';

const ctx = { program: 'regatta-test', env: {} };

function part(name: string, seen: string[], on = true): Alongside {
  return {
    start: async () => {
      seen.push(`start ${name}`);
      return on ? { stop: async () => void seen.push(`stop ${name}`) } : undefined;
    },
  };
}

describe('withAlongside', () => {
  it('starts the parts in order before the program, stops those started after it, last first', async () => {
    const seen: string[] = [];
    await withAlongside([part('a', seen), part('off', seen, false), part('b', seen)], ctx, async () => {
      seen.push('run');
    });
    expect(seen).toEqual(['start a', 'start off', 'start b', 'run', 'stop b', 'stop a']);
  });

  it('stops them when the program fails, and passes the failure on', async () => {
    const seen: string[] = [];
    await expect(
      withAlongside([part('a', seen)], ctx, () => Promise.reject(new Error('program failed'))),
    ).rejects.toThrow('program failed');
    expect(seen).toEqual(['start a', 'stop a']);
  });
});

describe('busAuthCallout', () => {
  it('is off without an issuer seed (REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE unset)', async () => {
    const callout = busAuthCallout({ bucket: 'b', registration: (node) => node });
    expect(await callout.start(ctx)).toBeUndefined();
  });
});
