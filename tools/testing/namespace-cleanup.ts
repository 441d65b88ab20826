import { afterAll } from 'vitest';
import { deleteCreatedNamespaces, scenarioCluster } from '@regatta/testing';

// After each integration file (its own afterAll hooks, which stop its programs, run first): the namespaces it
// created go, with their pods, so that a whole run's pods do not fill the shared simulated nodes.
afterAll(async () => {
  await deleteCreatedNamespaces(scenarioCluster().client);
});
