{{- define "regatta.namespace" -}}{{ .Release.Namespace }}{{- end -}}
{{- define "regatta.leaseNamespace" -}}{{ .Values.leaseNamespace | default .Release.Namespace }}{{- end -}}

{{/*
The prefix of the release's cluster-scoped objects (ClusterRoles and their bindings, admission policies) and of its
objects in namespaces that releases share (the daemon config namespace): the release name when it holds "regatta",
else <release>-regatta. The release `regatta` keeps the plain names (regatta-cloneset); a second release, say
`team-a`, gets team-a-regatta-cloneset, so two releases never collide (docs/operations.md "Several releases").
Objects in the release namespace keep their plain names: two releases live in two namespaces.
*/}}
{{- define "regatta.prefix" -}}
{{- if contains "regatta" .Release.Name }}{{ .Release.Name }}
{{- else }}{{ printf "%s-regatta" .Release.Name }}{{ end -}}
{{- end -}}
{{/* A release-scoped name: (dict "root" $ "name" "cloneset") gives <prefix>-cloneset. */}}
{{- define "regatta.scopedName" -}}{{ printf "%s-%s" (include "regatta.prefix" .root) .name }}{{- end -}}

{{/*
The webhook configurations a controller's program keeps, as a JSON list: regatta-<name> (libs/runtime
kind-webhook-configurations.ts webhookConfigurationName) and, for the SidecarSet and WorkloadSpread pod webhooks,
regatta-<name>-pods (their podWebhookConfigurationName); under a namespace selector each suffixed with the selector's
non-empty label values in key order, or `-scoped`. Pass (dict "name" "cloneset" "selector" <namespaceSelector>).
*/}}
{{- define "regatta.webhookConfigurationNames" -}}
{{- $values := list -}}
{{- range $k, $v := .selector }}{{ if ne (toString $v) "" }}{{ $values = append $values (toString $v) }}{{ end }}{{ end -}}
{{- $suffix := "" -}}
{{- if .selector }}{{ $suffix = printf "-%s" (join "-" $values | default "scoped") }}{{ end -}}
{{- $bases := list .name -}}
{{- if has .name (list "sidecarset" "workloadspread") }}{{ $bases = append $bases (printf "%s-pods" .name) }}{{ end -}}
{{- $out := list -}}
{{- range $bases }}{{ $out = append $out (printf "regatta-%s%s" . $suffix) }}{{ end -}}
{{ toJson $out }}
{{- end -}}

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
{{- else if (.Values.global).regattaBundledNats -}}{{ printf "nats://%s-nats.%s.svc:4222" .Release.Name .Release.Namespace }}
{{- else -}}{{ fail "set bus.url to an existing NATS with JetStream, or install deploy/helm/regatta-with-nats, which bundles one (docs/operations.md)" }}
{{- end -}}
{{- end -}}

{{/*
Whether a pod authenticates to the bus with its ServiceAccount token through the auth callout (docs/adr/0059): the node
agents with bus.nodeAgentAuth=callout; pass (dict "root" $ "nodeAgent" true). Also checks the setting.
*/}}
{{- define "regatta.busTokenAuth" -}}
{{- $b := .root.Values.bus -}}
{{- if not (has $b.nodeAgentAuth (list "shared" "callout")) -}}
{{- fail (printf "bus.nodeAgentAuth is shared or callout, not %v (docs/operations.md)" $b.nodeAgentAuth) -}}
{{- end -}}
{{- if and (eq $b.nodeAgentAuth "callout") (not $b.authCallout.issuerSecret) -}}
{{- fail "bus.nodeAgentAuth=callout needs bus.authCallout.issuerSecret, the Secret of the callout's issuer seed (docs/operations.md)" -}}
{{- end -}}
{{- if and .nodeAgent (eq $b.nodeAgentAuth "callout") }}true{{ end -}}
{{- end -}}

{{/* Whether this program runs the node agents' auth callout: the imagepull program with bus.nodeAgentAuth=callout. */}}
{{- define "regatta.busCallout" -}}
{{- if and (eq .role "imagepull") (not .nodeAgent) (eq .root.Values.bus.nodeAgentAuth "callout") .root.Values.controllers.imagepull.agent.enabled }}true{{ end -}}
{{- end -}}

{{/* Where the imagepull program copies pull secrets for the node agents (KRUISE_DAEMON_CONFIG_NS). */}}
{{- define "regatta.daemonConfigNamespace" -}}
{{- .Values.controllers.imagepull.daemonConfigNamespace | default "kruise-daemon-config" -}}
{{- end -}}

{{/* Environment every program gets; pass (dict "root" $ "role" "watcher"|<controller> ["nodeAgent" true]). */}}
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
# client-side API limits (docs/adr/0091-client-rate-limits.md): requests a second and burst; qps -1 turns them off
- name: REGATTA_KUBE_QPS
  value: {{ .root.Values.kubeClient.qps | quote }}
- name: REGATTA_KUBE_BURST
  value: {{ .root.Values.kubeClient.burst | quote }}
- name: NATS_URL
  value: {{ include "regatta.busUrl" .root | quote }}
{{- with .root.Values.bus.prefix }}
- name: REGATTA_BUS_PREFIX
  value: {{ . | quote }}
{{- end }}
{{- with .root.Values.bus.replicas }}
- name: REGATTA_BUS_REPLICAS
  value: {{ . | quote }}
{{- end }}
{{- with (and (not (include "regatta.busTokenAuth" .)) .root.Values.bus.credentialsSecret) }}
- name: NATS_USER
  valueFrom: { secretKeyRef: { name: {{ . }}, key: {{ printf "%s-user" $.role }} } }
