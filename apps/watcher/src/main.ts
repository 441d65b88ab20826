// The watcher: the only Regatta process that watches the API server. The elected replica mirrors
// every kind some running controller registered into NATS KV; standbys wait for the Lease.
import { Registry, collectDefaultMetrics } from 'prom-client';
import { connectBus } from '@regatta/bus';
import { KubeClient } from '@regatta/kube';
import { MirrorSet, readMirrorConfig, registerMirrorMetrics } from '@regatta/mirror';
import { kubeLeaseStore, Manager, ProbeServer, readProcessConfig } from '@regatta/runtime';
import { createLogger, startTracing } from '@regatta/telemetry';

const log = createLogger({ name: 'regatta-watcher' });
const tracing = await startTracing({ serviceName: 'regatta-watcher', logger: log });
const config = readProcessConfig();
const client = KubeClient.fromDefault();
const bus = await connectBus({ name: `regatta-watcher/${config.identity}` });

const registry = new Registry();
collectDefaultMetrics({ register: registry });
const probes = new ProbeServer({ ...config.health, registry, logger: log });
probes.addReadyzCheck('bus', () => {
  if (bus.nc.isClosed()) throw new Error('NATS connection closed');
});

// which kinds each controller may have mirrored (REGATTA_MIRROR_ALLOW), the Secret hash key (docs/adr/0009)
const mirrors = new MirrorSet(client, bus, {
  ...readMirrorConfig(),
  logger: log,
  onError: (err, kind) => log.warn({ err, kind }, 'mirror trouble; retrying'),
  onChange: (running) => log.info({ kinds: running }, 'mirrored kinds changed'),
});
registerMirrorMetrics(registry, mirrors);
probes.addReadyzCheck('mirrors', () => mirrors.assertKeepingUp());

const manager = new Manager({
  logger: log,
  probes,
  leaderElection: {
    store: kubeLeaseStore(client),
    namespace: config.leaseNamespace,
    name: 'regatta-watcher',
    identity: config.identity,
    // a standby takes over within ~11 s of the leader dying (lease + one jittered retry)
    leaseDurationMs: 8_000,
    renewDeadlineMs: 6_000,
    retryPeriodMs: 1_500,
  },
});
manager.add({
  name: 'mirrors',
  needLeaderElection: () => true,
  async start(signal) {
    await mirrors.start();
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    await mirrors.stop();
  },
});

try {
  await manager.start();
} catch (err) {
  log.error({ err }, 'watcher stopped with an error');
  process.exitCode = 1;
} finally {
  await bus.close();
  await tracing.shutdown();
}
