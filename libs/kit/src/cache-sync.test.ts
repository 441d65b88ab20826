import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { LogFn, Logger, ReconcileContext, Reconciler } from '@regatta/runtime';
import {
  HOLD_RETRY_MS,
  cacheSyncMetrics,
  cachesOutOfSync,
  holdWhileOutOfSync,
  type CacheSyncState,
} from './cache-sync.js';

/** A logger that keeps its lines, as `level: msg`. */
function recordingLogger(lines: string[]): Logger {
  const log =
    (level: string): LogFn =>
    (a: object | string, b?: string) => {
      lines.push(`${level}: ${typeof a === 'string' ? a : b}`);
    };
  const logger: Logger = {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: () => logger,
  };
  return logger;
}

function state(inSync: boolean, setAsideCount = 0): CacheSyncState {
  return { inSync, setAsideCount };
}

const ctx = {} as ReconcileContext;

describe('cachesOutOfSync', () => {
  it.each([
    [{}, []],
    [{ pods: true, clonesets: true }, []],
    [{ pods: false, clonesets: true }, ['pods']],
    [{ pods: false, clonesets: false, namespaces: true }, ['clonesets', 'pods']],
  ])('%j → %j', (sync, behind) => {
    const caches = new Map(Object.entries(sync).map(([n, s]) => [n, state(s)]));
    expect(cachesOutOfSync(caches)).toEqual(behind);
  });
});

describe('holdWhileOutOfSync', () => {
  it('holds every reconcile while a cache is out of sync, says so once each way, and reconciles once in sync', async () => {
    const reconciled: string[] = [];
    const inner: Reconciler = {
      reconcile: (req) => {
        reconciled.push(req.name);
        return Promise.resolve({});
      },
    };
    const pods = { inSync: false, setAsideCount: 0 };
    const lines: string[] = [];
    const gated = holdWhileOutOfSync(inner, new Map([['pods', pods]]), recordingLogger(lines));

    expect(await gated.reconcile({ name: 'a' }, ctx)).toEqual({ requeueAfterMs: HOLD_RETRY_MS });
    expect(await gated.reconcile({ name: 'b' }, ctx)).toEqual({ requeueAfterMs: HOLD_RETRY_MS });
    expect(reconciled).toEqual([]);
    pods.inSync = true;
    expect(await gated.reconcile({ name: 'a' }, ctx)).toEqual({});
    expect(reconciled).toEqual(['a']);
    expect(lines).toEqual([
      'warn: holding reconciles: these caches are not in sync with the bus (see the cache trouble logged before)',
      'info: caches in sync again; reconciling',
    ]);
  });
});

describe('cacheSyncMetrics', () => {
  it('exports each cache’s sync state and set-aside keys, and counts what is set aside by reason', async () => {
    const registry = new Registry();
    const caches = new Map([
      ['pods', state(true, 1)],
      ['clonesets', state(false)],
    ]);
    const lines: string[] = [];
    const onSetAside = cacheSyncMetrics(registry, caches, recordingLogger(lines));
    onSetAside('pods')({
      bucket: 'mirror_pods_v1_core',
      key: 'default.x',
      revision: 3,
      reason: 'envelope',
      error: new Error('not JSON'),
    });
    const text = await registry.metrics();
    expect(text).toContain('regatta_cache_in_sync{cache="pods"} 1');
    expect(text).toContain('regatta_cache_in_sync{cache="clonesets"} 0');
    expect(text).toContain('regatta_cache_entries_set_aside{cache="pods"} 1');
    expect(text).toContain('regatta_cache_entries_set_aside_total{cache="pods",reason="envelope"} 1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: a bus entry cannot be read and is set aside/);
  });
});
