// `npm run chaos [-- --only=R4,R6,R1] [-- --rollouts=N] …`: runs tools/chaos/main.ts from sources; the programs under
// test run from their bundles. What it checks and the published figures: docs/reliability.md.
import { runFromSource } from './run-from-source.mjs';

runFromSource(new URL('./chaos/main.ts', import.meta.url));
