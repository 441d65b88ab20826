// The Helm chart, rendered by the real helm: lint, golden lists of what each value set renders, and the facts a
// user relies on (only enabled controllers get CRDs and programs; least-privilege RBAC; pods fit a restricted
// namespace). Goldens: tools/deploy/golden/<value set>.txt; UPDATE_GOLDEN=1 rewrites them.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  VALUE_SETS,
  bundledChartCopy,
  chartCopy,
  chartNotes,
  inventory,
  lintChart,
  parseManifests,
  templateChart,
  type Manifest,
} from './chart.js';
import { grants, rulesOf, type PodSpec } from './chart-testing.js';
import { IMAGE_USER } from '../release/image.js';

const GOLDEN = new URL('./golden/', import.meta.url);
let chart: ReturnType<typeof chartCopy>;
const rendered: Record<string, Manifest[]> = {};

beforeAll(() => {
  chart = chartCopy();
  for (const [name, set] of Object.entries(VALUE_SETS))
    rendered[name] = parseManifests(templateChart(chart.dir, set));
}, 120_000);
afterAll(() => chart?.dispose());

// helm runs as a process per check: seconds each on a loaded machine
describe('deploy/helm/regatta', { timeout: 60_000 }, () => {
  it.each(Object.keys(VALUE_SETS))('passes helm lint --strict (%s)', (name) => {
    expect(lintChart(chart.dir, VALUE_SETS[name]!)).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it.each(Object.keys(VALUE_SETS))('renders what the golden file lists (%s)', (name) => {
    const got = inventory(rendered[name]!).join('\n') + '\n';
    const file = new URL(`${name}.txt`, GOLDEN);
    if (process.env['UPDATE_GOLDEN']) writeFileSync(file, got);
    expect(got).toBe(readFileSync(file, 'utf8'));
  });

  it('deletion protection: the policies and list on every resource only with its gates on (docs/adr/0079)', () => {
    const on = rendered['only-deletionprotection']!;
    const dp = (m: { kind: string; metadata: { name: string } }) =>
      m.kind.startsWith('ValidatingAdmissionPolicy') && m.metadata.name.startsWith('regatta-deletion-protection');
    expect(on.filter(dp).length).toBe(4);
    expect(grants(rulesOf(on, 'ClusterRole', 'regatta-deletionprotection'))).toContain('list */*');
    const off = rendered['all-on']!;
    expect(off.some(dp)).toBe(false);
    expect([...grants(rulesOf(off, 'ClusterRole', 'regatta-deletionprotection'))].filter((g) => g.startsWith('list'))).toEqual([]);
  });

  it('the CRD validation policies come with their CRDs (docs/adr/0088)', () => {
    const names = rendered['only-cloneset']!.filter((m) => m.kind.startsWith('ValidatingAdmissionPolicy')).map((m) => m.metadata.name);
    expect(names).toEqual(['regatta-cloneset-validation', 'regatta-cloneset-validation']);
    expect(rendered['all-on']!.filter((m) => m.kind === 'ValidatingAdmissionPolicy' && m.metadata.name.endsWith('-validation')).length).toBe(4);
  });

  it('with only cloneset: the watcher and the CloneSet program, its CRDs (ImagePullJob for pre-download), Service and RBAC, the node agent for container meta alone, nothing of the others', () => {
    const ms = rendered['only-cloneset']!;
    expect(ms.filter((m) => m.kind === 'CustomResourceDefinition').map((m) => m.metadata.name)).toEqual([
      'clonesets.apps.kruise.io',
      'imagepulljobs.apps.kruise.io',
    ]);
    expect(
      ms
        .filter((m) => m.kind === 'Deployment')
        .map((m) => m.metadata.name)
        .sort(),
    ).toEqual(['regatta-cloneset', 'regatta-watcher']);
    // the node agent with its container meta duty alone: env-from-metadata in-place updates (docs/adr/0084)
    const agents = ms.filter((m) => m.kind === 'DaemonSet');
    expect(agents.map((m) => m.metadata.name)).toEqual(['regatta-imagepull-agent']);
    const env = (agents[0]!['spec'] as { template: { spec: PodSpec } }).template.spec.containers[0]!.env;
    expect(env.find((e) => e.name === 'REGATTA_NODE_AGENT_DUTIES')?.value).toBe('containermeta');
  });

  it('every generated CRD (deploy/crds) belongs to some controller and renders with all on', () => {
    const files = readdirSync(join(REPO_ROOT, 'deploy', 'crds')).filter((f) => f.endsWith('.yaml'));
    const crds = new Set(
      rendered['all-on']!.filter((m) => m.kind === 'CustomResourceDefinition').map((m) => m.metadata.name),
    );
    for (const f of files) {
      const [group = '', plural = ''] = f.replace(/\.yaml$/, '').split('_');
      expect(crds, f).toContain(`${plural}.${group}`);
    }
  });

  it("programs run non-root as the images' own user on a read-only root filesystem, with probes on the health port", () => {
    for (const d of rendered['all-on']!.filter((m) => m.kind === 'Deployment')) {
      const spec = (d['spec'] as { template: { spec: PodSpec } }).template.spec;
      expect(spec.securityContext.runAsNonRoot, d.metadata.name).toBe(true);
      expect(spec.securityContext.runAsUser, d.metadata.name).toBe(IMAGE_USER);
      const c = spec.containers[0]!;
      expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
      expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.image).toBe(`ghcr.io/regatta/${d.metadata.name}:0.1.0`);
    }
    const watcher = rendered['all-on']!.find(
      (m) => m.kind === 'Deployment' && m.metadata.name === 'regatta-watcher',
    );
    expect((watcher?.['spec'] as { replicas: number }).replicas).toBe(2);
  });

  it('feature gates, namespace selector, log level, API client limits, OTLP endpoint and trace resource reach the program as its variables', () => {
    const ms = parseManifests(
      templateChart(chart.dir, [
        ...VALUE_SETS['only-cloneset']!,
        'controllers.cloneset.featureGates.PreparingUpdateAsUpdate=true',
        'controllers.cloneset.featureGates.CloneSetEventHandlerOptimization=false',
        'controllers.cloneset.namespaceSelector.team=payments',
        'logLevel=debug',
        'kubeClient.qps=50',
        'otlp.endpoint=http://jaeger:4318',
        'bus.credentialsSecret=regatta-bus',
      ]),
    );
    const d = ms.find((m) => m.kind === 'Deployment' && m.metadata.name === 'regatta-cloneset')!;
    const env = (d['spec'] as { template: { spec: PodSpec } }).template.spec.containers[0]!.env;
    const value = (n: string) => env.find((e) => e.name === n)?.value;
    expect(value('REGATTA_FEATURE_GATES')).toBe(
      'CloneSetEventHandlerOptimization=false,PreparingUpdateAsUpdate=true',
    );
    expect(value('REGATTA_NAMESPACE_SELECTOR')).toBe('team=payments');
    expect(value('LOG_LEVEL')).toBe('debug');
    expect([value('REGATTA_KUBE_QPS'), value('REGATTA_KUBE_BURST')]).toEqual(['50', '400']);
    expect(value('OTEL_EXPORTER_OTLP_ENDPOINT')).toBe('http://jaeger:4318');
    // the traces' resource in semantic conventions, the pod's names expanded by the kubelet from the variables above
    expect(value('OTEL_RESOURCE_ATTRIBUTES')).toBe(
      'service.version=0.1.0,service.namespace=regatta,k8s.namespace.name=$(POD_NAMESPACE),k8s.pod.name=$(POD_NAME)',
    );
    expect(env.findIndex((e) => e.name === 'POD_NAME')).toBeLessThan(
      env.findIndex((e) => e.name === 'OTEL_RESOURCE_ATTRIBUTES'),
    );
    expect(env.find((e) => e.name === 'NATS_USER')?.valueFrom).toEqual({
      secretKeyRef: { name: 'regatta-bus', key: 'cloneset-user' },
    });
    // the API server reaches the webhooks through the Service; the program's ClusterRole owns their configurations
    expect(value('REGATTA_WEBHOOK_SERVICE')).toBe('regatta-system/regatta-cloneset:443');
    expect(value('REGATTA_WEBHOOK_OWNER')).toBe('regatta-cloneset');
    expect(value('REGATTA_WEBHOOK_URL')).toBeUndefined();
  });

  it('controllers.imagepull.daemonConfigNamespace moves the pull-secret copies: the namespace, both Roles, the variable', () => {
    const inNs = (ms: Manifest[], ns: string) => {
      const d = ms.find((m) => m.kind === 'Deployment' && m.metadata.name === 'regatta-imagepull')!;
      const env = (d['spec'] as { template: { spec: PodSpec } }).template.spec.containers[0]!.env;
      expect(env.find((e) => e.name === 'KRUISE_DAEMON_CONFIG_NS')?.value).toBe(ns);
      expect(ms.filter((m) => m.kind === 'Namespace').map((m) => m.metadata.name)).toEqual([ns]);
      for (const role of ['regatta-imagepull-pull-secrets', 'regatta-imagepull-agent-pull-secrets'])
        for (const kind of ['Role', 'RoleBinding'])
          expect(ms.find((m) => m.kind === kind && m.metadata.name === role)?.metadata.namespace, role).toBe(
            ns,
          );
      const nsRead = rulesOf(ms, 'ClusterRole', 'regatta-imagepull').find((r) =>
        r.resources.includes('namespaces'),
      );
      expect(nsRead?.resourceNames).toEqual([ns]);
    };
    inNs(rendered['all-on']!, 'kruise-daemon-config'); // upstream's name by default
    inNs(
      parseManifests(
        templateChart(chart.dir, [
          ...VALUE_SETS['all-on']!,
          'controllers.imagepull.daemonConfigNamespace=pull-secrets',
        ]),
      ),
      'pull-secrets',
    );
  });

  it('the node agent gets its node and CRI socket under the names apps/imagepull-agent/src/main.ts reads', () => {
    const ds = rendered['all-on']!.find(
      (m) => m.kind === 'DaemonSet' && m.metadata.name === 'regatta-imagepull-agent',
    )!;
    const env = (ds['spec'] as { template: { spec: PodSpec } }).template.spec.containers[0]!.env;
    expect(env.find((e) => e.name === 'CRI_SOCKET')?.value).toBe('/run/containerd/containerd.sock');
    expect(env.find((e) => e.name === 'NODE_NAME')?.valueFrom).toEqual({
      fieldRef: { fieldPath: 'spec.nodeName' },
    });
  });

  it('bus NKEYs or credentials files and TLS: each pod mounts its own key and the CA read-only, and is told where', () => {
    const ms = rendered['only-cloneset-bus-nkeys-tls']!;
    for (const role of ['cloneset', 'watcher']) {
      const d = ms.find((m) => m.kind === 'Deployment' && m.metadata.name === `regatta-${role}`)!;
      const spec = (d['spec'] as { template: { spec: PodSpec } }).template.spec;
      const c = spec.containers[0]!;
      const value = (n: string) => c.env.find((e) => e.name === n)?.value;
      expect(value('NATS_NKEY_SEED_FILE'), role).toBe(`/etc/regatta/bus/credentials/${role}.nk`);
      expect(value('NATS_TLS_CA_FILE')).toBe('/etc/regatta/bus/tls/ca.crt');
      expect(value('NATS_TLS_CERT_FILE')).toBe('/etc/regatta/bus/tls/tls.crt');
      expect(value('NATS_TLS_KEY_FILE')).toBe('/etc/regatta/bus/tls/tls.key');
      expect(value('NATS_TLS_SERVER_NAME')).toBe('nats.nats.svc');
      expect(c.env.some((e) => e.name === 'NATS_USER' || e.name === 'NATS_CREDS_FILE')).toBe(false);
      expect(c.volumeMounts).toContainEqual({
        name: 'bus-credentials',
        mountPath: '/etc/regatta/bus/credentials',
        readOnly: true,
      });
      expect(c.volumeMounts).toContainEqual({
        name: 'bus-tls',
        mountPath: '/etc/regatta/bus/tls',
        readOnly: true,
      });
      // only this program's seed, not the others' keys of the Secret
      expect(spec.volumes.find((v) => v.name === 'bus-credentials')?.secret).toEqual({
        secretName: 'regatta-bus-nkeys',
        defaultMode: 0o440,
        items: [{ key: `${role}.nk`, path: `${role}.nk` }],
      });
      expect(spec.volumes.find((v) => v.name === 'bus-tls')?.secret?.items?.map((i) => i.key)).toEqual([
        'ca.crt',
        'tls.crt',
        'tls.key',
      ]);
    }

    const creds = parseManifests(
      templateChart(chart.dir, [...VALUE_SETS['only-cloneset']!, 'bus.credsSecret=regatta-bus-creds']),
    );
    const d = creds.find((m) => m.kind === 'Deployment' && m.metadata.name === 'regatta-cloneset')!;
    const spec = (d['spec'] as { template: { spec: PodSpec } }).template.spec;
    expect(spec.containers[0]!.env.find((e) => e.name === 'NATS_CREDS_FILE')?.value).toBe(
      '/etc/regatta/bus/credentials/cloneset.creds',
    );
    expect(spec.volumes.find((v) => v.name === 'bus-credentials')?.secret?.items).toEqual([
      { key: 'cloneset.creds', path: 'cloneset.creds' },
    ]);
    expect(spec.volumes.some((v) => v.name === 'bus-tls')).toBe(false);
  });

  it("bus.nodeAgentAuth=callout: each agent presents its pod's bound token; the imagepull program reviews it and signs", () => {
    const ms = rendered['imagepull-bus-callout']!;
    const podOf = (kind: string, name: string) =>
      (
        ms.find((m) => m.kind === kind && m.metadata.name === name)!['spec'] as {
          template: { spec: PodSpec };
        }
      ).template.spec;
    const agent = podOf('DaemonSet', 'regatta-imagepull-agent');
    const a = agent.containers[0]!;
    expect(a.env.find((e) => e.name === 'NATS_TOKEN_FILE')?.value).toBe('/var/run/secrets/regatta/bus/token');
    // the shared imagepull credentials are not the agents' any more
    expect(a.env.some((e) => e.name === 'NATS_USER' || e.name === 'NATS_PASSWORD')).toBe(false);
    expect(a.env.some((e) => e.name.startsWith('REGATTA_AUTH_CALLOUT_'))).toBe(false);
    expect(a.volumeMounts).toContainEqual({
      name: 'bus-token',
      mountPath: '/var/run/secrets/regatta/bus',
      readOnly: true,
    });
    expect(agent.volumes.find((v) => v.name === 'bus-token')?.projected).toEqual({
      defaultMode: 0o440,
      sources: [{ serviceAccountToken: { audience: 'regatta-bus', expirationSeconds: 3600, path: 'token' } }],
    });
    expect(agent.volumes.some((v) => v.name === 'bus-callout')).toBe(false);

    const program = podOf('Deployment', 'regatta-imagepull');
    const c = program.containers[0]!;
    const value = (n: string) => c.env.find((e) => e.name === n)?.value;
    expect(c.env.find((e) => e.name === 'NATS_USER')?.valueFrom).toEqual({
      secretKeyRef: { name: 'regatta-bus', key: 'imagepull-user' },
    });
    expect(value('REGATTA_AUTH_CALLOUT_ISSUER_SEED_FILE')).toBe('/etc/regatta/bus/callout/issuer.nk');
    expect(value('REGATTA_AUTH_CALLOUT_AUDIENCE')).toBe('regatta-bus');
    expect(value('REGATTA_AUTH_CALLOUT_SERVICE_ACCOUNT')).toBe('regatta-system/regatta-imagepull-agent');
    expect(value('NATS_TOKEN_FILE')).toBeUndefined();
    expect(program.volumes.find((v) => v.name === 'bus-callout')?.secret).toEqual({
      secretName: 'regatta-bus-callout',
      defaultMode: 0o440,
      items: [{ key: 'issuer.nk', path: 'issuer.nk' }],
    });
    // it may create TokenReviews, and that is all the callout adds
    expect([...grants(rulesOf(ms, 'ClusterRole', 'regatta-imagepull-tokenreview'))]).toEqual([
      'create authentication.k8s.io/tokenreviews',
    ]);
    const binding = ms.find(
      (m) => m.kind === 'ClusterRoleBinding' && m.metadata.name === 'regatta-imagepull-tokenreview',
    )!;
    expect(binding['subjects']).toEqual([
      { kind: 'ServiceAccount', name: 'regatta-imagepull', namespace: 'regatta-system' },
    ]);

    // the default (shared): the agents use the imagepull role's credentials, no callout, no TokenReviews
    const shared = rendered['all-on']!;
    const sharedAgent = (
      shared.find((m) => m.kind === 'DaemonSet' && m.metadata.name === 'regatta-imagepull-agent')![
        'spec'
      ] as {
        template: { spec: PodSpec };
      }
    ).template.spec;
    expect(sharedAgent.volumes.some((v) => v.name === 'bus-token')).toBe(false);
    expect(shared.some((m) => m.metadata.name === 'regatta-imagepull-tokenreview')).toBe(false);
  });

  it("the install notes say when the bus is open, and when node agents share the imagepull program's bus user", () => {
    const url = 'bus.url=nats://nats.example:4222';
    const open = chartNotes(chart.dir, [url]);
    expect(open).toContain('The bus is open');
    // how to follow a rollout, and where the dashboard and alerts are
    expect(open).toContain('regatta list -A');
    expect(open).toContain('deploy/observability');
    const shared = chartNotes(chart.dir, [url, 'bus.credentialsSecret=regatta-bus']);
    expect(shared).not.toContain('The bus is open');
    expect(shared).toContain('bus.nodeAgentAuth=shared');
    const callout = chartNotes(chart.dir, VALUE_SETS['imagepull-bus-callout']!);
    expect(callout).not.toContain('bus.nodeAgentAuth=shared');
    expect(callout).not.toContain('The bus is open');
  });

  it('refuses a callout without its issuer, and an unknown bus.nodeAgentAuth', () => {
    const set = VALUE_SETS['imagepull-bus-callout']!.filter(
      (v) => !v.startsWith('bus.authCallout.issuerSecret='),
    );
    expect(() => templateChart(chart.dir, set)).toThrow(
      /bus.nodeAgentAuth=callout needs bus.authCallout.issuerSecret/,
    );
    expect(() => templateChart(chart.dir, [...VALUE_SETS['all-on']!, 'bus.nodeAgentAuth=token'])).toThrow(
      /bus.nodeAgentAuth is shared or callout, not token/,
    );
  });

  it('refuses two ways to authenticate to the bus', () => {
    expect(() =>
      templateChart(chart.dir, [
        ...VALUE_SETS['only-cloneset']!,
        'bus.credentialsSecret=regatta-bus',
        'bus.nkeySecret=regatta-bus-nkeys',
      ]),
    ).toThrow(/set only one of bus.credentialsSecret, bus.credsSecret and bus.nkeySecret/);
  });

  it('with NATS bundled (deploy/helm/regatta-with-nats), the programs find its Service; ServiceMonitors on request', () => {
    const only = VALUE_SETS['only-cloneset']!.filter((v) => !v.startsWith('bus.url='));
    const bundled = bundledChartCopy();
    let ms: Manifest[];
    try {
      ms = parseManifests(
        templateChart(
          bundled.dir,
          [...only, 'metrics.serviceMonitor.enabled=true'].map((v) => `regatta.${v}`),
        ),
      );
    } finally {
      bundled.dispose();
    }
    const d = ms.find((m) => m.kind === 'Deployment' && m.metadata.name === 'regatta-cloneset')!;
    const env = (d['spec'] as { template: { spec: PodSpec } }).template.spec.containers[0]!.env;
    expect(env.find((e) => e.name === 'NATS_URL')?.value).toBe('nats://regatta-nats.regatta-system.svc:4222');
    // the bundled NATS is a three-server cluster: buckets on all three (docs/operations.md "A clustered bus")
    expect(env.find((e) => e.name === 'REGATTA_BUS_REPLICAS')?.value).toBe('3');
    expect(
      ms
        .filter((m) => m.kind === 'ServiceMonitor')
        .map((m) => m.metadata.name)
        .sort(),
    ).toEqual(['regatta-cloneset', 'regatta-watcher']);
  });

  it('refuses to render without a bus, saying where one comes from', () => {
    expect(() => templateChart(chart.dir, [])).toThrow(
      /set bus.url to an existing NATS with JetStream, or install deploy\/helm\/regatta-with-nats/,
    );
  });

  it('renders from the repository as it is: no dependency to build, no charts/ folder (issue 48)', () => {
    expect(existsSync(join(REPO_ROOT, 'deploy', 'helm', 'regatta', 'charts'))).toBe(false);
    expect(readFileSync(join(REPO_ROOT, 'deploy', 'helm', 'regatta', 'Chart.yaml'), 'utf8')).not.toMatch(
      /^dependencies:/m,
    );
    expect(
      parseManifests(
        templateChart(join(REPO_ROOT, 'deploy', 'helm', 'regatta'), VALUE_SETS['only-cloneset']!),
      ).length,
    ).toBeGreaterThan(0);
  });

  it('keeps its goldens for every value set', () => {
    for (const name of Object.keys(VALUE_SETS))
      expect(existsSync(new URL(`${name}.txt`, GOLDEN)), name).toBe(true);
  });
});
