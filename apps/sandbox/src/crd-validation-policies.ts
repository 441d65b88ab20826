// The CRDs' ValidatingAdmissionPolicies (deploy/policies/crd-validation, rendered from each kind's lib), installed
// with the CRDs as the chart installs them: a bad object is refused while its program is down
// (docs/adr/0088-admission-policies.md).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';

/** Every policy and binding of `<repoRoot>/deploy/policies/crd-validation`, in file order. */
export async function loadCrdValidationPolicies(repoRoot: string): Promise<KubernetesObject[]> {
  const dir = join(repoRoot, 'deploy', 'policies', 'crd-validation');
  if (!existsSync(dir)) return [];
  const out: KubernetesObject[] = [];
  for (const f of (await readdir(dir)).filter((x) => x.endsWith('.yaml')).sort()) {
    for (const doc of parseAllDocuments(await readFile(join(dir, f), 'utf8'))) {
      const obj = doc.toJS() as KubernetesObject | null;
      if (obj?.kind) out.push(obj);
    }
  }
  return out;
}
