// What the simulated registry knows about some well-known images, beyond what a reference says: tags that name
// the same image (one digest, so one imageID, as `nginx:alpine` and `nginx:mainline-alpine` do on Docker Hub),
// and images whose default command exits at once when run without a terminal (busybox's `sh`). Pure data and
// look-ups; every other image has a digest of its own per tag and a default command that runs until stopped.
/**
 * Groups of normalized references that are one image. The first of a group names the digest of all of them.
 * Docker Hub's official images publish such aliases (`mainline-alpine` and `alpine` of nginx, for example).
 */
export const SAME_IMAGE: readonly (readonly string[])[] = [
  ['docker.io/library/nginx:mainline-alpine', 'docker.io/library/nginx:alpine'],
];

/** Repositories whose default command (`sh` or `bash`, no terminal attached) exits at once with code 0. */
export const EXITS_WITHOUT_COMMAND: readonly string[] = [
  'docker.io/library/busybox',
  // Kubernetes' e2e image (`imageutils.BusyBox`), built FROM busybox with its `sh`
  'registry.k8s.io/e2e-test-images/busybox',
  'docker.io/library/alpine',
  'docker.io/library/ubuntu',
  'docker.io/library/debian',
];

const canonical = new Map<string, string>();
for (const group of SAME_IMAGE) for (const ref of group) canonical.set(ref, group[0] ?? ref);

/** The reference whose digest an image has: its group's first member, or the (normalized) reference itself. */
export function canonicalImage(normalized: string): string {
  return canonical.get(normalized) ?? normalized;
}

/** Whether the own command of images of this repository (`docker.io/library/busybox`) exits at once. */
export function exitsWithoutCommand(repository: string): boolean {
  return EXITS_WITHOUT_COMMAND.includes(repository);
}
