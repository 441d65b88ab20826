{{- define "regatta.namespace" -}}{{ .Release.Namespace }}{{- end -}}
{{- define "regatta.leaseNamespace" -}}{{ .Values.leaseNamespace | default .Release.Namespace }}{{- end -}}

{{/* Labels of every object; pass (dict "root" $ "component" "cloneset"). */}}
{{- define "regatta.labels" -}}
app.kubernetes.io/name: regatta
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/component: {{ .component }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}
{{- define "regatta.selector" -}}
app.kubernetes.io/name: regatta
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "regatta.image" -}}
{{- $i := .root.Values.image -}}
{{ printf "%s/%s%s:%s" $i.registry $i.prefix .app ($i.tag | default .root.Chart.AppVersion) }}
{{- end -}}

{{/* The enabled controllers, as a list (fromYamlArray). */}}
{{- define "regatta.enabled" -}}
{{- $out := list -}}
{{- range (include "regatta.controllerNames" . | fromYamlArray) -}}
{{- if (index $.Values.controllers .).enabled -}}{{- $out = append $out . -}}{{- end -}}
{{- end -}}
{{ toYaml $out }}
{{- end -}}

{{/* A controller's settings: controllerDefaults merged under controllers.<name>. Pass (dict "root" $ "name" "cloneset"). */}}
{{- define "regatta.settings" -}}
{{ toYaml (mergeOverwrite (deepCopy .root.Values.controllerDefaults) (deepCopy (index .root.Values.controllers .name))) }}
{{- end -}}

{{- define "regatta.busUrl" -}}
{{- if .Values.bus.url -}}{{ .Values.bus.url }}
{{- else if .Values.nats.enabled -}}{{ printf "nats://%s-nats.%s.svc:4222" .Release.Name .Release.Namespace }}
{{- else -}}{{ fail "set bus.url to an existing NATS with JetStream, or nats.enabled=true (docs/operations.md)" }}
{{- end -}}
{{- end -}}

{{/* Environment every program gets; pass (dict "root" $ "role" "watcher"|<controller>). */}}
{{- define "regatta.commonEnv" -}}
- name: POD_NAME
  valueFrom: { fieldRef: { fieldPath: metadata.name } }
- name: POD_NAMESPACE
  valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
- name: REGATTA_LEASE_NAMESPACE
  value: {{ include "regatta.leaseNamespace" .root | quote }}
- name: REGATTA_HEALTH_ADDR
  value: ":8081"
- name: LOG_LEVEL
  value: {{ .root.Values.logLevel | quote }}
- name: NATS_URL
  value: {{ include "regatta.busUrl" .root | quote }}
{{- with .root.Values.bus.prefix }}
- name: REGATTA_BUS_PREFIX
  value: {{ . | quote }}
{{- end }}
{{- with .root.Values.bus.credentialsSecret }}
- name: NATS_USER
  valueFrom: { secretKeyRef: { name: {{ . }}, key: {{ printf "%s-user" $.role }} } }
- name: NATS_PASSWORD
  valueFrom: { secretKeyRef: { name: {{ . }}, key: {{ printf "%s-password" $.role }} } }
{{- end }}
{{- with .root.Values.otlp.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- end -}}

{{- define "regatta.probes" -}}
livenessProbe:
  httpGet: { path: /healthz, port: health }
  {{- toYaml .Values.probes.liveness | nindent 2 }}
readinessProbe:
  httpGet: { path: /readyz, port: health }
  {{- toYaml .Values.probes.readiness | nindent 2 }}
{{- end -}}

{{/* key=value,… from a map, keys sorted (REGATTA_FEATURE_GATES, REGATTA_NAMESPACE_SELECTOR). */}}
{{- define "regatta.keyValues" -}}
{{- $parts := list -}}
{{- range $k, $v := . -}}{{- $parts = append $parts (printf "%s=%v" $k $v) -}}{{- end -}}
{{ join "," $parts }}
{{- end -}}
