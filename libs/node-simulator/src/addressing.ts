// Fake addresses: every node gets a /24 pod range and an InternalIP, derived from the simulator's name prefix
// and the node's index so that simulators sharing a cluster do not overlap (default prefix `node`: node k →
// pods 10.244.k.0/24, InternalIP 172.18.0.k). Pure, except the small allocator class.
import { createHash } from 'node:crypto';

export interface NodeAddressing {
  /** `10.A.B.0/24` */
  podCIDR: string;
  internalIP: string;
  /** `10.A.B` — the pod IPs are `${podPrefix}.2` … `${podPrefix}.254`. */
  podPrefix: string;
}

/** 0 for the default prefix `node`, 1…111 otherwise (stable per prefix). */
export function prefixOctet(prefix: string): number {
  if (prefix === 'node') return 0;
  return 1 + (createHash('sha256').update(prefix).digest().readUInt32BE(0) % 111);
}

export function nodeAddressing(prefix: string, index: number): NodeAddressing {
  const p = prefixOctet(prefix);
  const hi = Math.floor(index / 256);
  const lo = index % 256;
  const second = (p === 0 ? 244 : 128 + p) + hi;
  const podPrefix = `10.${second % 256}.${lo}`;
  return { podCIDR: `${podPrefix}.0/24`, podPrefix, internalIP: `172.${18 + (hi % 14)}.${p}.${lo}` };
}

/** Hands out pod IPs of one node's range: lowest free first, reserved IPs (adopted pods) respected. */
export class PodIpAllocator {
  private readonly used = new Set<number>();
  constructor(private readonly podPrefix: string) {}

  owns(ip: string | undefined): boolean {
    return ip !== undefined && ip.startsWith(`${this.podPrefix}.`) && this.host(ip) !== undefined;
  }

  private host(ip: string): number | undefined {
    const n = Number(ip.slice(this.podPrefix.length + 1));
    return Number.isInteger(n) && n >= 2 && n <= 254 ? n : undefined;
  }

  reserve(ip: string): void {
    const h = this.host(ip);
    if (h !== undefined && ip.startsWith(`${this.podPrefix}.`)) this.used.add(h);
  }

  /** Next free IP; when all 253 are taken it reuses the lowest (the API server does not check uniqueness). */
  allocate(): string {
    for (let h = 2; h <= 254; h++) {
      if (!this.used.has(h)) {
        this.used.add(h);
        return `${this.podPrefix}.${h}`;
      }
    }
    return `${this.podPrefix}.2`;
  }

  release(ip: string | undefined): void {
    if (ip === undefined || !ip.startsWith(`${this.podPrefix}.`)) return;
    const h = this.host(ip);
    if (h !== undefined) this.used.delete(h);
  }
}
