import { describe, expect, it } from 'vitest';
import {
  describeLimits,
  isPeerArg,
  kruiseControllerStarted,
  kruiseManagerArgs,
  kruisePeerSide,
  kruiseManagerEnv,
  kruiseWebhookConfigurations,
  parsePeerArgs,
  PeerArgsError,
  portOf,
  setupLimits,
  type WebhookConfiguration,
} from './peer-config.js';

describe('parsePeerArgs', () => {
  it.each([
    // args, options
    [[], undefined],
    [['--quick', '--rollout-pods=100'], undefined],
    [['--peer=kruise'], { peer: 'kruise', qps: 30, burst: 50 }],
    [['--peer=kruise', '--peer-qps=200', '--peer-burst=400'], { peer: 'kruise', qps: 200, burst: 400 }],
    [['--peer-burst=80', '--peer=kruise'], { peer: 'kruise', qps: 30, burst: 80 }],
  ] as const)('%j → %j', (args, want) => {
    expect(parsePeerArgs([...args])).toEqual(want);
  });

  it.each([
    [['--peer=kubevela'], /knows only kruise/],
    [['--peer-qps=200'], /need --peer=kruise/],
    [['--peer=kruise', '--peer-qps=0'], /positive integer/],
    [['--peer=kruise', '--peer-qps=1.5'], /positive integer/],
    [['--peer=kruise', '--peer-burst=x'], /positive integer/],
    [['--peer=kruise', '--peer-qps=200'], /below --peer-qps/], // burst 50 < qps 200
    [['--peer=kruise', '--peer=kruise'], /given 2 times/],
  ] as const)('%j is refused', (args, message) => {
    expect(() => parsePeerArgs([...args])).toThrow(PeerArgsError);
    expect(() => parsePeerArgs([...args])).toThrow(message);
  });

  it('claims only its own flags', () => {
    expect(['--peer=kruise', '--peer-qps=1', '--peer-burst=2', '--peers', '--quick'].map(isPeerArg)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('setupLimits', () => {
  it.each([
    // measured phase's limits → the set-up's
    [
      { qps: 30, burst: 50 },
      { qps: 200, burst: 400 },
    ],
    [
      { qps: 200, burst: 400 },
      { qps: 200, burst: 400 },
    ],
    [
      { qps: 250, burst: 300 },
      { qps: 250, burst: 400 },
    ],
    [
      { qps: 300, burst: 1000 },
      { qps: 300, burst: 1000 },
    ],
  ] as const)('%j → %j', (measured, want) => {
    expect(setupLimits(measured)).toEqual(want);
  });
});

describe('describeLimits', () => {
  it.each([
    [30, 50, 'client limits 30/50 (shipped)'],
    [200, 400, 'client limits 200/400 (raised; shipped 30/50)'],
  ])('%i/%i → %s', (qps, burst, want) => {
    expect(describeLimits({ qps, burst })).toBe(want);
  });
});

describe('kruise-manager command line', () => {
  it('passes the limits and keeps every server on loopback', () => {
    const args = kruiseManagerArgs({ qps: 200, burst: 400 });
    expect(args).toContain('--rest-config-qps=200');
    expect(args).toContain('--rest-config-burst=400');
    expect(args).toContain('--enable-pprof=false');
    for (const a of args.filter((x) => x.endsWith('-addr')))
      expect(a.split('=')[1]).toMatch(/^127\.0\.0\.1:/);
  });

  it('names the loopback webhook host and port', () => {
    expect(kruiseManagerEnv({ kubeconfig: '/k', webhookPort: 9443, certDir: '/c' })).toEqual({
      KUBECONFIG: '/k',
      POD_NAMESPACE: 'kruise-system',
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: '9443',
      WEBHOOK_CERT_DIR: '/c',
    });
  });
});

describe('kruiseWebhookConfigurations', () => {
  const svc = (path: string) => ({ service: { name: 'webhook-service', namespace: 'system', path } });
  const base: WebhookConfiguration[] = [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'mutating-webhook-configuration' },
      webhooks: [
        { name: 'mpod.kb.io', clientConfig: svc('/mutate-pod'), failurePolicy: 'Fail', sideEffects: 'None' },
        { name: 'mcloneset.kb.io', clientConfig: svc('/mutate-apps-kruise-io-v1alpha1-cloneset') },
      ],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'validating-webhook-configuration' },
      webhooks: [{ name: 'vpod.kb.io', clientConfig: svc('/validate-pod') }],
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook-service' } },
  ];
  const patches: WebhookConfiguration[] = [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'mutating-webhook-configuration' },
      webhooks: [
        {
          name: 'mpod.kb.io',
          namespaceSelector: { matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] },
        },
      ],
    },
  ];

  it('prefixes the names, merges the patches by webhook name and points every webhook at loopback', () => {
    const out = kruiseWebhookConfigurations(base, patches, 9443);
    expect(out.map((c) => c.metadata.name)).toEqual([
      'kruise-mutating-webhook-configuration',
      'kruise-validating-webhook-configuration',
    ]);
    expect(out[0]?.webhooks?.[0]).toEqual({
      name: 'mpod.kb.io',
      clientConfig: { url: 'https://127.0.0.1:9443/mutate-pod' },
      failurePolicy: 'Fail',
      sideEffects: 'None',
      namespaceSelector: { matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] },
    });
    expect(out[0]?.webhooks?.[1]?.clientConfig).toEqual({
      url: 'https://127.0.0.1:9443/mutate-apps-kruise-io-v1alpha1-cloneset',
    });
    expect(out[1]?.webhooks?.[0]?.clientConfig).toEqual({ url: 'https://127.0.0.1:9443/validate-pod' });
  });

  it('refuses a webhook without a service path', () => {
    const bad = [{ ...base[1]!, webhooks: [{ name: 'x', clientConfig: { url: 'https://elsewhere' } }] }];
    expect(() => kruiseWebhookConfigurations(bad, [], 1)).toThrow(/names no service path/);
  });
});

