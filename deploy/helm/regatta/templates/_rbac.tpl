{{/*
What the kit (libs/kit) needs in the Lease namespace for a program: its Lease regatta-<name> (libs/runtime
kube-lease-store: get, create, update) and, with webhooks, the Secret regatta-<name>-webhook-certs that holds the
webhook CA shared by the replicas (libs/kit webhook-certificates: get, create). Names are pinned with resourceNames
where Kubernetes allows it (create cannot be). Pass (dict "root" $ "name" "cloneset" "labels" … "webhook" true).
*/}}
{{- define "regatta.leaseRole" -}}
{{- $ns := include "regatta.leaseNamespace" .root -}}
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: {{ printf "regatta-%s-lease" .name }}
  namespace: {{ $ns }}
  labels: {{- .labels | nindent 4 }}
rules:
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    resourceNames: [{{ printf "regatta-%s" .name }}]
    verbs: [get, update]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [create]
{{- with .extraRules }}
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .webhook }}
  - apiGroups: [""]
    resources: [secrets]
    resourceNames: [{{ printf "regatta-%s-webhook-certs" .name }}]
    verbs: [get]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [create]
{{- end }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: {{ printf "regatta-%s-lease" .name }}
  namespace: {{ $ns }}
  labels: {{- .labels | nindent 4 }}
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: {{ printf "regatta-%s-lease" .name }} }
subjects:
  - { kind: ServiceAccount, name: {{ printf "regatta-%s" .name }}, namespace: {{ .root.Release.Namespace }} }
{{- end -}}

{{/* The program's Service: /metrics on the health port, and its admission webhooks on 443 when webhookPort > 0. */}}
{{- define "regatta.metricsService" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ printf "regatta-%s" .component }}
  namespace: {{ .root.Release.Namespace }}
  labels: {{- .labels | nindent 4 }}
spec:
  selector: {{- include "regatta.selector" (dict "root" .root "component" .component) | nindent 4 }}
  ports:
    - { name: metrics, port: 8081, targetPort: health }
    {{- if gt (int .webhookPort) 0 }}
    - { name: webhook, port: 443, targetPort: webhook }
    {{- end }}
{{- if .root.Values.metrics.serviceMonitor.enabled }}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ printf "regatta-%s" .component }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- .labels | nindent 4 }}
    {{- with .root.Values.metrics.serviceMonitor.labels }}{{ toYaml . | nindent 4 }}{{ end }}
spec:
  selector:
    matchLabels: {{- include "regatta.selector" (dict "root" .root "component" .component) | nindent 6 }}
  endpoints:
    - { port: metrics, path: /metrics, interval: {{ .root.Values.metrics.serviceMonitor.interval }} }
{{- end }}
{{- end -}}

{{- define "regatta.pdb" -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ printf "regatta-%s" .component }}
  namespace: {{ .root.Release.Namespace }}
  labels: {{- .labels | nindent 4 }}
spec:
  maxUnavailable: {{ .maxUnavailable }}
  selector:
    matchLabels: {{- include "regatta.selector" (dict "root" .root "component" .component) | nindent 6 }}
{{- end -}}
