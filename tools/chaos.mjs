// `npm run chaos [-- --only=R4,R6,R1] [-- --rollouts=N] …`: runs tools/chaos/main.ts from sources the way the sandbox
// runs programs (Node with the `@regatta/source` export condition, tsx as the loader); the programs under test run
// from their bundles. What it checks and the published figures: docs/reliability.md.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./chaos/main.ts', import.meta.url));
const child = spawn(
  process.execPath,
  ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), entry, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
// Ctrl-C reaches both processes (same process group); the suite stops its cluster and exits.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