describe('portOf', () => {
  it.each([
    ['https://127.0.0.1:39123', 39123],
    ['https://localhost:6443', 6443],
    ['https://127.0.0.1', 443],
  ])('%s → %i', (server, port) => {
    expect(portOf(server)).toBe(port);
  });
  it('refuses an API server off loopback', () => {
    expect(() => portOf('https://10.0.0.1:6443')).toThrow(/not on loopback/);
  });
});

describe('kruiseControllerStarted', () => {
  // controller-runtime's lines as kruise-manager v1.9.1 prints them
  const log = [
    'I1204 11:54:21.1 15058 controller.go:175] "msg"="Starting EventSource" "controller"="statefulset-controller"',
    'I1204 11:54:22.7 15058 controller.go:242] "msg"="Starting workers" "controller"="cloneset-controller" "worker count"=3',
    'I1204 11:54:22.8 15058 controller.go:242] "msg"="Starting workers" "controller"="sidecarset-controller" "worker count"=3',
  ].join('\n');

  it.each([
    ['cloneset-controller', true],
    ['statefulset-controller', false], // its sources start, its workers not yet
    ['daemonset-controller', false],
  ] as const)('%s → %s', (controller, want) => {
    expect(kruiseControllerStarted(log, controller)).toBe(want);
  });
});

describe('kruisePeerSide', () => {
  const regatta = {
    name: 'Advanced DaemonSet',
    label: 'Advanced DaemonSet in place',
    object: { apiVersion: 'apps.kruise.io/v1beta1', metadata: { name: 'bench', namespace: 'bench-ads' } },
    batch: 10,
    boundS: 10,
  };

  it("is Regatta's workload in bench-kruise, the same batch and bound, labelled for kruise-manager", () => {
    const peer = kruisePeerSide(regatta, 'daemonset-controller', '1.9.1');
    expect(peer).toEqual({
      name: 'kruise-manager',
      label: 'Advanced DaemonSet in place, kruise-manager v1.9.1',
      object: {
        apiVersion: 'apps.kruise.io/v1beta1',
        metadata: { name: 'bench', namespace: 'bench-kruise' },
      },
      batch: 10,
      boundS: 10,
      kruiseController: 'daemonset-controller',
    });
    expect(regatta.object.metadata.namespace).toBe('bench-ads'); // a copy: Regatta's side is untouched
  });
});
