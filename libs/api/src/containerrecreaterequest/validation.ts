/**
 * ContainerRecreateRequest admission, as OpenKruise's webhook (`pkg/webhook/containerrecreaterequest/mutating/
 * crr_mutating_handler.go`), pure and with field paths: the spec's own rules and defaults ({@link validateCrrSpec},
 * {@link defaultCrr}), what the pod adds ({@link injectPod}: the pod must exist, be active and bound to a node, name
 * every container and have started it), and what an update may not change ({@link validateCrrUpdate}).
 */
import { type FieldError, FieldPath, fieldErrors } from '@regatta/kube';
import type { Pod } from '../core/pod-types.js';
import {
  CRR_FAILURE_POLICIES,
  CRR_MIN_DEADLINE_SECONDS,
  CrrKeys,
  type ContainerRecreateRequest,
  type CrrProbeHandler,
} from './types.js';

const SPEC = FieldPath.root('spec');

/**
 * The spec's own rules (no pod needed). `mutated`: the request went through the mutating webhook already (the
 * validating webhook), so the read-only fields it wrote are expected.
 */
export function validateCrrSpec(crr: ContainerRecreateRequest, o: { mutated?: boolean } = {}): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crr.spec;
  if (!spec?.podName) errs.push(fieldErrors.required(SPEC.child('podName'), 'podName can not be empty'));
  const containers = spec?.containers ?? [];
  if (containers.length === 0)
    errs.push(fieldErrors.required(SPEC.child('containers'), 'containers list can not be null'));
  const seen = new Set<string>();
  containers.forEach((c, i) => {
    const p = SPEC.child('containers').index(i);
    if (!c.name) errs.push(fieldErrors.required(p.child('name')));
    else if (seen.has(c.name)) errs.push(fieldErrors.duplicate(p.child('name'), c.name));
    seen.add(c.name);
    for (const f of ['preStop', 'ports', 'statusContext'] as const)
      if (c[f] !== undefined && !o.mutated)
        errs.push(
          fieldErrors.forbidden(
            p.child(f),
            'preStop, ports, statusContext in container are read-only fields',
          ),
        );
  });
  const ads = spec?.activeDeadlineSeconds;
  if (ads !== undefined && ads < CRR_MIN_DEADLINE_SECONDS)
    errs.push(
      fieldErrors.invalid(
        SPEC.child('activeDeadlineSeconds'),
        ads,
        `activeDeadlineSeconds can not be less than ${CRR_MIN_DEADLINE_SECONDS}s`,
      ),
    );
  const ttl = spec?.ttlSecondsAfterFinished;
  if (ttl !== undefined && ttl < 0)
    errs.push(
      fieldErrors.invalid(SPEC.child('ttlSecondsAfterFinished'), ttl, 'must be non-negative integer'),
    );
  const st = spec?.strategy;
  const sp = SPEC.child('strategy');
  for (const f of [
    'terminationGracePeriodSeconds',
    'unreadyGracePeriodSeconds',
    'minStartedSeconds',
  ] as const) {
    const v = st?.[f];
    if (v !== undefined && v < 0)
      errs.push(fieldErrors.invalid(sp.child(f), v, `${f} must be non-negative integer`));
  }
  const fp = st?.failurePolicy;
  if (fp !== undefined && fp !== '' && !(CRR_FAILURE_POLICIES as readonly string[]).includes(fp))
    errs.push(fieldErrors.notSupported(sp.child('failurePolicy'), fp, CRR_FAILURE_POLICIES));
  return errs;
}

/** Upstream's defaults at create: an empty strategy, failurePolicy Fail, the `active` label. */
export function defaultCrr(crr: ContainerRecreateRequest): ContainerRecreateRequest {
  const out = structuredClone(crr);
  out.metadata = { ...out.metadata, labels: { ...out.metadata?.labels, [CrrKeys.Active]: 'true' } };
  if (out.spec) {
    out.spec.strategy = { ...out.spec.strategy };
    if (!out.spec.strategy.failurePolicy) out.spec.strategy.failurePolicy = 'Fail';
  }
  return out;
}

/** A pod that still runs or may run (no deletion, not Succeeded/Failed): upstream's `IsPodActive`. */
export const isPodActive = (pod: Pod): boolean =>
  !pod.metadata?.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';

/**
 * What the pod adds at create (upstream `injectPodIntoContainerRecreateRequest`): the node-name and pod-uid labels,
 * the pod's grace period when the strategy has none, and per container its preStop hook, its ports (for an httpGet
 * hook) and the instance to recreate (`statusContext`). `pod` undefined: the pod does not exist.
 */
