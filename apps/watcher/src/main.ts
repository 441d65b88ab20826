// The watcher: the only Regatta process that watches the API server. The elected replica mirrors
// every kind some running controller registered into NATS KV; standbys wait for the Lease.
import { runProgram } from '@regatta/kit';
import { MirrorSet, registerMirrorMetrics } from '@regatta/mirror';

await runProgram({ name: 'watcher' }, ({ client, bus, registry, manager, log }) => {
  const mirrors = new MirrorSet(client, bus, {
    onError: (err, kind) => log.warn({ err, kind }, 'mirror trouble; retrying'),
    onChange: (running) => log.info({ kinds: running }, 'mirrored kinds changed'),
  });
  registerMirrorMetrics(registry, mirrors);

  manager.add({
    name: 'mirrors',
    needLeaderElection: () => true,
    async start(signal) {
      await mirrors.start();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await mirrors.stop();
    },
  });
});
