import { describe, expect, it } from 'vitest';
import { RegattaError } from './index.js';

class ExampleError extends RegattaError {}

describe('RegattaError', () => {
  it('carries a code, the subclass name and the cause', () => {
    const cause = new Error('socket closed');
    const e = new ExampleError('REGATTA_EXAMPLE', 'do this instead', { cause });
    expect(e).toBeInstanceOf(RegattaError);
    expect([e.name, e.code, e.message, e.cause]).toEqual([
      'ExampleError',
      'REGATTA_EXAMPLE',
      'do this instead',
      cause,
    ]);
  });
});
