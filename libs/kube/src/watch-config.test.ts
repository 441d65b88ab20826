import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { withUserAgent } from './watch-config.js';

const kc = new KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: true }],
  users: [{ name: 'u', token: 'secret-token' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});

describe('withUserAgent', () => {
  it("adds the program's user agent to what the kubeconfig authenticates, keeping its credentials", async () => {
    const ctx = new RequestContext('https://127.0.0.1:6443/api/v1/pods?watch=true', HttpMethod.GET);
    await withUserAgent(kc, 'regatta-watcher').applySecurityAuthentication(ctx);
    expect(ctx.getHeaders()['User-Agent']).toBe('regatta-watcher');
    expect(ctx.getHeaders()['Authorization']).toBe('Bearer secret-token');
  });

  it('answers everything else as the kubeconfig does, and leaves the kubeconfig unchanged', async () => {
    const view = withUserAgent(kc, 'regatta-watcher');
    expect(view.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    const ctx = new RequestContext('https://127.0.0.1:6443/api/v1/pods', HttpMethod.GET);
    await kc.applySecurityAuthentication(ctx);
    expect(ctx.getHeaders()['User-Agent']).toBeUndefined();
  });
});
