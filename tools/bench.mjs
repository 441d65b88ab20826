// `npm run bench [-- --quick]`: runs tools/bench/main.ts from sources. The figures and how to read them:
// docs/benchmarks.md.
import { runFromSource } from './run-from-source.mjs';

runFromSource(new URL('./bench/main.ts', import.meta.url));
