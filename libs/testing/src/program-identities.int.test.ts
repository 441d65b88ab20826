// A scenario file's programs run on their own ServiceAccounts (docs/adr/0054): the running program's KUBECONFIG
// authenticates as `system:serviceaccount:regatta-test-programs:regatta-<app>` (SelfSubjectReview, no audit log
// needed), and the chart's RBAC it runs on answers `kubectl auth can-i` as issue 16 asks: the CloneSet program
// cannot read Secrets, the watcher cannot create pods.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KubeClient } from '@regatta/kube';
import { locateBinaries, type ManagedProcess } from '@regatta/local-cluster';
import { PROGRAMS_NAMESPACE, programUser, programsRunAsAdmin } from '@regatta/local-cluster';
import { useScenarioLayer } from './scenario-layer.js';

const layer = useScenarioLayer({
  lease: 'ids',
  short: 'ids',
  scopeLabel: 'regatta-test-ids',
  controller: { app: 'cloneset' },
});

/** The KUBECONFIG a running program was started with (its environment, as the kernel holds it). */
function kubeconfigOf(p: ManagedProcess): string {
  const environ = readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0');
  return environ.find((e) => e.startsWith('KUBECONFIG='))!.slice('KUBECONFIG='.length);
}

/** Who the API server says a kubeconfig is (SelfSubjectReview). */
async function whoAmI(kubeconfig: string): Promise<string | undefined> {
  const client = KubeClient.fromKubeconfigFile(kubeconfig);
  try {
    const r = await client.request<{ status?: { userInfo?: { username?: string } } }>(
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    );
    return r.status?.userInfo?.username;
  } finally {
    await client.close();
  }
}

/** `kubectl auth can-i` (the first line of its answer: yes or no). */
function canI(args: string[], kubeconfig = layer.kubeconfig): string {
  const r = spawnSync(locateBinaries().kubectl, ['--kubeconfig', kubeconfig, 'auth', 'can-i', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return `${r.stdout}`.trim().split('\n')[0] ?? '';
}

describe.skipIf(programsRunAsAdmin())('scenario programs on their own ServiceAccounts (issue 16)', () => {
  it('the controller runs with a token of regatta-cloneset, not as admin', async () => {
    const own = kubeconfigOf(layer.controller);
    expect(own).not.toBe(layer.kubeconfig);
    expect(await whoAmI(own)).toBe(programUser('cloneset'));
    expect(await whoAmI(layer.kubeconfig)).not.toBe(programUser('cloneset'));
    // what that token may do, asked with the token itself (SelfSubjectAccessReview)
    const ns = await layer.namespace();
    expect(canI(['create', 'pods', '-n', ns], own)).toBe('yes');
    expect(canI(['get', 'secrets', '-n', ns], own)).toBe('no');
    expect(canI(['list', 'pods', '-n', ns], own)).toBe('no');
  });

  it('the chart RBAC the programs run on: the CloneSet program cannot read Secrets, the watcher cannot create pods', async () => {
    const ns = await layer.namespace();
    const leaseNs = layer.env['REGATTA_LEASE_NAMESPACE']!;
    const as = (app: string) => `--as=${programUser(app)}`;
    expect(canI(['get', 'secrets', '-n', ns, as('cloneset')])).toBe('no');
    expect(canI(['list', 'secrets', '-n', PROGRAMS_NAMESPACE, as('cloneset')])).toBe('no');
    expect(canI(['create', 'pods', '-n', ns, as('cloneset')])).toBe('yes');
    // pods are patched on the version read, never PUT (its cache holds projections, docs/adr/0060-pod-projection.md)
    expect(canI(['patch', 'pods', '-n', ns, as('cloneset')])).toBe('yes');
    expect(canI(['update', 'pods', '-n', ns, as('cloneset')])).toBe('no');
    // the SidecarSet upgrade too: its pod cache holds projections since issue 17
    expect(canI(['patch', 'pods', '-n', ns, as('sidecarset')])).toBe('yes');
    expect(canI(['update', 'pods', '-n', ns, as('sidecarset')])).toBe('no');
    // status is written by merge patch only, and the CloneSet itself is never replaced (only the verbs it writes)
    expect(canI(['patch', 'clonesets.apps.kruise.io/status', '-n', ns, as('cloneset')])).toBe('yes');
    expect(canI(['update', 'clonesets.apps.kruise.io/status', '-n', ns, as('cloneset')])).toBe('no');
    expect(canI(['update', 'clonesets.apps.kruise.io', '-n', ns, as('cloneset')])).toBe('no');
    expect(canI(['update', 'leases/regatta-cloneset', '-n', leaseNs, as('cloneset')])).toBe('yes');
    expect(canI(['update', 'leases/regatta-watcher', '-n', leaseNs, as('cloneset')])).toBe('no');
    expect(canI(['get', 'secrets/regatta-cloneset-webhook-certs', '-n', leaseNs, as('cloneset')])).toBe(
      'yes',
    );
    expect(canI(['create', 'pods', '-n', ns, as('watcher')])).toBe('no');
    expect(canI(['watch', 'pods', '-n', ns, as('watcher')])).toBe('yes');
    expect(canI(['update', 'leases/regatta-watcher', '-n', leaseNs, as('watcher')])).toBe('yes');
  });

  it('the watcher of the file runs with a token of regatta-watcher', async () => {
    const own = kubeconfigOf(layer.watcher);
    expect(await whoAmI(own)).toBe(programUser('watcher'));
    expect(canI(['create', 'pods', '-n', await layer.namespace()], own)).toBe('no');
  });
});
