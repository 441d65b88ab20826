// The deletion protection program, declared: the `Cascading` rules that need lookups (docs/deletion-protection.md).
// Its webhook receives only DELETEs of objects labelled `policy.kruise.io/delete-protection: Cascading` and reads
// pods and claims from the bus caches the watcher feeds; a CRD's objects, which no bus mirrors, from the API server.
// `Always`, and `Cascading` on workloads counted by `spec.replicas`, are ValidatingAdmissionPolicies the API server
// evaluates without it (deploy/policies, docs/adr/0079). Nothing to reconcile: the For kind only satisfies the kit.
import { KINDS } from '@regatta/api';
import {
  CONTROLLER_NAME,
  DELETION_PROTECTION_FEATURE_GATES,
  DELETION_PROTECTION_POD_FIELDS,
  VALIDATE_DELETION_PROTECTION_PATH,
  busLookups,
  deletionProtectionValidator,
  deletionProtectionWebhookConfigurations,
  effectiveGates,
  isClaimKept,
  isPodKept,
  protectionOf,
} from '@regatta/deletionprotection';
import { ControllerBuilder, runController, validating } from '@regatta/kit';

const deletionprotection = ControllerBuilder.controller({
  name: 'deletionprotection',
  eventComponent: CONTROLLER_NAME,
  featureGates: DELETION_PROTECTION_FEATURE_GATES,
  maxConcurrentReconciles: 1,
})
  // the protected Namespaces (a DELETE carries its object: this cache is not read); no change enqueues anything
  .for('namespaces', KINDS.namespaces, {
    keep: (ns) => protectionOf(ns) !== undefined,
    predicates: [() => false],
  })
  // active pods only (a Namespace's, an Advanced DaemonSet's or BroadcastJob's children), projected to what counts them
  .watches('pods', KINDS.pods, () => [], { keep: isPodKept, project: DELETION_PROTECTION_POD_FIELDS })
  // Bound claims only (a Namespace's)
  .watches('claims', KINDS.persistentvolumeclaims, () => [], { keep: isClaimKept })
  .webhooks(({ readers, client, gates, log, recorder }) => {
    const { enabled, crdCascading } = effectiveGates(gates);
    return {
      routes: [
        validating(
          VALIDATE_DELETION_PROTECTION_PATH,
          deletionProtectionValidator({
            lookups: busLookups(readers, client),
            enabled,
            crdCascading,
            log,
            recorder,
          }),
        ),
      ],
      // gate ResourcesDeletionProtection off: no configuration, nothing reaches the program
      configurations: (url, ca, scope) =>
        enabled ? deletionProtectionWebhookConfigurations(url, ca, scope) : [],
    };
  })
  .reconciler(() => ({ reconcile: () => Promise.resolve({}) }));

await runController(deletionprotection);
