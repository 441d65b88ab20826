// The rollout benchmarks' memory table (docs/benchmarks-memory.md section 3, docs/benchmarks-rollouts.md section 4): each
// Regatta program and the native controller, resident memory idle, with the N pods ready, what a pod adds, and the
// peak over the rollout, next to OpenKruise's kruise-manager: measured in the same run with `--peer=kruise`
// (kruise-peer.ts, peer-report.ts), and as issue 17 measured it by hand at 1000 pods (kept as the reference row).
import { table } from './common.js';
import type { PhaseResult, RolloutResult } from './rollout-config.js';

/**
 * kruise-manager v1.9 with 0 → 1000 pods and over the 1000-pod rollout (issue 17, by hand; shipped client limits).
 * `--peer=kruise` measures it in the run; this stays as the reference for runs without it.
 */
export const KRUISE_MANAGER = { idleMiB: 84, loadedMiB: 134, perPodKiB: 51, peakMiB: 136 } as const;

const mib = (b: number | undefined) =>
  b !== undefined && Number.isFinite(b) ? `${(b / 2 ** 20).toFixed(0)} MiB` : 'n/a';

/** (with N pods − idle) ÷ N, KiB; NaN when either is missing. */
export function kibPerPod(idle: number | undefined, loaded: number | undefined, n: number): number {
  return idle !== undefined && loaded !== undefined && n > 0 ? (loaded - idle) / n / 1024 : NaN;
}

const row = (label: string, p: PhaseResult, name: string, n: number) => {
  const perPod = kibPerPod(p.idleRss[name], p.loadedRss?.[name], n);
  return [
    label,
    mib(p.idleRss[name]),
    mib(p.loadedRss?.[name]),
    Number.isFinite(perPod) ? perPod.toFixed(0) : 'n/a',
    mib(p.rssPeak[name]),
    mib(p.hwm[name]),
  ];
};

export function reportRolloutMemory(r: RolloutResult): string {
  const n = r.replicas;
  const k = KRUISE_MANAGER;
  return [
    `Resident memory (VmRSS) of the controllers: idle, with the ${n} pods ready, and over the rollout`,
    '',
    table([
      ['process', 'idle', `with ${n} pods`, 'KiB / pod', 'peak in rollout', 'VmHWM'],
      row(r.controller, r.regatta, r.controller, n),
      row('  watcher (Regatta reads through it)', r.regatta, 'watcher', n),
      row(`kube-controller-manager (${r.native.name})`, r.native, 'kube-controller-manager', n),
      ...(r.peer
        ? [
            row(
              `kruise-manager v${r.peer.version} (this run, ${r.peer.qps}/${r.peer.burst})`,
              r.peer.phase,
              'kruise-manager',
              n,
            ),
          ]
        : []),
      [
        'kruise-manager v1.9 (issue 17, 1000 pods)',
        `${k.idleMiB} MiB`,
        `${k.loadedMiB} MiB`,
        `${k.perPodKiB}`,
        `${k.peakMiB} MiB`,
        '',
      ],
    ]),
  ].join('\n');
}
