/**
 * A daemon pod for a node (OpenKruise `pkg/controller/daemonset/daemonset_controller.go` `syncNodes` / `NewPod`):
 * the template with the revision hash label, the default daemon tolerations, a required node affinity for that node
 * (`matchFields metadata.name In [node]`, so the scheduler binds it, as `--assign-pods-by-scheduler` does by
 * default), the InPlaceUpdateReady gate for InPlaceIfPossible, and the DaemonSet as controller.
 */
import { type KubeObject, cloneJson, newControllerRef } from '@regatta/kube';
import { INPLACE_UPDATE_READY } from '@regatta/inplace-update';
import { type Pod, withKruisePodReadinessGate } from '@regatta/lifecycle';
import { CONTROLLER_REVISION_HASH_LABEL, type PodTemplate } from '@regatta/revision';
import {
  DAEMONSET_GVK,
  POD_TEMPLATE_GENERATION_LABEL,
  TEMPLATE_GENERATION_ANNOTATION,
} from '../daemonset-object.js';
import { withDaemonTolerations } from './eligibility.js';
import type { Affinity, NodeSelectorTerm, SchedulingSpec } from './node.js';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/** `<ds>-<5 random chars>`, as the API server's generateName (named here so expectations know it before the create). */
export function daemonPodName(dsName: string, random: () => number): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_CHARS[Math.floor(random() * NAME_CHARS.length)];
  return `${dsName.slice(0, 58)}-${suffix}`;
}

/** The affinity with its required node terms replaced by one `metadata.name In [node]` (`ReplaceDaemonSetPodNodeNameNodeAffinity`). */
export function withNodeAffinity(affinity: Affinity | null | undefined, node: string): Affinity {
  const term: NodeSelectorTerm = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] };
  const out: Affinity = cloneJson((affinity ?? {}) as Record<string, never>);
  out.nodeAffinity = {
    ...(out.nodeAffinity ?? {}),
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] },
  };
  return out;
}

export interface NewDaemonPodInput {
  ds: KubeObject & { spec?: { template?: PodTemplate } };
  template: PodTemplate;
  hash: string;
  node: string;
  name: string;
  inPlaceIfPossible: boolean;
}

export function newDaemonPod(input: NewDaemonPodInput): Pod {
  const { ds, template } = input;
  const meta = cloneJson(template.metadata ?? {}) as Record<string, unknown> & {
    labels?: Record<string, string>;
  };
  const spec = cloneJson(template.spec ?? {}) as SchedulingSpec & Record<string, unknown>;
  const labels: Record<string, string> = {
    ...(meta.labels ?? {}),
    [CONTROLLER_REVISION_HASH_LABEL]: input.hash,
  };
  const generation = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (generation !== undefined && /^-?\d+$/.test(generation))
    labels[POD_TEMPLATE_GENERATION_LABEL] = generation;
  spec.tolerations = withDaemonTolerations(spec.tolerations ?? [], spec.hostNetwork === true);
  spec.affinity = withNodeAffinity(spec.affinity, input.node);
  if (input.inPlaceIfPossible) {
    const gates = (spec['readinessGates'] as { conditionType: string }[] | undefined) ?? [];
    if (!gates.some((g) => g.conditionType === INPLACE_UPDATE_READY))
      spec['readinessGates'] = [...gates, { conditionType: INPLACE_UPDATE_READY }];
  }
  const namespace = ds.metadata?.namespace;
  // upstream's pod webhook adds the KruisePodReady gate at CREATE (pkg/webhook/pod/mutating/pod_readiness.go)
  return withKruisePodReadinessGate({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      name: input.name,
      ...(namespace !== undefined ? { namespace } : {}),
      labels,
      ownerReferences: [
        newControllerRef(ds, {
          apiVersion: ds.apiVersion ?? DAEMONSET_GVK.apiVersion,
          kind: ds.kind ?? DAEMONSET_GVK.kind,
        }),
      ],
    },
    spec: spec as Pod['spec'],
  } as Pod);
}
