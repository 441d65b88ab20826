import nx from '@nx/eslint-plugin';

// One scope tag per deployable controller plus the shared ones; every tag has a line here,
// because Nx leaves an unlisted tag unconstrained.
const controllerScopes = [
  'watcher',
  'cloneset',
  'asts',
  'ads',
  'sidecarset',
  'uniteddeployment',
  'resourcedistribution',
  'imagepull',
  'advancedcronjob',
  'broadcastjob',
  'containerrecreaterequest',
  'deletionprotection',
  'podunavailablebudget',
  'workloadspread',
];
// The node agent (scope imagepull: apps/imagepull-agent, libs/image-puller) hosts the recreate duty of
// libs/containerrecreaterequest, as kruise-daemon hosts both (docs/adr/0075).
const extraScopes = {
  imagepull: ['containerrecreaterequest'],
  // a subset's patch is the UnitedDeployment's strategic merge (libs/uniteddeployment pod-template-patch.ts)
  workloadspread: ['uniteddeployment'],
};

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/vite.config.*.timestamp*', '**/vitest.config.*.timestamp*'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            // the local cluster and node simulator: used by tests, benchmarks and the sandbox, never by a controller
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:testing', 'scope:shared'] },
            { sourceTag: 'scope:sandbox', onlyDependOnLibsWithTags: ['scope:sandbox', 'scope:testing', 'scope:shared'] },
            ...controllerScopes.map((s) => ({
              sourceTag: `scope:${s}`,
              onlyDependOnLibsWithTags: [`scope:${s}`, ...(extraScopes[s] ?? []).map((e) => `scope:${e}`), 'scope:shared'],
            })),
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // tests (and their harnesses under src/testing/) may start the local cluster or simulated nodes (real parts,
    // no mocks)
    files: ['**/*.test.ts', '**/src/testing/**/*.ts'],
    rules: {
      // a test that asserts what a user sees reads objects it just made; `!` states that plainly
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            ...['shared', 'testing', 'sandbox', ...controllerScopes].map((s) => ({
              sourceTag: `scope:${s}`,
              onlyDependOnLibsWithTags: [
                `scope:${s}`,
                ...(extraScopes[s] ?? []).map((e) => `scope:${e}`),
                'scope:shared',
                'scope:testing',
              ],
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.json'],
    rules: {},
    languageOptions: { parser: await import('jsonc-eslint-parser') },
  },
];
