// The runner's pure parts (spec list parsing, report reading, table rendering) are unit-tested here; the root
// vitest projects cover apps/ and libs/ only. Run: npx vitest run --config tools/compat/vitest.config.ts
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// workspace libraries from their TypeScript sources, as in the root config
const resolve = { conditions: ['@regatta/source', ...defaultServerConditions] };

export default defineConfig({
  root: import.meta.dirname,
  resolve,
  ssr: { resolve },
  test: { include: ['*.test.ts'], environment: 'node' },
});
