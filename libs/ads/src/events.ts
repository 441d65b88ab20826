/**
 * OpenKruise's Advanced DaemonSet event reasons and messages (`pkg/controller/daemonset/daemonset_controller.go`,
 * Kubernetes' pod control for create/delete).
 */
export const CONTROLLER_NAME = 'daemonset-controller';

export const REASONS = {
  SelectingAll: 'SelectingAll',
  FailedDaemonPod: 'FailedDaemonPod',
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
} as const;

export const messages = {
  selectingAll: () => 'This DaemonSet is selecting all pods. A non-empty selector is required.',
  failedDaemonPod: (ns: string, name: string, node: string) =>
    `Found failed daemon pod ${ns}/${name} on node ${node}, will try to kill it`,
  createdPod: (name: string) => `Created pod: ${name}`,
  failedCreatePod: (err: unknown) => `Error creating: ${errText(err)}`,
  deletedPod: (name: string) => `Deleted pod: ${name}`,
  failedDeletePod: (name: string, err: unknown) => `Error deleting pod ${name}: ${errText(err)}`,
  updatedInPlace: (name: string) => `successfully update pod ${name} in-place`,
  failedUpdateInPlace: (name: string, err: unknown) =>
    `failed to update pod ${name} in-place: ${errText(err)}`,
};

export function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
