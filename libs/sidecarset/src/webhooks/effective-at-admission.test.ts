import { describe, expect, it } from 'vitest';
import type { WebhookConfigurationsNow } from '@regatta/kit';
import type { AnySidecarSet } from '../injection/types.js';
import { AdmittedSidecarSets } from './admitted-sidecarsets.js';
import { admitAndApply } from './effective-at-admission.js';

const set: AnySidecarSet = {
  metadata: { name: 'log-agent', uid: 'u1', generation: 1 },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'agent', image: 'agent:1' }] },
};

function recordingLog() {
  const lines: { level: 'warn' | 'debug'; msg: string | undefined }[] = [];
  const at =
    (level: 'warn' | 'debug') =>
    (obj: object | string, msg?: string): void => {
      lines.push({ level, msg: typeof obj === 'string' ? obj : msg });
    };
  return { lines, warn: at('warn'), debug: at('debug') };
}

function admitted(): AdmittedSidecarSets {
  return new AdmittedSidecarSets({
    client: { getOrUndefined: () => Promise.resolve(undefined) },
    cached: () => undefined,
    confirmDelaysMs: [],
  });
}

const configurations = (applyNow: () => Promise<boolean>): WebhookConfigurationsNow => ({ applyNow });
const hung = configurations(() => new Promise<boolean>(() => undefined));

describe('a SidecarSet admission applies the pod webhook entry first (docs/adr/0040-sidecarset-effective-at-admission.md)', () => {
  it.each([
    ['applied', configurations(() => Promise.resolve(true)), []],
    [
      'not the leader',
      configurations(() => Promise.resolve(false)),
      [{ level: 'debug', msg: 'pod webhook entry not applied at admission (not the leader)' }],
    ],
    [
      'the apply fails',
      configurations(() => Promise.reject(new Error('connection refused'))),
      [{ level: 'warn', msg: 'could not apply the pod webhook entry of an admitted SidecarSet' }],
    ],
    [
      'the apply hangs: allowed after the wait, not at the API server timeout',
      hung,
      [
        {
          level: 'warn',
          msg: 'pod webhook entry of an admitted SidecarSet not applied in time; allowed, the configuration keeper applies it',
        },
      ],
    ],
  ] as const)('%s', async (_, configs, logged) => {
    const log = recordingLog();
    const started = Date.now();
    await admitAndApply(admitted(), configs, log, 50)(set);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(log.lines).toEqual(logged);
  });
});
