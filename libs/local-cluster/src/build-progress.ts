/**
 * The progress of a control-plane build (tools/controlplane/build.sh) as one line that keeps moving: component,
 * step, elapsed time and what is left by the durations measured on a 2-core machine (README "Prerequisites":
 * Kubernetes 13 min, Jaeger 14 min, etcd 2 min, nats-server 1 min; helm 6.5 min). Pure: fed the script's lines and
 * the clock, it renders; `build-control-plane.ts` runs the script and draws it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { kubernetesVersion } from './binaries.js';
import {
  CNI_PLUGINS_VERSION,
  CONTAINERD_VERSION,
  CRANE_VERSION,
  ETCD_VERSION,
  HELM_VERSION,
  JAEGER_VERSION,
  NATS_VERSION,
  RUNC_VERSION,
} from './versions.js';

export type BuildComponent =
  | 'nats'
  | 'etcd'
  | 'kubernetes'
  | 'jaeger'
  | 'helm'
  | 'kubelet'
  | 'containerd'
  | 'runc'
  | 'cni'
  | 'crane';

/** The components the local cluster needs, in the order build.sh builds them. */
export const CONTROL_PLANE_COMPONENTS: readonly BuildComponent[] = ['nats', 'etcd', 'kubernetes', 'jaeger'];
/** A real node's components (docs/real-nodes.md), in the order `build.sh node` builds them. */
export const NODE_COMPONENTS: readonly BuildComponent[] = ['containerd', 'runc', 'cni', 'crane', 'kubelet'];

/** Kubernetes: the pin or the release REGATTA_KUBERNETES_VERSION names (docs/adr/0058), as build.sh builds it. */
export const COMPONENT_VERSIONS: Readonly<Record<BuildComponent, string>> = {
  nats: NATS_VERSION,
  etcd: ETCD_VERSION,
  kubernetes: kubernetesVersion(),
  jaeger: JAEGER_VERSION,
  helm: HELM_VERSION,
  kubelet: kubernetesVersion(),
  containerd: CONTAINERD_VERSION,
  runc: RUNC_VERSION,
  cni: CNI_PLUGINS_VERSION,
  crane: CRANE_VERSION,
};

/** Seconds a cold build of each component took on 2 cores (modules downloaded and compiled). */
export const EXPECTED_BUILD_SECONDS: Readonly<Record<BuildComponent, number>> = {
  nats: 60,
  etcd: 120,
  kubernetes: 780,
  jaeger: 840,
  helm: 392,
  // measured with the control plane's Go build cache warm (kubelet shares most of kube-apiserver's packages)
  kubelet: 60,
  containerd: 261,
  runc: 38,
  cni: 33,
  crane: 22,
};

/** The components among `wanted` whose cache folder is not complete (build.sh writes `.complete` last). */
export function missingComponents(
  cache: string,
  wanted: readonly BuildComponent[] = CONTROL_PLANE_COMPONENTS,
): BuildComponent[] {
  return wanted.filter((c) => !existsSync(join(cache, `${c}-${COMPONENT_VERSIONS[c]}`, '.complete')));
}

export interface BuildState {
  /** The components to build, in order. */
  readonly plan: readonly BuildComponent[];
  readonly startedAt: number;
  /** Index in `plan` of the component being built; `plan.length` when all are done. */
  readonly current: number;
  readonly componentStartedAt: number;
  readonly step: string;
}

export function startBuild(plan: readonly BuildComponent[], now: number): BuildState {
  return { plan, startedAt: now, current: 0, componentStartedAt: now, step: 'starting' };
}

const SCRIPT_LINE = /^\[controlplane [\d:]+\] (\S+?)(?:-server)?(?: [\w.+-]+)?: (.*)$/;

/** The state after one line the script printed: its `[controlplane …]` lines name the component and step. */
export function observeLine(s: BuildState, line: string, now: number): BuildState {
  const go = /^go: (downloading|added) (\S+)/.exec(line);
  if (go) return { ...s, step: go[1] === 'downloading' ? `downloading ${go[2]}` : 'resolving modules' };
  const m = SCRIPT_LINE.exec(line);
  if (!m) return s;
  const name = m[1] as BuildComponent;
  const text = m[2] ?? '';
  const index = s.plan.indexOf(name);
  if (index < 0) return s;
  if (/^done in |^cached in /.test(text)) {
    return { ...s, current: Math.max(s.current, index + 1), componentStartedAt: now, step: 'next' };
  }
  const step = text.replace(/ \(\d+ s so far\)$/, '').replace(/ \(.*\)$/, '');
  return index === s.current ? { ...s, step } : { ...s, current: index, componentStartedAt: now, step };
}

/** `1h02m`, `3m07s`, `42s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * One line: `⠹ building kubernetes 1.36.3 (3/4): compiling kube-apiserver · 4m10s · about 18m left`. What is left is
 * the rest of the current component's expected time (at least a minute while it runs) plus the components after it.
 */
export function renderProgress(s: BuildState, now: number): string {
  const elapsed = (now - s.startedAt) / 1000;
  const c = s.plan[s.current];
  if (c === undefined) return `built ${s.plan.join(', ')} in ${formatDuration(elapsed)}`;
  const inComponent = (now - s.componentStartedAt) / 1000;
  const rest = s.plan.slice(s.current + 1).reduce((sum, next) => sum + EXPECTED_BUILD_SECONDS[next], 0);
  const left = Math.max(EXPECTED_BUILD_SECONDS[c] - inComponent, 60) + rest;
  const spin = SPINNER[Math.floor(now / 250) % SPINNER.length];
  return (
    `${spin} building ${c} ${COMPONENT_VERSIONS[c]} (${s.current + 1}/${s.plan.length}): ${s.step} · ` +
    `${formatDuration(elapsed)} · about ${formatDuration(left)} left`
  );
}
