// The Helm chart (deploy/helm/regatta) rendered by the real helm of the binary cache (tools/controlplane/build.sh
// helm), for the chart's tests: lint, template, golden lists of what each value set renders. The rendering itself is
// libs/local-cluster's (chart.ts), which the scenario tests share to run programs on the chart's RBAC.
import type { Manifest } from '@regatta/local-cluster';

export {
  BUNDLED_CHART_DIR,
  CHART_DIR,
  REPO_ROOT,
  bundledChartCopy,
  chartCopy,
  chartNotes,
  lintChart,
  parseManifests,
  templateChart,
  type Manifest,
} from '@regatta/local-cluster';

/** The value sets the tests render: `--set` lists over the chart's defaults. */
export const VALUE_SETS: Record<string, string[]> = {
  'all-on': ['bus.url=nats://nats.example:4222'],
  'only-cloneset': [
    'bus.url=nats://nats.example:4222',
    ...['asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull', 'advancedcronjob', 'broadcastjob', 'containerrecreaterequest', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
  // a production bus (docs/adr/0045): NKEY seeds and TLS with a client certificate, files from Secrets
  'only-cloneset-bus-nkeys-tls': [
    'bus.url=tls://nats.example:4222',
    ...['asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull', 'advancedcronjob', 'broadcastjob', 'containerrecreaterequest', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
    'bus.nkeySecret=regatta-bus-nkeys',
    'bus.tls.secret=nats-client-tls',
    'bus.tls.clientCertificate=true',
    'bus.tls.serverName=nats.nats.svc',
  ],
  // node agents authenticated by the auth callout (docs/adr/0059): each presents its bound ServiceAccount token
  'imagepull-bus-callout': [
    'bus.url=nats://nats.example:4222',
    ...['cloneset', 'asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'advancedcronjob', 'broadcastjob', 'containerrecreaterequest', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
    'bus.credentialsSecret=regatta-bus',
    'bus.nodeAgentAuth=callout',
    'bus.authCallout.issuerSecret=regatta-bus-callout',
  ],
  // an AdvancedCronJob alone: its CRD and BroadcastJob's (a broadcastJobTemplate creates them), its RBAC
  'only-advancedcronjob': [
    'bus.url=nats://nats.example:4222',
    ...['cloneset', 'asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull', 'broadcastjob', 'containerrecreaterequest', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
  'only-broadcastjob': [
    'bus.url=nats://nats.example:4222',
    ...['cloneset', 'asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull', 'advancedcronjob', 'containerrecreaterequest', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
  // a ContainerRecreateRequest alone: its manager, the node agents (their recreate duty) and the watcher
  'only-containerrecreaterequest': [
    'bus.url=nats://nats.example:4222',
    ...['cloneset', 'asts', 'ads', 'sidecarset', 'uniteddeployment', 'resourcedistribution', 'imagepull', 'advancedcronjob', 'broadcastjob', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
  'only-sidecarset': [
    'bus.url=nats://nats.example:4222',
    ...['cloneset', 'asts', 'ads', 'uniteddeployment', 'resourcedistribution', 'imagepull', 'advancedcronjob', 'broadcastjob', 'containerrecreaterequest', 'workloadspread'].map(
      (c) => `controllers.${c}.enabled=false`,
    ),
  ],
};

/** `Kind name` lines, sorted: what a golden file lists. */
export function inventory(manifests: Manifest[]): string[] {
  return manifests.map((m) => `${m.kind} ${m.metadata.name}`).sort();
}
