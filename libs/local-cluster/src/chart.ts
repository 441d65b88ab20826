// The Helm chart (deploy/helm/regatta) rendered by the real helm of the binary cache (tools/controlplane/build.sh
// helm): for the chart's tests (tools/deploy) and for the scenario tests, which run every program with the RBAC the
// chart gives it (program-identities.ts, docs/adr/0054).
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { locateHelm } from './binaries.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CHART_DIR = join(REPO_ROOT, 'deploy', 'helm', 'regatta');
/** Regatta's chart with the NATS chart beside it, for clusters without a NATS. */
export const BUNDLED_CHART_DIR = join(REPO_ROOT, 'deploy', 'helm', 'regatta-with-nats');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

/** A copy of the chart with its CRD symlink resolved, as `helm package` would see it. Removed with `dispose`. */
export function chartCopy(): { dir: string; dispose: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'regatta-chart-'));
  const dir = join(base, 'regatta');
  cpSync(CHART_DIR, dir, { recursive: true, dereference: true });
  return { dir, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

/**
 * A copy of the umbrella chart (deploy/helm/regatta-with-nats) with its dependencies in `charts/` as
 * `helm dependency build` leaves them: Regatta's chart, and for the NATS chart, which is not downloadable on this
 * machine, an empty chart of that name (the tests read what Regatta's chart renders inside the umbrella).
 */
export function bundledChartCopy(): { dir: string; dispose: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'regatta-bundled-chart-'));
  const dir = join(base, 'regatta-with-nats');
  cpSync(BUNDLED_CHART_DIR, dir, { recursive: true, dereference: true });
  cpSync(CHART_DIR, join(dir, 'charts', 'regatta'), { recursive: true, dereference: true });
  mkdirSync(join(dir, 'charts', 'nats'), { recursive: true });
  writeFileSync(
    join(dir, 'charts', 'nats', 'Chart.yaml'),
    'apiVersion: v2\nname: nats\nversion: 1.3.0\ndescription: stand-in for the NATS chart (tests only)\n',
  );
  return { dir, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

const helmEnv = () => ({ ...process.env, HELM_CACHE_HOME: join(tmpdir(), 'regatta-helm-cache') });

function helm(args: string[]): string {
  return execFileSync(locateHelm(), args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: helmEnv(),
  });
}

const templateArgs = (chart: string, set: string[], namespace: string) => [
  'template',
  'regatta',
  chart,
  '--namespace',
  namespace,
  ...set.flatMap((s) => ['--set', s]),
];

/** `helm lint` of the chart with `--set` values; returns its output (throws with it when lint fails). */
export function lintChart(chart: string, set: string[]): string {
  return helm(['lint', chart, '--strict', ...set.flatMap((s) => ['--set', s])]);
}

/** `helm template` of the chart with `--set` values: the YAML text. */
export function templateChart(chart: string, set: string[], namespace = 'regatta-system'): string {
  return helm(templateArgs(chart, set, namespace));
}

/** The chart's NOTES.txt as `helm install` would print it with `--set` values (a client-side dry run). */
export function chartNotes(chart: string, set: string[], namespace = 'regatta-system'): string {
  const out = helm([
    'install',
    'regatta',
    chart,
    '--dry-run=client',
    '--namespace',
    namespace,
    ...set.flatMap((s) => ['--set', s]),
  ]);
  const at = out.indexOf('NOTES:\n');
  return at < 0 ? '' : out.slice(at + 'NOTES:\n'.length);
}

/** `templateChart` without blocking the event loop (a test file's other programs keep running meanwhile). */
export async function templateChartAsync(
  chart: string,
  set: string[],
  namespace = 'regatta-system',
): Promise<string> {
  const { stdout } = await promisify(execFile)(locateHelm(), templateArgs(chart, set, namespace), {
    encoding: 'utf8',
    env: helmEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The objects of rendered YAML. */
export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => !!m && typeof m.kind === 'string');
}
