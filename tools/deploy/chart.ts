// The Helm chart (deploy/helm/regatta) rendered by the real helm of the binary cache (tools/controlplane/build.sh
// helm), for the chart's tests: lint, template, golden lists of what each value set renders.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { locateHelm } from '@regatta/local-cluster';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHART_DIR = join(REPO_ROOT, 'deploy', 'helm', 'regatta');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

/** The value sets the tests render: `--set` lists over the chart's defaults. */
export const VALUE_SETS: Record<string, string[]> = {
  'all-on': ['bus.url=nats://nats.example:4222'],
  'only-cloneset': [
    'bus.url=nats://nats.example:4222',
    ...['asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
  // a production bus (docs/adr/0045): NKEY seeds and TLS with a client certificate, files from Secrets
  'only-cloneset-bus-nkeys-tls': [
    'bus.url=tls://nats.example:4222',
    ...['asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
    'bus.nkeySecret=regatta-bus-nkeys',
    'bus.tls.secret=nats-client-tls',
    'bus.tls.clientCertificate=true',
    'bus.tls.serverName=nats.nats.svc',
  ],
  'only-sidecarset': [
    'bus.url=nats://nats.example:4222',
    ...['cloneset', 'asts', 'ads', 'uniteddeployment', 'resourcedistribution', 'imagepull'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
};

/**
 * A copy of the chart that helm can load here: the CRD symlink resolved, and the NATS dependency, which is not
 * downloadable on this machine, stood in for by an empty chart of that name (it renders nothing while
 * nats.enabled=false, the default). Removed with `dispose`.
 */
export function chartCopy(): { dir: string; dispose: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'regatta-chart-'));
  const dir = join(base, 'regatta');
  cpSync(CHART_DIR, dir, { recursive: true, dereference: true });
  mkdirSync(join(dir, 'charts', 'nats'), { recursive: true });
  writeFileSync(
    join(dir, 'charts', 'nats', 'Chart.yaml'),
    'apiVersion: v2\nname: nats\nversion: 1.3.0\ndescription: stand-in for the NATS chart (tests only)\n',
  );
  return { dir, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

function helm(args: string[]): string {
  return execFileSync(locateHelm(), args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HELM_CACHE_HOME: join(tmpdir(), 'regatta-helm-cache') },
  });
}

/** `helm lint` of the chart with `--set` values; returns its output (throws with it when lint fails). */
export function lintChart(chart: string, set: string[]): string {
  return helm(['lint', chart, '--strict', ...set.flatMap((s) => ['--set', s])]);
}

/** `helm template` of the chart with `--set` values: the YAML text. */
export function templateChart(chart: string, set: string[], namespace = 'regatta-system'): string {
  return helm(['template', 'regatta', chart, '--namespace', namespace, ...set.flatMap((s) => ['--set', s])]);
}

/** The objects of rendered YAML. */
export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => !!m && typeof m.kind === 'string');
}

/** `Kind name` lines, sorted: what a golden file lists. */
export function inventory(manifests: Manifest[]): string[] {
  return manifests.map((m) => `${m.kind} ${m.metadata.name}`).sort();
}
