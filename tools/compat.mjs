// `npm run compat`: runs tools/compat/main.ts from sources. What it does: docs/compatibility.md.
import { runFromSource } from './run-from-source.mjs';

runFromSource(new URL('./compat/main.ts', import.meta.url));
