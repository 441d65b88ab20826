import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Manifest } from './chart.js';
import { movedToNamespace, rbacOf, tokenKubeconfig, withClusterNameSuffix } from './program-rbac.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const sa: Manifest = {
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name: 'regatta-cloneset', namespace: 'rel' },
};
const clusterRole: Manifest = {
  apiVersion: RBAC,
  kind: 'ClusterRole',
  metadata: { name: 'regatta-cloneset' },
  rules: [
    { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
    {
      apiGroups: [RBAC.split('/')[0]],
      resources: ['clusterroles'],
      resourceNames: ['regatta-cloneset'],
      verbs: ['get'],
    },
  ],
};
const clusterBinding: Manifest = {
  apiVersion: RBAC,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'regatta-cloneset' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'regatta-cloneset' },
  subjects: [{ kind: 'ServiceAccount', name: 'regatta-cloneset', namespace: 'rel' }],
};
const role: Manifest = {
  apiVersion: RBAC,
  kind: 'Role',
  metadata: { name: 'regatta-cloneset-lease', namespace: 'leases' },
  rules: [
    {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: ['regatta-cloneset'],
      verbs: ['get'],
    },
  ],
};
const roleBinding: Manifest = {
  apiVersion: RBAC,
  kind: 'RoleBinding',
  metadata: { name: 'regatta-cloneset-lease', namespace: 'leases' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'regatta-cloneset-lease' },
  subjects: [{ kind: 'ServiceAccount', name: 'regatta-cloneset', namespace: 'rel' }],
};
const deployment: Manifest = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'regatta-cloneset', namespace: 'rel' },
};
const all = [sa, clusterRole, clusterBinding, role, roleBinding, deployment];

describe('the chart RBAC a test applies', () => {
  it('keeps the ServiceAccounts, Roles, ClusterRoles and bindings only', () => {
    expect(rbacOf(all).map((m) => m.kind)).toEqual([
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
    ]);
  });

  it('suffixes cluster-scoped names and every reference to a renamed ClusterRole, nothing namespaced', () => {
    const out = withClusterNameSuffix(all, '-x');
    expect(out.map((m) => m.metadata.name)).toEqual([
      'regatta-cloneset',
      'regatta-cloneset-x',
      'regatta-cloneset-x',
      'regatta-cloneset-lease',
      'regatta-cloneset-lease',
      'regatta-cloneset',
    ]);
    expect((out[2]!['roleRef'] as { name: string }).name).toBe('regatta-cloneset-x');
    expect((out[4]!['roleRef'] as { name: string }).name).toBe('regatta-cloneset-lease');
    expect((out[1]!['rules'] as { resourceNames?: string[] }[]).map((r) => r.resourceNames)).toEqual([
      undefined,
      ['regatta-cloneset-x'],
    ]);
    // a Lease's resourceNames are not ClusterRoles
    expect((out[3]!['rules'] as { resourceNames?: string[] }[])[0]!.resourceNames).toEqual([
      'regatta-cloneset',
    ]);
    expect(clusterRole.metadata.name).toBe('regatta-cloneset'); // the input is not changed
    expect(withClusterNameSuffix(all, '')).toEqual(all);
  });

  it('moves the objects of one namespace into another and leaves the rest out', () => {
    const out = movedToNamespace(all, 'leases', 'cs-lease-1');
    expect(out.map((m) => `${m.kind} ${m.metadata.namespace}`)).toEqual([
      'Role cs-lease-1',
      'RoleBinding cs-lease-1',
    ]);
    expect(role.metadata.namespace).toBe('leases');
  });
});

describe('tokenKubeconfig', () => {
  const admin = `apiVersion: v1
kind: Config
clusters:
  - name: other
    cluster: { server: https://10.0.0.1:6443 }
  - name: local
    cluster: { server: https://127.0.0.1:6443, certificate-authority: /tmp/ca.crt }
users:
  - name: admin
    user: { client-certificate: /tmp/admin.crt, client-key: /tmp/admin.key }
contexts:
  - name: admin
    context: { cluster: local, user: admin }
current-context: admin
`;

  it('keeps the current context’s cluster and authenticates with the token only', () => {
    const out = parse(tokenKubeconfig(admin, 'regatta-cloneset', 'tok')) as Record<string, unknown>;
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'local',
          cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority': '/tmp/ca.crt' },
        },
      ],
      users: [{ name: 'regatta-cloneset', user: { token: 'tok' } }],
      contexts: [{ name: 'regatta-cloneset', context: { cluster: 'local', user: 'regatta-cloneset' } }],
      'current-context': 'regatta-cloneset',
    });
  });
});
