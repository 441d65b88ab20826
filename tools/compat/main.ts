// `npm run compat [-- --only=<line|file|file:line|text>,…] [-- --timeout=<s>] [-- --keep] [-- --report] [-- --real-nodes]`: OpenKruise's own e2e specs
// against Regatta. Builds OpenKruise (tools/compat/build.sh) when the cache lacks it, brings up a sandbox
// (`regatta sandbox up --detach`, the controllers the spec files need), runs each spec of SPEC_FILES in its own
// process with a per-spec timeout, and writes docs/compatibility.md. Results are kept next to the build
// (results.json), so a run of a few specs (`--only`) updates their rows and keeps the others (on a machine without
// results.json, the others are read from docs/compatibility.md); `--report` only writes docs/compatibility.md
// again from them. `--real-nodes`: the sandbox runs one real node (kubelet, containerd, runc; docs/real-nodes.md) and its
// simulated nodes are cordoned, so the specs' pods run on the real node; the specs "not applicable" on simulated nodes
// run too; results go to results-real.json and the "Real nodes" column of docs/compatibility.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeClient, isAlreadyExists } from '@regatta/kube';
import { cacheDir } from '@regatta/local-cluster';
import { waitForNodeImages } from './install.js';
import { realResultsFromMarkdown, renderConsole, renderMarkdown, resultsFromMarkdown } from './render.js';
import { cordonSimulatedNodes, followProvisionedHostPaths } from './real-nodes.js';
import { outcomeOf, withKnownCause, withoutKnownCause, type SpecResult } from './results.js';
import { parseSpecs, selects, specKey, type Spec } from './specs.js';
import { featureGatesValue, KNOWN_FAILURES, NOT_APPLICABLE, SPEC_FILES } from './suites.js';
import { OPENKRUISE_VERSION } from './versions.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const usage =
  'usage: npm run compat [-- --only=<line|file|file:line|text>,…] [-- --timeout=<s>] [-- --keep] [-- --report] [-- --real-nodes]';
const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
for (const a of args) {
  if (a !== '--keep' && a !== '--report' && a !== '--real-nodes' && !/^--(only|timeout)=/.test(a)) {
    console.error(`unknown argument ${a}; ${usage}`);
    process.exit(2);
  }
}
const only = opt('only')?.split(',').filter(Boolean);
const timeout = Number(opt('timeout') ?? 600);
const keep = args.includes('--keep');
const reportOnly = args.includes('--report');
const realNodes = args.includes('--real-nodes');
/** Not applicable in this run: on real nodes every spec runs. */
const notApplicable = (spec: Spec): string | undefined =>
  realNodes ? undefined : NOT_APPLICABLE[specKey(spec)];

