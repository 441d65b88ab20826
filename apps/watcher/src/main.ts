// The watcher: the only Regatta process that watches the API server. The elected replica mirrors
// every kind some running controller registered into NATS KV; standbys wait for the Lease.
import { runProgram } from '@regatta/kit';
import { MirrorSet, readMirrorConfig, registerMirrorMetrics } from '@regatta/mirror';

await runProgram({ name: 'watcher' }, ({ client, bus, registry, probes, manager, log }) => {
  // which kinds each controller may have mirrored (REGATTA_MIRROR_ALLOW), the Secret hash key (docs/adr/0009)
  const mirrors = new MirrorSet(client, bus, {
    ...readMirrorConfig(),
    logger: log,
    onError: (err, kind) => log.warn({ err, kind }, 'mirror trouble; retrying'),
    onChange: (running) => log.info({ kinds: running }, 'mirrored kinds changed'),
  });
  registerMirrorMetrics(registry, mirrors);
  probes.addReadyzCheck('mirrors', () => mirrors.assertKeepingUp());

  manager.add({
    name: 'mirrors',
    needLeaderElection: () => true,
    async start(signal) {
      await mirrors.start(signal); // retries while the bus is not ready yet, until the signal aborts
      if (!signal.aborted)
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await mirrors.stop();
    },
  });
});
