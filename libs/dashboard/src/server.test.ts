import { describe, expect, it } from 'vitest';
import { JaegerQueryError, RolloutUsageError, WorkloadNotFoundError } from '@regatta/rollout-cli';
import { RegattaError } from '@regatta/errors';
import { DashboardUsageError } from './guard.js';
import { errorAnswer } from './server.js';

describe('errorAnswer: what the page shows for a failed call', () => {
  it.each([
    [new WorkloadNotFoundError('CloneSet', 'web', 'shop'), 404, 'CloneSet "web" not found in namespace "shop"'],
    [new RolloutUsageError('UnitedDeployment has no pause switch'), 400, 'UnitedDeployment has no pause switch'],
    [new DashboardUsageError('kind and name are required'), 400, 'kind and name are required'],
    [new JaegerQueryError("cannot reach Jaeger's query API at http://x"), 502, "cannot reach Jaeger's query API"],
    [new RegattaError('REGATTA_KUBE_NETWORK', 'cannot reach the API server'), 502, 'cannot reach the API server'],
    [new Error('boom'), 500, 'boom'],
  ])('%s → %i', (e, status, message) => {
    const a = errorAnswer(e);
    expect(a.status).toBe(status);
    expect(a.body.error).toContain(message);
  });
});
