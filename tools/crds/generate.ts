/**
 * Writes deploy/crds/ from the schemas in libs/api: one CustomResourceDefinition per file, named as controller-gen
 * names them (`apps.kruise.io_clonesets.yaml`). Generated files that no longer correspond to a kind are removed.
 * Run with `npm run crds`; the unit test `libs/api/src/crds-generated.test.ts` fails while the files are stale.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CRD_FILE_HEADER, renderCrdFiles } from '@regatta/api';

const outDir = fileURLToPath(new URL('../../deploy/crds/', import.meta.url));

await mkdir(outDir, { recursive: true });
const files = renderCrdFiles();
const wanted = new Set(files.map((f) => f.fileName));
let written = 0;
for (const { fileName, text } of files) {
  const path = join(outDir, fileName);
  const before = await readFile(path, 'utf8').catch(() => undefined);
  if (before !== text) {
    await writeFile(path, text);
    written++;
  }
}
let removed = 0;
for (const name of await readdir(outDir)) {
  if (!name.endsWith('.yaml') || wanted.has(name)) continue;
  const text = await readFile(join(outDir, name), 'utf8');
  if (text.startsWith(CRD_FILE_HEADER)) {
    await rm(join(outDir, name));
    removed++;
  }
}
process.stdout.write(`deploy/crds: ${files.length} CRDs, ${written} written, ${removed} removed\n`);
