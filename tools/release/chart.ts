// The chart as an OCI artifact (docs/images.md "The chart as an OCI artifact"): `helm package` of deploy/helm/regatta
// (the CRDs' symlink resolved) and `helm push` to an OCI registry, from which `helm install oci://…` installs it.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** `helm package <chartDir> -d <outDir>`; returns the path of the .tgz (`<name>-<version>.tgz`). */
export function packageChart(helm: string, chartDir: string, outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  const out = execFileSync(helm, ['package', chartDir, '-d', outDir], { encoding: 'utf8' });
  const path = /saved it to: (\S+\.tgz)/.exec(out)?.[1];
  if (!path) throw new Error(`helm package printed no archive: ${out}`);
  return path;
}

/** The `helm push` arguments of a packaged chart to `oci://<registry>/<repository>`; plain HTTP for a local one. */
export function chartPushArgs(tgz: string, registry: string, repository = 'charts'): string[] {
  const local = /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(registry);
  return ['push', tgz, `oci://${registry}/${repository}`, ...(local ? ['--plain-http'] : [])];
}

/** Where `chartPushArgs` puts chart `name`: what `helm install`/`helm show` take. */
export function chartRef(registry: string, name: string, repository = 'charts'): string {
  return `oci://${join(registry, repository, name)}`;
}
