#!/usr/bin/env node
// The `regatta` command. It runs the CLI's TypeScript sources under tsx, resolving workspace
// libraries to their sources through the `@regatta/source` export condition.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const child = spawn(
  process.execPath,
  ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), main, ...process.argv.slice(2)],
  // `kubectl-regatta` (the kubectl plugin) names itself `kubectl regatta` in help and messages
  { stdio: 'inherit', env: { ...process.env, REGATTA_INVOKED_AS: basename(process.argv[1] ?? '', '.mjs') } },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
