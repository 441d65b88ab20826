// The chart's RBAC and names, rendered by the real helm: what each program may read and write (least privilege,
// checked rule by rule), the webhook configurations each may touch pinned to the names its library builds, the
// aggregated user roles, and names scoped by release so that two releases never collide (docs/adr/0094).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOW_LIST } from '@regatta/mirror';
import { CONTROLLER_NAMES, webhookConfigurationName } from '@regatta/runtime';
import { cloneSetWebhookConfigurations } from '@regatta/cloneset';
import { podWebhookConfigurationName as sidecarSetPodWebhooks } from '@regatta/sidecarset';
import { podWebhookConfigurationName as workloadSpreadPodWebhooks } from '@regatta/workloadspread';
import { VALUE_SETS, chartCopy, inventory, parseManifests, templateChart, type Manifest } from './chart.js';
import { grants, rulesOf, templateRelease, type PodSpec, type Rule } from './chart-testing.js';

let chart: ReturnType<typeof chartCopy>;
const rendered: Record<string, Manifest[]> = {};
const SETS = ['all-on', 'only-cloneset', 'only-sidecarset', 'only-broadcastjob'] as const;

beforeAll(() => {
  chart = chartCopy();
  for (const name of SETS) rendered[name] = parseManifests(templateChart(chart.dir, VALUE_SETS[name]!));
}, 120_000);
afterAll(() => chart?.dispose());

const ADMISSION = 'admissionregistration.k8s.io';
const CONFIGURATIONS = ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'];
/** The rules of a ClusterRole on webhook configurations. */
const webhookRules = (ms: Manifest[], role: string): Rule[] =>
  rulesOf(ms, 'ClusterRole', role).filter(
    (r) => r.apiGroups.includes(ADMISSION) && r.resources.some((x) => CONFIGURATIONS.includes(x)),
  );
/** The configuration names the program of `c` keeps under `scope`, as its library builds them. */
function keptNames(c: string, scope?: { matchLabels: Record<string, string> }): string[] {
  const pods = { sidecarset: sidecarSetPodWebhooks, workloadspread: workloadSpreadPodWebhooks }[c];
  return [webhookConfigurationName(c, scope), ...(pods ? [pods(scope)] : [])];
}
const CLUSTER_SCOPED = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'Namespace',
  'CustomResourceDefinition',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
]);

