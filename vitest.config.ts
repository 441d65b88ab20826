import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Libraries are consumed from their TypeScript sources through the `@regatta/source` export
// condition, so tests never need a build first.
const resolve = { conditions: ['@regatta/source', ...defaultServerConditions] };
// vitest loads global setup files through its own `__vitest__` Vite environment
const environments = { __vitest__: { resolve } };

export default defineConfig({
  resolve,
  ssr: { resolve },
  test: {
    reporters: ['default', './tools/testing/summary-reporter.ts'],
    projects: [
      {
        resolve,
        ssr: { resolve },
        test: {
          name: 'unit',
          include: ['{apps,libs}/*/src/**/*.test.ts', 'tools/{bench,chaos,compat,deploy,release}/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        resolve,
        ssr: { resolve },
        environments,
        test: {
          name: 'integration',
          include: ['{apps,libs}/*/src/**/*.int.test.ts', 'tools/deploy/*.int.test.ts'],
          environment: 'node',
          // one real control plane, NATS and Jaeger for the whole run; every test uses its own namespace
          globalSetup: ['./tools/testing/global-setup.ts'],
          // each file's namespaces are deleted after it
          setupFiles: ['./tools/testing/namespace-cleanup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // the machine has two cores: scenario files run two at a time at most
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
    ],
  },
});
