/** OpenKruise's CloneSet event reasons and messages (`pkg/controller/cloneset/sync/cloneset_scale.go`, `cloneset_update.go`). */
export const CONTROLLER_NAME = 'cloneset-controller';

export const messages = {
  createdPod: (name: string) => `succeed to create pod ${name}`,
  failedCreatePod: (err: unknown) => `failed to create pod: ${errText(err)}`,
  failedCreatePvc: (err: unknown) => `failed to create pvc: ${errText(err)}`,
  deletedPod: (name: string) => `succeed to delete pod ${name}`,
  failedDeletePod: (name: string, err: unknown) => `failed to delete pod ${name}: ${errText(err)}`,
  scaleUpLimited: (limit: number) =>
    `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${limit}`,
  updatedInPlace: (name: string, revision: string) =>
    `successfully update pod ${name} in-place(revision ${revision})`,
  failedUpdateInPlace: (name: string, revision: string, err: unknown) =>
    `failed to update pod ${name} in-place(revision ${revision}): ${errText(err)}`,
  recreated: (name: string, revision: string) =>
    `successfully patch pod ${name} specified-delete for update(revision ${revision})`,
  failedRecreate: (name: string, revision: string, err: unknown) =>
    `failed to patch pod ${name} specified-delete for update(revision ${revision}): ${errText(err)}`,
  inPlaceOnlyImpossible: (name: string) =>
    `find Pod ${name} update strategy is InPlaceOnly but can not update in-place`,
};

export function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
