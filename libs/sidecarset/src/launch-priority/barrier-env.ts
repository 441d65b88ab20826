/**
 * Container launch priority at pod creation (OpenKruise `pkg/webhook/pod/mutating/container_launch_priority_initialization.go`,
 * `pkg/util/containerlaunchpriority`): `apps.kruise.io/container-launch-priority: Ordered` gives container i the
 * priority -i; otherwise containers' `KRUISE_CONTAINER_PRIORITY` values, when they differ, are their priorities. Each
 * container then waits on env `KRUISE_CONTAINER_BARRIER` = key `p_<priority>` of the ConfigMap `<pod>-barrier`.
 */
import { Annotations, ContainerEnvs } from '@regatta/api';
import { RegattaError } from '@regatta/errors';
import type { Container, EnvVar, Pod } from '../injection/types.js';

export const ORDERED = 'Ordered';

/** A `KRUISE_CONTAINER_PRIORITY` that is not an integer (upstream refuses the pod with the parse error). */
export class LaunchPriorityError extends RegattaError {
  constructor(message: string) {
    super('REGATTA_CONTAINER_LAUNCH_PRIORITY', message);
  }
}

export const barrierName = (podName: string): string => `${podName}-barrier`;
export const barrierKey = (priority: number): string => `p_${priority}`;

/** The priority a barrier env names (`p_<n>` → n), or undefined when the container has none. */
export function barrierPriority(c: Container): number | undefined {
  const env = ((c.env ?? []) as EnvVar[]).find((e) => e.name === ContainerEnvs.ContainerBarrier);
  const key = (env?.valueFrom as { configMapKeyRef?: { key?: string } } | undefined)?.configMapKeyRef?.key;
  if (key === undefined) return undefined;
  const n = Number.parseInt(key.slice(2), 10);
  return Number.isNaN(n) ? 0 : n;
}

/** The launch priorities of the pod's containers, or undefined when the pod asks for none. */
export function launchPriorities(pod: Pod): number[] | undefined {
  const containers = pod.spec?.containers ?? [];
  if (containers.length <= 1) return undefined;
  if (pod.metadata?.annotations?.[Annotations.ContainerLaunchPriority] === ORDERED)
    return containers.map((_, i) => (i === 0 ? 0 : -i));
  let any = false;
  const priorities = containers.map((c) => {
    let p = 0;
    for (const e of (c.env ?? []) as EnvVar[]) {
      if (e.name !== ContainerEnvs.ContainerPriority) continue;
      if (!/^[-+]?\d+$/.test(e.value ?? '')) {
        throw new LaunchPriorityError(
          `container ${c.name}: ${ContainerEnvs.ContainerPriority} ${e.value ?? ''} is not an integer`,
        );
      }
      p = Number.parseInt(e.value ?? '0', 10);
      if (p !== 0) any = true;
    }
    return p;
  });
  if (!any || priorities.every((p) => p === priorities[0])) return undefined;
  return priorities;
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `generateName` + 5 random characters, as the API server's SimpleNameGenerator (name ≤ 63). */
export function generatePodName(generateName: string, random: () => number = Math.random): string {
  const base = generateName.slice(0, 58);
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[Math.floor(random() * NAME_ALPHABET.length)];
  return base + suffix;
}

/**
 * The pod with its barrier env, or undefined when it asks for no launch priority. A barrier env already there is
 * replaced, so a second call (another webhook entry of the same request) changes nothing.
 */
export function withLaunchBarriers(original: Pod, random: () => number = Math.random): Pod | undefined {
  const priorities = launchPriorities(original);
  if (!priorities) return undefined;
  const pod = structuredClone(original);
  const meta = (pod.metadata ??= {});
  if (!meta.name && meta.generateName) meta.name = generatePodName(meta.generateName, random);
  const name = meta.name ?? '';
  const spec = (pod.spec ??= {});
  spec.containers = (spec.containers ?? []).map((c, i) => ({
    ...c,
    env: [
      ...((c.env ?? []) as EnvVar[]).filter((e) => e.name !== ContainerEnvs.ContainerBarrier),
      {
        name: ContainerEnvs.ContainerBarrier,
        valueFrom: { configMapKeyRef: { name: barrierName(name), key: barrierKey(priorities[i] ?? 0) } },
      },
    ],
  }));
  return pod;
}
