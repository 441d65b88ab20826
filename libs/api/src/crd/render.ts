import { stringify } from 'yaml';
import type { CustomResourceDefinition } from './definition.js';

/** The first lines of every generated file. */
export const CRD_FILE_HEADER =
  '# Generated from libs/api (@regatta/api) by tools/crds/generate.ts. Do not edit: change the schema and run `npm run crds`.\n';

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
  return out;
}

/** One CRD as a YAML document (keys sorted, no line folding) with the generated-file header. */
export function renderCrdYaml(crd: CustomResourceDefinition): string {
  return CRD_FILE_HEADER + '---\n' + stringify(sortKeys(crd), { lineWidth: 0, indentSeq: false });
}
