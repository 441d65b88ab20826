// What a successful run leaves behind: the run's temporary folder is removed, except the paths a benchmark asked to
// keep (the cold start's process logs, so a program that lost its lease in the set-up can be read afterwards;
// docs/benchmarks-coldstart.md section 10).
import { readdir, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Removes everything under `dir` except the paths in `keep` (and the folders that lead to them). */
export async function removeAllBut(dir: string, keep: string[]): Promise<void> {
  const kept = keep.map((k) => relative(dir, k)).filter((k) => k !== '' && !k.startsWith('..'));
  if (kept.length === 0 && keep.length > 0) return; // `dir` itself (or an outer folder) is kept
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      const rel = relative(dir, path);
      if (kept.includes(rel)) continue;
      if (entry.isDirectory() && kept.some((k) => k.startsWith(rel + sep))) await walk(path);
      else await rm(path, { recursive: true, force: true });
    }
  };
  await walk(dir);
  if (kept.length === 0) await rm(dir, { recursive: true, force: true });
}
