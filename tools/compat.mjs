// `npm run compat`: runs tools/compat/main.ts from sources (no build) the way the sandbox runs programs: Node with
// the `@regatta/source` export condition and tsx as the loader. What it does: docs/compatibility.md.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./compat/main.ts', import.meta.url));
const child = spawn(
  process.execPath,
  ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), entry, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
