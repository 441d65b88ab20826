/**
 * The OpenKruise e2e spec files `npm run compat` runs: one line per file, each with the Regatta controllers the
 * sandbox must run for it. As a controller lands, add its files (v1beta1/statefulset.go, daemonset.go,
 * sidecarset*.go, containerlaunchpriority.go, uniteddeployment.go, resourcedistribution.go, pullimages.go).
 * Paths are relative to upstream's `test/e2e/`.
 */
export interface SpecFile {
  /** The kind the file tests (a section of docs/compatibility.md). */
  kind: string;
  file: string;
  /** Regatta controllers (sandbox `--controllers` names) the specs need. */
  controllers: string[];
}

export const SPEC_FILES: readonly SpecFile[] = [
  { kind: 'CloneSet', file: 'apps/v1alpha1/cloneset.go', controllers: ['cloneset'] },
];

/**
 * Specs that cannot run against simulated nodes, keyed `<file>:<spec text>`, with the reason shown in
 * docs/compatibility.md. Nothing here may hide a Regatta defect: a spec that fails because Regatta behaves
 * differently is a failure to fix, not an entry here.
 */
export const NOT_APPLICABLE: Readonly<Record<string, string>> = {};

/**
 * Why a spec is known to fail today (an issue or the analysis of its failure), keyed like NOT_APPLICABLE; shown
 * next to the failure in docs/compatibility.md. Remove the line when the spec passes.
 */
export const KNOWN_FAILURES: Readonly<Record<string, string>> = {
  'apps/v1alpha1/cloneset.go:pre-download for new image':
    'Regatta creates no ImagePullJob yet: the pre-download seam (libs/cloneset/src/image-predownload.ts) waits for the image pre-warming issue',
};
