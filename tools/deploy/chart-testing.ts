// What the chart's tests read from rendered manifests: RBAC rules and a workload's pod spec, typed as far as the
// tests look (tools/deploy/chart.test.ts, chart-rbac.test.ts), and a render under another release name.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateHelm } from '@regatta/local-cluster';
import { parseManifests, type Manifest } from './chart.js';

/** `helm template <release>` into `namespace` with `--set` values: the objects (the chart's tests name a release). */
export function templateRelease(
  chart: string,
  release: string,
  namespace: string,
  set: string[],
): Manifest[] {
  const text = execFileSync(
    locateHelm(),
    ['template', release, chart, '--namespace', namespace, ...set.flatMap((s) => ['--set', s])],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HELM_CACHE_HOME: join(tmpdir(), 'regatta-helm-cache') },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return parseManifests(text);
}

export interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** The rules of a ClusterRole or Role named `name` in the manifests ([] when there is none). */
export const rulesOf = (ms: Manifest[], kind: string, name: string): Rule[] =>
  (ms.find((m) => m.kind === kind && m.metadata.name === name)?.['rules'] as Rule[] | undefined) ?? [];

/** `verb group/resource` pairs a set of rules grants (group '' is the core group). */
export const grants = (rules: Rule[]): Set<string> =>
  new Set(
    rules.flatMap((r) =>
      r.apiGroups.flatMap((g) => r.resources.flatMap((res) => r.verbs.map((v) => `${v} ${g}/${res}`))),
    ),
  );

export interface PodSpec {
  securityContext: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes: {
    name: string;
    secret?: { secretName: string; items?: { key: string; path: string }[] };
    projected?: unknown;
  }[];
  containers: {
    image: string;
    env: { name: string; value?: string; valueFrom?: unknown }[];
    volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
    securityContext: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
    readinessProbe: { httpGet: { path: string } };
    livenessProbe: { httpGet: { path: string } };
  }[];
}
