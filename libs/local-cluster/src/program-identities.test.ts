import { describe, expect, it } from 'vitest';
import { leaseNamespaceOf, programUser, programsRunAsAdmin } from './program-identities.js';

describe('program identities', () => {
  it.each([
    [{ REGATTA_LEASE_NAMESPACE: 'cs-lease-1', POD_NAMESPACE: 'p' }, 'cs-lease-1'],
    [{ POD_NAMESPACE: 'p' }, 'p'],
    [{}, 'kube-system'],
  ])('the Lease namespace of %j is %s, as the program reads it', (env, ns) => {
    expect(leaseNamespaceOf(env)).toBe(ns);
  });

  it.each([
    [{}, false],
    [{ REGATTA_TEST_PROGRAMS_ADMIN: '1' }, true],
    [{ REGATTA_TEST_PROGRAMS_ADMIN: 'true' }, true],
    [{ REGATTA_TEST_PROGRAMS_ADMIN: '0' }, false],
  ])('REGATTA_TEST_PROGRAMS_ADMIN in %j: admin %s', (env, admin) => {
    expect(programsRunAsAdmin(env)).toBe(admin);
  });

  it('a program of an app is the chart ServiceAccount regatta-<app> of the programs namespace', () => {
    expect(programUser('imagepull-agent')).toBe(
      'system:serviceaccount:regatta-test-programs:regatta-imagepull-agent',
    );
  });
});
