/**
 * Which images a rollout brings (OpenKruise `diffImagesBetweenRevisions` in
 * `pkg/controller/cloneset/cloneset_predownload_image.go` and, over several old revisions,
 * `pkg/controller/daemonset/daemonset_predownload_image.go`): every container of the new template whose image differs
 * from that container's image in an old template, or that no old template has.
 */
import type { PodTemplate } from '@regatta/revision';

interface NamedImage {
  name?: unknown;
  image?: unknown;
}

function containersOf(template: PodTemplate): NamedImage[] {
  const containers = template.spec?.['containers'];
  return Array.isArray(containers) ? (containers as NamedImage[]) : [];
}

/**
 * Container name → new image, in the new template's container order. A container counts as changed when the first
 * old template that has it holds another image; it is new when no old template has it.
 */
export function changedImages(
  oldTemplates: readonly PodTemplate[],
  newTemplate: PodTemplate,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of containersOf(newTemplate)) {
    if (typeof c.name !== 'string' || typeof c.image !== 'string') continue;
    let found = false;
    for (const old of oldTemplates) {
      const same = containersOf(old).find((o) => o.name === c.name);
      if (!same) continue;
      found = true;
      if (same.image !== c.image) out.set(c.name, c.image);
    }
    if (!found) out.set(c.name, c.image);
  }
  return out;
}