describe('deploy/helm/regatta RBAC and names', { timeout: 60_000 }, () => {
  it('the watcher may only list and watch what the enabled controllers read (libs/mirror CONTROLLER_READS)', () => {
    // every controller alone (a platform team may deploy just one), and all of them
    const sets: [string, Manifest[], readonly string[]][] = [
      ['all-on', rendered['all-on']!, CONTROLLER_NAMES],
      ...CONTROLLER_NAMES.map((only): [string, Manifest[], string[]] => [
        `only-${only}`,
        parseManifests(
          templateChart(chart.dir, [
            'bus.url=nats://nats.example:4222',
            ...CONTROLLER_NAMES.filter((c) => c !== only).map((c) => `controllers.${c}.enabled=false`),
          ]),
        ),
        [only],
      ]),
    ];
    for (const [set, ms, controllers] of sets) {
      const want = new Set<string>();
      for (const c of controllers) {
        for (const id of DEFAULT_ALLOW_LIST.get(c) ?? []) {
          // resource ids are plural.version[.group]: pods.v1, controllerrevisions.v1.apps
          const [plural, , ...group] = id.split('.');
          for (const verb of ['list', 'watch']) want.add(`${verb} ${group.join('.')}/${plural}`);
        }
      }
      // and its one write: the Warning event on an object too large for the bus
      for (const verb of ['create', 'patch']) want.add(`${verb} /events`);
      const got = grants(rulesOf(ms, 'ClusterRole', 'regatta-watcher'));
      expect([...got].sort(), set).toEqual([...want].sort());
    }
  });

  it('a controller lists and watches nothing, and only the Secret program may write Secrets cluster-wide', () => {
    const ms = rendered['all-on']!;
    for (const c of CONTROLLER_NAMES) {
      const got = grants(rulesOf(ms, 'ClusterRole', `regatta-${c}`));
      // the live lists: the Advanced StatefulSet webhook reads the StorageClasses (the default class) when an
      // update may resize claims (libs/asts webhooks.ts); the UnitedDeployment program reads back a subset create
      // without an answer by its label (docs/adr/0061); the SidecarSet program finds the injection policies of
      // SidecarSets gone by their label (docs/adr/0089); nothing is watched
      const live =
        {
          asts: ['list storage.k8s.io/storageclasses'],
          sidecarset: [
            'list admissionregistration.k8s.io/mutatingadmissionpolicies',
            'list admissionregistration.k8s.io/mutatingadmissionpolicybindings',
          ],
          uniteddeployment: [
            'list apps.kruise.io/clonesets',
            'list apps.kruise.io/statefulsets',
            'list apps/statefulsets',
            'list apps/deployments',
          ],
        }[c as string] ?? [];
      expect(
        [...got].filter((g) => /^(list|watch) /.test(g)),
        c,
      ).toEqual(live);
      const secrets = [...got].filter((g) => g.endsWith(' /secrets'));
      // imagepull reads a job's pull secrets in the job's namespace, and writes its copies only in one namespace
      const expected = { resourcedistribution: secrets, imagepull: ['get /secrets'] }[c as string] ?? [];
      expect(secrets, c).toEqual(expected);
    }
    expect(grants(rulesOf(ms, 'ClusterRole', 'regatta-cloneset'))).not.toContain('get /secrets');
    expect(grants(rulesOf(ms, 'ClusterRole', 'regatta-resourcedistribution'))).toContain('create /secrets');
    const copies = ms.find((m) => m.kind === 'Role' && m.metadata.name === 'regatta-imagepull-pull-secrets')!;
    expect(copies.metadata.namespace).toBe('kruise-daemon-config');
    expect(grants(copies['rules'] as Rule[])).toEqual(
      new Set(['list /secrets', 'create /secrets', 'update /secrets', 'delete /secrets']),
    );
    // the node agents read the copies there, and Secrets nowhere else
    expect(
      [...grants(rulesOf(ms, 'ClusterRole', 'regatta-imagepull-agent'))].filter((g) =>
        g.endsWith('/secrets'),
      ),
    ).toEqual([]);
    const agentSecrets = ms.find(
      (m) => m.kind === 'Role' && m.metadata.name === 'regatta-imagepull-agent-pull-secrets',
    )!;
    expect(agentSecrets.metadata.namespace).toBe('kruise-daemon-config');
    expect(grants(agentSecrets['rules'] as Rule[])).toEqual(new Set(['get /secrets']));
  });

  it('a controller writes each status one way, and replaces no kind it only patches', () => {
    const ms = rendered['all-on']!;
    // the workloads' status writer (libs/workload status-writer) and the pods' readiness writes merge-patch; the
    // ImagePullJob, NodeImage and BroadcastJob controllers replace theirs (libs/imagepull job- and
    // nodeimage-reconciler, libs/broadcastjob reconciler)
    const replaced = new Set([
      'apps.kruise.io/imagepulljobs/status',
      'apps.kruise.io/nodeimages/status',
      'apps.kruise.io/broadcastjobs/status',
      // the budget is spent on the version read, conflicts re-read (libs/podunavailablebudget store.ts)
      'policy.kruise.io/podunavailablebudgets/status',
      // the WorkloadSpread's webhook and controller both write it, on the version read (libs/workloadspread)
      'apps.kruise.io/workloadspreads/status',
    ]);
    for (const c of CONTROLLER_NAMES) {
      const got = grants(rulesOf(ms, 'ClusterRole', `regatta-${c}`));
      for (const g of got) {
        const [verb, resource = ''] = g.split(' ');
        if (!resource.endsWith('/status') || (verb !== 'update' && verb !== 'patch')) continue;
        expect(`${c}: ${verb} ${resource}`).toBe(
          `${c}: ${replaced.has(resource) ? 'update' : 'patch'} ${resource}`,
        );
      }
    }
    // a controller's own kind: patched (finalizers, annotations), never replaced
    for (const [c, own] of [
      ['cloneset', 'clonesets'],
      ['asts', 'statefulsets'],
      ['ads', 'daemonsets'],
      ['sidecarset', 'sidecarsets'],
      ['uniteddeployment', 'uniteddeployments'],
      ['resourcedistribution', 'resourcedistributions'],
      ['imagepull', 'imagepulljobs'],
      ['broadcastjob', 'broadcastjobs'],
    ] as const)
      expect(grants(rulesOf(ms, 'ClusterRole', `regatta-${c}`)), c).not.toContain(
        `update apps.kruise.io/${own}`,
      );
    // pods of the workload controllers and the SidecarSet upgrade are patched on the version read, never PUT: their
    // caches hold projections (docs/adr/0060-pod-projection.md)
    for (const c of ['cloneset', 'asts', 'ads', 'sidecarset'] as const) {
      const got = grants(rulesOf(ms, 'ClusterRole', `regatta-${c}`));
      expect(got, c).not.toContain('update /pods');
      expect(got, c).toContain('patch /pods');
    }
  });

  it('each program reads only its own webhook Secret and renews only its own Lease in the Lease namespace', () => {
    const rules = rulesOf(rendered['only-cloneset']!, 'Role', 'regatta-cloneset-lease');
    expect(rules).toContainEqual({
      apiGroups: [''],
      resources: ['secrets'],
      resourceNames: ['regatta-cloneset-webhook-certs'],
      verbs: ['get'],
    });
    expect(rules).toContainEqual({
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: ['regatta-cloneset'],
      verbs: ['get', 'update'],
    });
    // SidecarSets are cluster-scoped; their revisions live in the Lease namespace only (docs/adr/0027)
    const sidecarset = rendered['only-sidecarset']!;
    expect(grants(rulesOf(sidecarset, 'ClusterRole', 'regatta-sidecarset'))).not.toContain(
      'create apps/controllerrevisions',
    );
    expect(grants(rulesOf(sidecarset, 'Role', 'regatta-sidecarset-lease'))).toContain(
      'create apps/controllerrevisions',
    );
    const watcher = rulesOf(rendered['only-cloneset']!, 'Role', 'regatta-watcher-lease');
    expect(watcher.some((r) => r.resources.includes('secrets'))).toBe(false);
  });

  it("adds Regatta's kinds to the view, edit and admin roles by aggregation, and can leave that out", () => {
    const roles = (ms: Manifest[]) =>
      ms
        .filter((m) => m.kind === 'ClusterRole' && m.metadata.name.includes('aggregate-to'))
        .map((m) => [
          m.metadata.name,
          Object.keys(m.metadata.labels ?? {}).filter((l) => l.includes('aggregate')),
        ]);
    expect(roles(rendered['all-on']!)).toEqual([
      [
        'regatta-aggregate-to-view',
        [
          'rbac.authorization.k8s.io/aggregate-to-view',
          'rbac.authorization.k8s.io/aggregate-to-edit',
          'rbac.authorization.k8s.io/aggregate-to-admin',
        ],
      ],
      [
        'regatta-aggregate-to-edit',
        ['rbac.authorization.k8s.io/aggregate-to-edit', 'rbac.authorization.k8s.io/aggregate-to-admin'],
      ],
    ]);
    const off = parseManifests(
      templateChart(chart.dir, [...VALUE_SETS['only-cloneset']!, 'rbac.aggregatedRoles=false']),
    );
    expect(roles(off)).toEqual([]);
  });

  it('each program gets, applies and creates only the webhook configurations it keeps; the sweep is its one verb on any name (docs/adr/0085)', () => {
    // the library's own builder and the names the test derives agree (a check of keptNames itself)
    expect(
      Object.values(cloneSetWebhookConfigurations('https://x', 'ca')).map((c) => c.metadata?.name),
    ).toEqual(['regatta-cloneset', 'regatta-cloneset']);
    // the scope as the chart passes it: REGATTA_NAMESPACE_SELECTOR with its keys sorted
    const scoped = parseManifests(
      templateChart(chart.dir, [
        ...VALUE_SETS['all-on']!,
        'controllerDefaults.namespaceSelector.team=a',
        'controllerDefaults.namespaceSelector.env=prod',
      ]),
    );
    const scope = { matchLabels: { env: 'prod', team: 'a' } };
    for (const [ms, s] of [
      [rendered['all-on']!, undefined],
      [scoped, scope],
    ] as const) {
      for (const c of CONTROLLER_NAMES) {
        expect(webhookRules(ms, `regatta-${c}`), c).toEqual([
          {
            apiGroups: [ADMISSION],
            resources: CONFIGURATIONS,
            resourceNames: keptNames(c, s),
            verbs: ['get', 'create', 'patch'],
          },
          { apiGroups: [ADMISSION], resources: CONFIGURATIONS, verbs: ['deletecollection'] },
        ]);
      }
    }
    expect(keptNames('sidecarset', scope)).toEqual([
      'regatta-sidecarset-prod-a',
      'regatta-sidecarset-pods-prod-a',
    ]);
    // a label with an empty value adds nothing to the names; only empty values: `-scoped`
    const empty = parseManifests(
      templateChart(chart.dir, [
        ...VALUE_SETS['only-cloneset']!,
        'controllers.cloneset.namespaceSelector.team=',
      ]),
    );
    expect(webhookRules(empty, 'regatta-cloneset')[0]?.resourceNames).toEqual([
      webhookConfigurationName('cloneset', { matchLabels: { team: '' } }),
    ]);
    // rbac.pinWebhookConfigurationNames=false: any name (the scenario tests' programs serve scopes of their own)
    const any = parseManifests(
      templateChart(chart.dir, [...VALUE_SETS['only-cloneset']!, 'rbac.pinWebhookConfigurationNames=false']),
    );
    expect(webhookRules(any, 'regatta-cloneset')[0]).toEqual({
      apiGroups: [ADMISSION],
      resources: CONFIGURATIONS,
      verbs: ['get', 'create', 'patch'],
    });
  });

  it('crds.managed=false leaves every CRD out and nothing else', () => {
    const off = parseManifests(templateChart(chart.dir, [...VALUE_SETS['all-on']!, 'crds.managed=false']));
    expect(off.filter((m) => m.kind === 'CustomResourceDefinition')).toEqual([]);
    expect(inventory(off)).toEqual(
      inventory(rendered['all-on']!.filter((m) => m.kind !== 'CustomResourceDefinition')),
    );
  });

  it('names its cluster-scoped objects, and those in the shared daemon config namespace, for the release', () => {
    const set = [
      ...VALUE_SETS['all-on']!,
      'controllerDefaults.featureGates.ResourcesDeletionProtection=true',
      'bus.credentialsSecret=regatta-bus',
      'bus.nodeAgentAuth=callout',
      'bus.authCallout.issuerSecret=regatta-bus-callout',
    ];
    const a = templateRelease(chart.dir, 'regatta', 'regatta-system', set);
    const b = templateRelease(chart.dir, 'team-b', 'team-b', set);
    const shared = (ms: Manifest[]) =>
      ms.filter((m) => CLUSTER_SCOPED.has(m.kind) || m.metadata.namespace === 'kruise-daemon-config');
    // the release `regatta` keeps the plain names; another gets <release>-regatta-…
    for (const m of shared(b)) {
      if (m.kind === 'CustomResourceDefinition' || m.kind === 'Namespace') continue;
      expect(m.metadata.name, `${m.kind} ${m.metadata.name}`).toMatch(/^team-b-regatta-/);
    }
    for (const m of shared(a)) {
      if (m.kind === 'CustomResourceDefinition' || m.kind === 'Namespace') continue;
      expect(m.metadata.name, `${m.kind} ${m.metadata.name}`).toMatch(/^regatta-/);
    }
    // nothing the two share but the CRDs and the daemon config Namespace (crds.managed=false and
    // controllers.imagepull.daemonConfigNamespace set them apart; docs/operations.md)
    const key = (m: Manifest) => `${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`;
    const inA = new Set(shared(a).map(key));
    expect(
      shared(b)
        .map(key)
        .filter((k) => inA.has(k))
        .filter((k) => !/^(CustomResourceDefinition|Namespace) /.test(k)),
    ).toEqual([]);
    // every reference follows the names: role bindings' roles, policy bindings' policies, the webhook owner
    const names = new Set(b.map((m) => `${m.kind} ${m.metadata.name}`));
    for (const m of b) {
      const ref = m['roleRef'] as { kind: string; name: string } | undefined;
      if (ref) expect(names, key(m)).toContain(`${ref.kind} ${ref.name}`);
      const policy = (m['spec'] as { policyName?: string } | undefined)?.policyName;
      if (m.kind === 'ValidatingAdmissionPolicyBinding')
        expect(names, key(m)).toContain(`ValidatingAdmissionPolicy ${policy}`);
    }
    const deployment = b.find((m) => m.kind === 'Deployment' && m.metadata.name === 'regatta-cloneset')!;
    const env = (deployment['spec'] as { template: { spec: PodSpec } }).template.spec.containers[0]!.env;
    expect(env.find((e) => e.name === 'REGATTA_WEBHOOK_OWNER')?.value).toBe('team-b-regatta-cloneset');
    expect(rulesOf(b, 'ClusterRole', 'team-b-regatta-cloneset')).toContainEqual({
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['clusterroles'],
      resourceNames: ['team-b-regatta-cloneset'],
      verbs: ['get'],
    });
    // objects in the release namespace keep their names (two releases live in two namespaces)
    expect(
      b.find((m) => m.kind === 'ServiceAccount' && m.metadata.name === 'regatta-cloneset')?.metadata
        .namespace,
    ).toBe('team-b');
  });

  it('the node agent gets the container meta duty, and patch on pods, whenever a workload that updates in place is on (docs/adr/0084)', () => {
    const duties = (ms: Manifest[]) => {
      const agent = ms.find((m) => m.kind === 'DaemonSet' && m.metadata.name === 'regatta-imagepull-agent');
      const env = (agent?.['spec'] as { template: { spec: PodSpec } } | undefined)?.template.spec
        .containers[0]!.env;
      return env?.find((e) => e.name === 'REGATTA_NODE_AGENT_DUTIES')?.value;
    };
    expect(duties(rendered['all-on']!)).toBe('imagepull,containerrecreate,containermeta');
    expect(duties(rendered['only-cloneset']!)).toBe('containermeta');
    expect(duties(rendered['only-sidecarset']!)).toBe('containermeta');
    expect(grants(rulesOf(rendered['only-cloneset']!, 'ClusterRole', 'regatta-imagepull-agent'))).toEqual(
      new Set(['patch /pods', 'create /events', 'patch /events']),
    );
    // a controller that updates nothing in place: no agent
    expect(duties(rendered['only-broadcastjob']!)).toBeUndefined();
    expect(rendered['only-broadcastjob']!.some((m) => m.kind === 'DaemonSet')).toBe(false);
    // the agent's switch leaves it out
    const off = parseManifests(
      templateChart(chart.dir, [
        ...VALUE_SETS['only-cloneset']!,
        'controllers.imagepull.agent.enabled=false',
      ]),
    );
    expect(off.some((m) => m.kind === 'DaemonSet' || m.metadata.name === 'regatta-imagepull-agent')).toBe(
      false,
    );
  });
});
