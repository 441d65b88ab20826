// `npm test`: the whole suite. Builds the cached control plane if missing (skipped when present),
// then lint and typecheck of every project and of the tools (bench, compat), then every vitest test: unit tests and the integration
// tests against a real control plane, NATS and Jaeger.
import { spawnSync } from 'node:child_process';

const steps = [
  ['control-plane binaries', 'bash', ['tools/controlplane/build.sh']],
  // the chart's tests (tools/deploy) run the real helm, built once into the same cache
  ['helm', 'bash', ['tools/controlplane/build.sh', 'helm']],
  ['lint and typecheck', 'npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', '--outputStyle=static']],
  ['typecheck of tools/bench', 'npx', ['tsc', '-p', 'tools/bench/tsconfig.json', '--noEmit']],
  ['typecheck of tools/compat', 'npx', ['tsc', '-p', 'tools/compat/tsconfig.json', '--noEmit']],
  ['typecheck of tools/chaos', 'npx', ['tsc', '-p', 'tools/chaos/tsconfig.json', '--noEmit']],
  ['typecheck of tools/deploy', 'npx', ['tsc', '-p', 'tools/deploy/tsconfig.json', '--noEmit']],
  ['typecheck of tools/release', 'npx', ['tsc', '-p', 'tools/release/tsconfig.json', '--noEmit']],
  ['tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]],
];

for (const [what, cmd, args] of steps) {
  process.stdout.write(`\n== ${what}: ${cmd} ${args.join(' ')}\n`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  process.stdout.write(`== ${what}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
