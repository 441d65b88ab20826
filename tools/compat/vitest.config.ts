// The runner's pure parts (spec list parsing, report reading, table rendering) are unit-tested here; the root
// vitest projects cover apps/ and libs/ only. Run: npx vitest run --config tools/compat/vitest.config.ts
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: { include: ['*.test.ts'], environment: 'node' },
});
