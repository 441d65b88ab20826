import { describe, expect, it } from 'vitest';
import { InvalidLogLevelError } from './errors.js';
import { createLogger, resolveLogLevel } from './logger.js';

describe('log level', () => {
  it('defaults to info and reads LOG_LEVEL, case-insensitively', () => {
    expect(resolveLogLevel(undefined, {})).toBe('info');
    expect(resolveLogLevel(undefined, { LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(resolveLogLevel('warn', { LOG_LEVEL: 'debug' })).toBe('warn');
    expect(resolveLogLevel(undefined, { LOG_LEVEL: '' })).toBe('info');
  });

  it('rejects an unknown level with a coded error', () => {
    expect(() => resolveLogLevel('verbose', {})).toThrow(InvalidLogLevelError);
    try {
      resolveLogLevel('verbose', {});
    } catch (err) {
      expect((err as InvalidLogLevelError).code).toBe('REGATTA_INVALID_LOG_LEVEL');
    }
  });
});

describe('createLogger', () => {
  it('writes one JSON object per line with the logger, level label and ISO time; debug is quiet at info', () => {
    const raw: string[] = [];
    const log = createLogger({
      name: 'cloneset',
      level: 'info',
      destination: { write: (s: string) => raw.push(s) },
    });
    log.debug('hidden');
    log.child({ controller: 'cloneset' }).info({ replicas: 3 }, 'started');
    expect(raw).toHaveLength(1);
    const line = JSON.parse(raw[0] ?? '') as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'info',
      logger: 'cloneset',
      controller: 'cloneset',
      replicas: 3,
      msg: 'started',
    });
    expect(line['time']).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(line).not.toHaveProperty('trace_id');
  });

  it('a reconcile line has one key per name: the program is the logger, the object its namespace and name', () => {
    const raw: string[] = [];
    const log = createLogger({
      name: 'regatta-cloneset',
      level: 'info',
      destination: { write: (s: string) => raw.push(s) },
    });
    log
      .child({ controller: 'cloneset' })
      .child({ namespace: 'default', name: 'web', reconcileID: 'r' })
      .info('reconciled');
    expect(raw[0]?.match(/"name":/g)).toHaveLength(1);
    expect(JSON.parse(raw[0] ?? '')).toMatchObject({
      logger: 'regatta-cloneset',
      namespace: 'default',
      name: 'web',
    });
  });

  it('serializes errors under err with message and stack', () => {
    const raw: string[] = [];
    const log = createLogger({
      name: 'x',
      level: 'error',
      destination: { write: (s: string) => raw.push(s) },
    });
    log.error({ err: new Error('nope') }, 'failed');
    const line = JSON.parse(raw[0] ?? '') as { err: { message: string; stack: string } };
    expect(line.err.message).toBe('nope');
    expect(line.err.stack).toContain('Error: nope');
  });
});