const t0 = Date.now();
const log = (line: string) =>
  console.log(`[compat ${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const out = join(cacheDir(), `openkruise-${OPENKRUISE_VERSION}`);
if (!existsSync(join(out, '.complete'))) {
  log(`OpenKruise ${OPENKRUISE_VERSION} is not built yet: running tools/compat/build.sh (once; slow)`);
  const b = spawnSync('bash', [join(root, 'tools/compat/build.sh')], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const binary = join(out, 'bin', 'kruise-e2e.test');

const specs: Spec[] = [];
for (const f of SPEC_FILES) {
  specs.push(...parseSpecs(await readFile(join(out, 'src', 'e2e', f.file), 'utf8'), f.file));
}
const chosen = only ? specs.filter((s) => only.some((o) => selects(o, s))) : specs;
if (chosen.length === 0) {
  console.error(`--only selected no spec; ${usage}`);
  process.exit(2);
}
const toRun = reportOnly ? [] : chosen.filter((s) => notApplicable(s) === undefined);
log(
  `${chosen.length} specs selected, ${toRun.length} to run (per-spec timeout ${timeout} s${realNodes ? ', pods on a real node' : ''})`,
);

const dir = await mkdtemp(join(tmpdir(), 'regatta-compat-'));
const regatta = join(root, 'apps/sandbox/bin/regatta.mjs');
let up = false;
const down = () => {
  if (!up) return;
  up = false;
  spawnSync(process.execPath, [regatta, 'sandbox', 'down', '--dir', dir], { stdio: 'inherit' });
};
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    void (async () => {
      down();
      await pvFolders?.stop().catch(() => undefined);
      process.exit(130);
    })();
  });

const results: SpecResult[] = [];
/** --real-nodes: the host folders of the sandbox's hostPath PVs, removed at the end (tools/compat/real-nodes.ts). */
let pvFolders: { stop(): Promise<void> } | undefined;
try {
  if (toRun.length > 0) {
    const files = SPEC_FILES.filter((f) => toRun.some((s) => s.file === f.file));
    const controllers = [...new Set(files.flatMap((f) => f.controllers))];
    // the controllers inherit the environment of `sandbox up`: the gates OpenKruise's e2e deployment has on
    const gates = featureGatesValue(files);
    log(`bringing up the sandbox in ${dir} (controllers: ${controllers.join(', ')}; feature gates ${gates})`);
    up = true;
    const s = spawnSync(
      process.execPath,
      // on simulated nodes, or (--real-nodes) on one real node with the simulated ones cordoned below
      [
        regatta,
        'sandbox',
        'up',
        '--detach',
        '--dir',
        dir,
        '--controllers',
        controllers.join(','),
        '--real-nodes',
        realNodes ? '1' : '0',
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
        env: {
          ...process.env,
          ...Object.assign({}, ...files.map((f) => f.env ?? {})),
          REGATTA_FEATURE_GATES: gates,
        },
      },
    );
    if (s.status !== 0) throw new Error(`sandbox up exited with ${s.status}`);
  }
  const endpoints = join(dir, 'endpoints.json');
  const kubeconfig = existsSync(endpoints)
    ? (JSON.parse(await readFile(endpoints, 'utf8')) as { kubeconfig: string }).kubeconfig
    : '';
  if (realNodes && kubeconfig) {
    const kube = KubeClient.fromKubeconfigFile(kubeconfig);
    const cordoned = await cordonSimulatedNodes(kube);
    await kube.close();
    pvFolders = followProvisionedHostPaths(kubeconfig);
    log(`real nodes: ${cordoned.length} simulated nodes cordoned, the specs' pods go to the real node`);
  }
  const namespaces = [
    ...new Set(
      SPEC_FILES.filter((f) => toRun.some((s) => s.file === f.file)).flatMap((f) => f.namespaces ?? []),
    ),
  ];
  if (kubeconfig && namespaces.length > 0) {
    const kube = KubeClient.fromKubeconfigFile(kubeconfig);
    for (const name of namespaces)
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).catch((err: unknown) => {
        if (!isAlreadyExists(err)) throw err;
      });
    await kube.close();
  }
  const nodes = [
    ...new Set(SPEC_FILES.filter((f) => toRun.some((s) => s.file === f.file)).flatMap((f) => f.nodes ?? [])),
  ];
  for (const name of nodes) {
    log(`adding the simulated node ${name}`);
    const n = spawnSync(process.execPath, [regatta, 'sandbox', 'node', 'add', name, '--dir', dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (n.status !== 0) throw new Error(`sandbox node add ${name} exited with ${n.status}`);
  }
  if (kubeconfig && SPEC_FILES.some((f) => f.waitForNodeImages && toRun.some((s) => s.file === f.file))) {
    log('waiting for every node to have its NodeImage');
    await waitForNodeImages(KubeClient.fromKubeconfigFile(kubeconfig), 120_000);
  }
  await mkdir(join(dir, 'specs'), { recursive: true });
  for (const [i, spec] of (reportOnly ? [] : chosen).entries()) {
    const na = notApplicable(spec);
    const prefix = `(${i + 1}/${chosen.length}) ${spec.file}:${spec.line} "${spec.text}"`;
    if (na !== undefined) {
      results.push({ spec, outcome: 'not applicable', reason: na, seconds: 0 });
      log(`${prefix}: not applicable`);
      continue;
    }
    log(`${prefix}: running`);
    const r = await runSpec(spec, kubeconfig, join(dir, 'specs', `${spec.line}`));
    results.push(r);
    log(`${prefix}: ${r.outcome} in ${r.seconds.toFixed(0)} s${r.reason ? ` — ${r.reason}` : ''}`);
  }
} finally {
  if (keep) log(`--keep: the sandbox keeps running; stop it with: node ${regatta} sandbox down --dir ${dir}`);
  else {
    down();
    // the simulated provisioner's hostPath PVs (libs/node-simulator volumes.ts) are folders the real kubelet made on
    // the host: removed once its pods are gone
    await pvFolders?.stop().catch((err: unknown) => log(`PV folders: ${String(err)}`));
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

// merge with earlier results (a partial run updates its rows), then write the document
const store = join(out, realNodes ? 'results-real.json' : 'results.json');
// a machine without results yet (a fresh cache) starts from the committed document, so that a run of a few specs
// keeps the other rows
const committed = join(root, 'docs/compatibility.md');
const fromDoc = realNodes ? realResultsFromMarkdown : resultsFromMarkdown;
const previous: SpecResult[] = existsSync(store)
  ? (JSON.parse(await readFile(store, 'utf8')) as SpecResult[])
  : existsSync(committed)
    ? fromDoc(await readFile(committed, 'utf8'), specs)
    : [];
if (!existsSync(store) && previous.length > 0)
  log(`no ${store} yet: the other specs keep the ${previous.length} results of docs/compatibility.md`);
const byKey = new Map(previous.map((r) => [specKey(r.spec), { ...r, reason: withoutKnownCause(r.reason) }]));
const at = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
const code = codeVersion();
for (const r of results) byKey.set(specKey(r.spec), { ...r, at, code, timeout });
// stored as measured; the known causes are added when the document is written
const stored = specs.flatMap((s) => {
  const r = byKey.get(specKey(s));
  return r ? [{ ...r, spec: s }] : [];
});
// rows of spec files this checkout does not list (another branch's kinds share the cache) are kept in the store,
// not shown in the document
const listed = new Set(SPEC_FILES.map((f) => f.file));
const otherFiles = previous.filter((r) => !listed.has(r.spec.file));
await writeFile(store, JSON.stringify([...stored, ...otherFiles], null, 2));
// the other column's results: from its store, else from the committed document
const otherStore = join(out, realNodes ? 'results.json' : 'results-real.json');
const otherOfDoc = existsSync(committed)
  ? (realNodes ? resultsFromMarkdown : realResultsFromMarkdown)(await readFile(committed, 'utf8'), specs)
  : [];
// (a real-node run keeps the simulated column as committed: the shared cache's results.json may hold another
// checkout's run)
const other: SpecResult[] =
  !realNodes && existsSync(otherStore)
    ? (JSON.parse(await readFile(otherStore, 'utf8')) as SpecResult[]).filter((r) => listed.has(r.spec.file))
    : otherOfDoc;
const simulated = realNodes ? other : stored;
const real = realNodes ? stored : other;
const merged = simulated.map((r) => withKnownCause(r, KNOWN_FAILURES));
const latest = simulated
  .filter((r) => r.at !== undefined)
  .sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''))
  .at(-1);
const doc = renderMarkdown(
  merged,
  {
    version: OPENKRUISE_VERSION,
    date: latest?.at ?? at,
    code: latest?.code ?? code,
    timeout: latest?.timeout ?? timeout,
    command: 'npm run compat',
  },
  SPEC_FILES,
  real,
);
await writeFile(join(root, 'docs/compatibility.md'), doc);
console.log(`\n${renderConsole(results)}\n`);
if (merged.length < specs.length)
  log(`${specs.length - merged.length} specs have no result yet (run without --only)`);
log('docs/compatibility.md written');

/** One spec in its own e2e process, focused by file and line; killed at the per-spec timeout. */
async function runSpec(spec: Spec, kubeconfig: string, base: string): Promise<SpecResult> {
  const report = `${base}.json`;
  const logFile = `${base}.log`;
  const started = Date.now();
  const p = spawn(
    binary,
    [
      `--ginkgo.focus-file=${spec.file}:${spec.line}`,
      `--ginkgo.json-report=${report}`,
      // ginkgo's own timeout first, so the report says where it was; the runner's kill is the backstop
      `--ginkgo.timeout=${timeout}s`,
      '--ginkgo.no-color',
      '--ginkgo.v',
    ],
    { cwd: dir, env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const chunks: Buffer[] = [];
  p.stdout.on('data', (c: Buffer) => chunks.push(c));
  p.stderr.on('data', (c: Buffer) => chunks.push(c));
  let killed = false;
  const timer = setTimeout(
    () => {
      killed = true;
      p.kill('SIGTERM');
      setTimeout(() => p.kill('SIGKILL'), 30_000).unref();
    },
    (timeout + 60) * 1000,
  );
  const exitCode = await new Promise<number | null>((resolve) => p.on('exit', (code) => resolve(code)));
  clearTimeout(timer);
  await writeFile(logFile, Buffer.concat(chunks));
  const parsed = existsSync(report) ? (JSON.parse(await readFile(report, 'utf8')) as unknown) : undefined;
  const seconds = (Date.now() - started) / 1000;
  const r = outcomeOf(spec, {
    report: parsed,
    exitCode,
    seconds,
    ...(killed ? { timedOutAfter: timeout } : {}),
  });
  if (r.outcome === 'failed') {
    // keep the failed spec's log where it survives the sandbox folder
    const kept = join(out, 'logs', `${spec.file.replace(/[/.]/g, '_')}_${spec.line}.log`);
    await mkdir(join(out, 'logs'), { recursive: true });
    await writeFile(kept, Buffer.concat(chunks));
  }
  return r;
}

function codeVersion(): string {
  const git = (...a: string[]) => spawnSync('git', a, { cwd: root, encoding: 'utf8' }).stdout.trim();
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  return `${git('rev-parse', '--short', 'HEAD') || 'unknown'}${dirty ? ' + local changes' : ''}`;
}
