import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KubeConfigError } from './client.js';
import { kubectlConfigSource, loadKubectlConfig } from './kubectl-config.js';

describe('kubectlConfigSource: kubectl’s order', () => {
  it.each([
    [{ kubeconfig: '/k' }, { KUBECONFIG: '/e' }, true, 'flag'],
    [{}, { KUBECONFIG: '/e' }, true, 'env'],
    [{}, {}, true, 'home'],
    [{}, { KUBERNETES_SERVICE_HOST: '10.0.0.1' }, false, 'cluster'],
    [{}, {}, false, 'none'],
  ] as const)('%j, env %j, home file %s → %s', (o, env, home, source) => {
    expect(kubectlConfigSource(o, env, home)).toBe(source);
  });
});

/** A kubeconfig with one context per name, each on its own server. */
function kubeconfig(contexts: string[], current: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: contexts.map((c) => ({ name: c, cluster: { server: `https://${c}.example:6443` } })),
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: contexts.map((c) => ({ name: c, context: { cluster: c, user: 'u', namespace: `ns-${c}` } })),
    'current-context': current,
  });
}

describe('loadKubectlConfig', () => {
  it('--context picks a context of KUBECONFIG’s merged files, without --kubeconfig', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-config-'));
    await writeFile(join(dir, 'a'), kubeconfig(['prod'], 'prod'));
    await writeFile(join(dir, 'b'), kubeconfig(['staging'], 'staging'));
    const env = { KUBECONFIG: `${join(dir, 'a')}:${join(dir, 'b')}` };
    expect(loadKubectlConfig({}, env).getCurrentCluster()?.server).toBe('https://prod.example:6443');
    const kc = loadKubectlConfig({ context: 'staging' }, env);
    expect(kc.getCurrentCluster()?.server).toBe('https://staging.example:6443');
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('ns-staging');
  });

  it('--kubeconfig wins over KUBECONFIG; an unknown --context names the contexts there are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubectl-config-'));
    await writeFile(join(dir, 'a'), kubeconfig(['prod', 'dev'], 'prod'));
    const env = { KUBECONFIG: '/nowhere' };
    expect(loadKubectlConfig({ kubeconfig: join(dir, 'a'), context: 'dev' }, env).getCurrentContext()).toBe(
      'dev',
    );
    expect(() => loadKubectlConfig({ kubeconfig: join(dir, 'a'), context: 'qa' }, env)).toThrow(
      new KubeConfigError('context "qa" is not in the kubeconfig (contexts: prod, dev)'),
    );
  });

  it('a file that cannot be read says which one', () => {
    expect(() => loadKubectlConfig({ kubeconfig: '/no/such/kubeconfig' }, {})).toThrow(
      /cannot load the kubeconfig \(\/no\/such\/kubeconfig\): .*check the path/,
    );
  });
});
