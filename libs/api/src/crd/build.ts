import type { CrdDefinition, CustomResourceDefinition } from './definition.js';
import { toStructuralSchema } from './structural.js';

/** The CustomResourceDefinition object for a kind (apiextensions.k8s.io/v1, structural schema). */
export function buildCrd(def: CrdDefinition): CustomResourceDefinition {
  const names: CustomResourceDefinition['spec']['names'] = {
    kind: def.kind,
    listKind: def.listKind,
    plural: def.plural,
    singular: def.singular,
  };
  if (def.shortNames && def.shortNames.length > 0) names.shortNames = [...def.shortNames];
  if (def.categories && def.categories.length > 0) names.categories = [...def.categories];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${def.plural}.${def.group}` },
    spec: {
      group: def.group,
      names,
      scope: def.scope,
      versions: def.versions.map((v) => {
        const out: CustomResourceDefinition['spec']['versions'][number] = {
          name: v.name,
          served: v.served,
          storage: v.storage,
          schema: { openAPIV3Schema: toStructuralSchema(v.schema) },
        };
        if (v.deprecated) out.deprecated = true;
        if (v.printerColumns.length > 0) out.additionalPrinterColumns = v.printerColumns.map((c) => ({ ...c }));
        const sub: NonNullable<typeof out.subresources> = {};
        if (v.subresources.status) sub.status = {};
        if (v.subresources.scale) sub.scale = { ...v.subresources.scale };
        if (Object.keys(sub).length > 0) out.subresources = sub;
        return out;
      }),
    },
  };
}

/** `<group>_<plural>.yaml`, the file name controller-gen uses (e.g. `apps.kruise.io_clonesets.yaml`). */
export function crdFileName(crd: Pick<CustomResourceDefinition, 'spec'>): string {
  return `${crd.spec.group}_${crd.spec.names.plural}.yaml`;
}