- name: NATS_PASSWORD
  valueFrom: { secretKeyRef: { name: {{ . }}, key: {{ printf "%s-password" $.role }} } }
{{- end }}
{{- include "regatta.busAuthEnv" . }}
{{- with .root.Values.otlp.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
# the traces' resource, in OpenTelemetry's semantic conventions (service.name is the program's own)
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "service.version=%s,service.namespace=regatta,k8s.namespace.name=$(POD_NAMESPACE),k8s.pod.name=$(POD_NAME)" $.root.Chart.AppVersion | quote }}
{{- end }}
{{- with .root.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The bus's credentials and TLS files (docs/adr/0045): where they are mounted, and the variables naming them. */}}
{{- define "regatta.busAuthEnv" -}}
{{- $b := .root.Values.bus -}}
{{- if gt (len (compact (list $b.credentialsSecret $b.credsSecret $b.nkeySecret))) 1 -}}
{{- fail "set only one of bus.credentialsSecret, bus.credsSecret and bus.nkeySecret (docs/operations.md)" -}}
{{- end -}}
{{- if include "regatta.busTokenAuth" . }}
- name: NATS_TOKEN_FILE
  value: /var/run/secrets/regatta/bus/token
{{- else }}
{{- if $b.credsSecret }}
- name: NATS_CREDS_FILE
  value: {{ printf "/etc/regatta/bus/credentials/%s.creds" .role | quote }}
{{- end }}
{{- if $b.nkeySecret }}
- name: NATS_NKEY_SEED_FILE
  value: {{ printf "/etc/regatta/bus/credentials/%s.nk" .role | quote }}
{{- end }}
{{- end }}
{{- if include "regatta.busCallout" . }}
- name: REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE
  value: /etc/regatta/bus/callout/issuer.nk
- name: REGATTA_AUTH_CALLOUT_AUDIENCE
  value: {{ $b.authCallout.audience | quote }}
- name: REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT
  value: {{ printf "%s/regatta-imagepull-agent" .root.Release.Namespace | quote }}
{{- end }}
{{- if $b.tls.secret }}
- name: NATS_TLS_CA_FILE
  value: /etc/regatta/bus/tls/ca.crt
{{- if $b.tls.clientCertificate }}
- name: NATS_TLS_CERT_FILE
  value: /etc/regatta/bus/tls/tls.crt
- name: NATS_TLS_KEY_FILE
  value: /etc/regatta/bus/tls/tls.key
{{- end }}
{{- end }}
{{- with $b.tls.serverName }}
- name: NATS_TLS_SERVER_NAME
  value: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* volumeMounts entries of the bus's files; pass (dict "root" $ "role" …). */}}
{{- define "regatta.busVolumeMounts" -}}
{{- $b := .root.Values.bus -}}
{{- if include "regatta.busTokenAuth" . }}
- { name: bus-token, mountPath: /var/run/secrets/regatta/bus, readOnly: true }
{{- else if or $b.credsSecret $b.nkeySecret }}
- { name: bus-credentials, mountPath: /etc/regatta/bus/credentials, readOnly: true }
{{- end }}
{{- if include "regatta.busCallout" . }}
- { name: bus-callout, mountPath: /etc/regatta/bus/callout, readOnly: true }
{{- end }}
{{- if $b.tls.secret }}
- { name: bus-tls, mountPath: /etc/regatta/bus/tls, readOnly: true }
{{- end }}
{{- end -}}

{{/* volumes of the bus's files: a pod gets only its own role's key of the credentials Secret. */}}
{{- define "regatta.busVolumes" -}}
{{- $b := .root.Values.bus -}}
{{- $secret := $b.credsSecret | default $b.nkeySecret -}}
{{- if include "regatta.busTokenAuth" . }}
{{- $secret = "" }}
# the pod's own ServiceAccount token for the bus alone: bound to the pod (and so its node), short-lived
- name: bus-token
  projected:
    defaultMode: 288 # 0440
    sources:
      - serviceAccountToken:
          audience: {{ $b.authCallout.audience | quote }}
          expirationSeconds: {{ $b.authCallout.tokenExpirationSeconds }}
          path: token
{{- end }}
{{- if include "regatta.busCallout" . }}
- name: bus-callout
  secret:
    secretName: {{ $b.authCallout.issuerSecret }}
    defaultMode: 288 # 0440
    items:
      - { key: issuer.nk, path: issuer.nk }
{{- end }}
{{- with $secret }}
- name: bus-credentials
  secret:
    secretName: {{ . }}
    defaultMode: 288 # 0440, readable by the pod's fsGroup
    items:
      - { key: {{ printf "%s.%s" $.role (ternary "creds" "nk" (not (empty $b.credsSecret))) }}, path: {{ printf "%s.%s" $.role (ternary "creds" "nk" (not (empty $b.credsSecret))) }} }
{{- end }}
{{- with $b.tls.secret }}
- name: bus-tls
  secret:
    secretName: {{ . }}
    defaultMode: 288 # 0440
    items:
      - { key: ca.crt, path: ca.crt }
      {{- if $b.tls.clientCertificate }}
      - { key: tls.crt, path: tls.crt }
      - { key: tls.key, path: tls.key }
      {{- end }}
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