export function injectPod(
  crr: ContainerRecreateRequest,
  pod: Pod | undefined,
): { crr: ContainerRecreateRequest; errors: FieldError[] } {
  const podName = SPEC.child('podName');
  if (!pod)
    return {
      crr,
      errors: [
        fieldErrors.invalid(
          podName,
          crr.spec?.podName ?? '',
          `no found Pod named ${crr.spec?.podName ?? ''}`,
        ),
      ],
    };
  if (!isPodActive(pod))
    return {
      crr,
      errors: [
        fieldErrors.invalid(
          podName,
          crr.spec?.podName,
          'not allowed to recreate containers in an inactive Pod',
        ),
      ],
    };
  const node = pod.spec?.nodeName;
  if (!node)
    return {
      crr,
      errors: [
        fieldErrors.invalid(
          podName,
          crr.spec?.podName,
          'not allowed to recreate containers in a pending Pod',
        ),
      ],
    };
  const out = structuredClone(crr);
  out.metadata = {
    ...out.metadata,
    labels: { ...out.metadata?.labels, [CrrKeys.NodeName]: node, [CrrKeys.PodUID]: pod.metadata?.uid ?? '' },
  };
  const spec = out.spec!;
  spec.strategy = { ...spec.strategy };
  if (
    spec.strategy.terminationGracePeriodSeconds === undefined &&
    pod.spec?.terminationGracePeriodSeconds !== undefined
  )
    spec.strategy.terminationGracePeriodSeconds = pod.spec.terminationGracePeriodSeconds;
  const errors: FieldError[] = [];
  spec.containers.forEach((c, i) => {
    const p = SPEC.child('containers').index(i).child('name');
    const pc = pod.spec?.containers?.find((x) => x.name === c.name);
    if (!pc) {
      errors.push(fieldErrors.invalid(p, c.name, `container ${c.name} not found in Pod`));
      return;
    }
    const st = pod.status?.containerStatuses?.find((x) => x.name === c.name);
    if (!st) {
      errors.push(fieldErrors.invalid(p, c.name, `not found ${c.name} containerStatus in Pod Status`));
      return;
    }
    if (!st.containerID) {
      errors.push(
        fieldErrors.invalid(
          p,
          c.name,
          `no containerID in ${c.name} containerStatus, maybe the container has not been initialized`,
        ),
      );
      return;
    }
    // upstream's ProbeHandler has exec, httpGet and tcpSocket (a `sleep` hook is not copied)
    const hook = pc.lifecycle?.preStop as CrrProbeHandler | undefined;
    if (hook && (hook.exec || hook.httpGet || hook.tcpSocket)) {
      const preStop: CrrProbeHandler = {};
      if (hook.exec) preStop.exec = hook.exec;
      if (hook.httpGet) preStop.httpGet = hook.httpGet;
      if (hook.tcpSocket) preStop.tcpSocket = hook.tcpSocket;
      c.preStop = preStop;
      if (hook.httpGet && pc.ports) c.ports = pc.ports;
    }
    c.statusContext = { containerID: st.containerID, restartCount: st.restartCount ?? 0 };
  });
  return { crr: out, errors };
}

/** An update: the spec, the pod-uid and node-name labels and a set unready-acquired annotation are immutable. */
export function validateCrrUpdate(
  old: ContainerRecreateRequest,
  next: ContainerRecreateRequest,
): FieldError[] {
  const errs: FieldError[] = [];
  if (JSON.stringify(old.spec ?? {}) !== JSON.stringify(next.spec ?? {}))
    errs.push(fieldErrors.forbidden(SPEC, 'spec of ContainerRecreateRequest is immutable'));
  const labels = FieldPath.root('metadata', 'labels');
  for (const k of [CrrKeys.PodUID, CrrKeys.NodeName])
    if ((old.metadata?.labels?.[k] ?? '') !== (next.metadata?.labels?.[k] ?? ''))
      errs.push(fieldErrors.forbidden(labels.key(k), `not allowed to update immutable label ${k}`));
  const was = old.metadata?.annotations?.[CrrKeys.UnreadyAcquired] ?? '';
  if (was && (next.metadata?.annotations?.[CrrKeys.UnreadyAcquired] ?? '') !== was)
    errs.push(
      fieldErrors.forbidden(
        FieldPath.root('metadata', 'annotations').key(CrrKeys.UnreadyAcquired),
        `not allowed to update immutable annotation ${CrrKeys.UnreadyAcquired}`,
      ),
    );
  return errs;
}
