// The IPs of the pods a simulator runs: one allocator per node (addressing.ts), a pod's IP kept when a restarted
// simulator adopts it, the node's IP for host-network pods.
import { PodIpAllocator, type NodeAddressing } from './addressing.js';
import type { Pod } from './types.js';

export class PodIps {
  private readonly allocators = new Map<string, PodIpAllocator>();

  constructor(private readonly addressing: (node: string) => NodeAddressing | undefined) {}

  private allocator(node: string): PodIpAllocator {
    let a = this.allocators.get(node);
    if (!a) {
      a = new PodIpAllocator(this.addressing(node)?.podPrefix ?? '10.255.255');
      this.allocators.set(node, a);
    }
    return a;
  }

  /** The IPs of a pod its node starts running: the one it reports already if it is of the node's range. */
  assign(pod: Pod, node: string): { podIP: string; hostIP: string } {
    const hostIP = this.addressing(node)?.internalIP ?? '';
    const alloc = this.allocator(node);
    let podIP = hostIP;
    if (!pod.spec?.hostNetwork) {
      const had = pod.status?.podIP;
      if (had && alloc.owns(had)) {
        alloc.reserve(had);
        podIP = had;
      } else podIP = alloc.allocate();
    }
    return { podIP, hostIP };
  }

  release(node: string, ip: string | undefined): void {
    this.allocator(node).release(ip);
  }
}
