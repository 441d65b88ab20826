// The live fault switches of a simulator: which images fail to pull, crash or start slowly, which nodes are down.
import { imageMatches, parseImageRef } from './image-ref.js';
import type { SimulatorFaults } from './options.js';

export const NO_FAULTS: SimulatorFaults = {
  failPullImages: [],
  crashLoopImages: [],
  slowStartImages: [],
  slowStartFactor: 5,
  notReadyNodes: [],
};

export function mergeFaults(
  base: SimulatorFaults,
  partial: Partial<SimulatorFaults> | undefined,
): SimulatorFaults {
  const given = Object.entries(partial ?? {}).filter(([, v]) => v !== undefined);
  return { ...base, ...Object.fromEntries(given.map(([k, v]) => [k, Array.isArray(v) ? [...v] : v])) };
}

/** Read-only questions the pod state machine asks; a snapshot of the switches. */
export interface FaultView {
  pullFails(image: string): boolean;
  crashes(image: string): boolean;
  /** Start-time multiplier for the image (1 when not slow). */
  startFactor(image: string): number;
  nodeDown(node: string): boolean;
}

/**
 * Registries no real node can reach, so their images never pull, whatever the switches say: Kubernetes' e2e
 * `invalid.registry.k8s.io` (OpenKruise's e2e specs use `invalid.registry.k8s.io/invalid/alpine:3.1` as an image that
 * must fail) and any host in the reserved `.invalid` top-level domain (RFC 2606).
 */
export function unreachableRegistry(image: string): boolean {
  const host = parseImageRef(image).domain.toLowerCase().replace(/:\d+$/, '');
  return host === 'invalid.registry.k8s.io' || host === 'invalid' || host.endsWith('.invalid');
}

export function faultView(f: SimulatorFaults): FaultView {
  const any = (patterns: string[], image: string) => patterns.some((p) => imageMatches(p, image));
  return {
    pullFails: (image) => unreachableRegistry(image) || any(f.failPullImages, image),
    crashes: (image) => any(f.crashLoopImages, image),
    startFactor: (image) => (any(f.slowStartImages, image) ? Math.max(1, f.slowStartFactor) : 1),
    nodeDown: (node) => f.notReadyNodes.includes(node),
  };
}

export class Faults {
  private current: SimulatorFaults;
  private view: FaultView;
  private readonly listeners: ((before: SimulatorFaults, after: SimulatorFaults) => void)[] = [];

  constructor(initial?: Partial<SimulatorFaults>) {
    this.current = mergeFaults(NO_FAULTS, initial);
    this.view = faultView(this.current);
  }

  get value(): SimulatorFaults {
    return mergeFaults(this.current, {});
  }

  get check(): FaultView {
    return this.view;
  }

  set(partial: Partial<SimulatorFaults>): void {
    const before = this.current;
    this.current = mergeFaults(before, partial);
    this.view = faultView(this.current);
    for (const l of this.listeners) l(before, this.current);
  }

  onChange(listener: (before: SimulatorFaults, after: SimulatorFaults) => void): void {
    this.listeners.push(listener);
  }
}
