// What the chart's tests read from rendered manifests: RBAC rules and a workload's pod spec, typed as far as the
// tests look (tools/deploy/chart.test.ts).
import type { Manifest } from './chart.js';

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
