// R7, a bad value on the bus (docs/adr/0068): with the watcher's credentials the check puts two bytes of garbage
// under a key of the pods bucket in its namespace (what a corrupt store or a newer watcher's format leaves) and an
// envelope whose pod the program cannot index (ownerReferences not a list), then rolls a CloneSet of N pods out in
// place. The independent checker (API watches) holds the rollout to: no pod created or deleted, never fewer available
// than replicas − maxUnavailable, the rollout completes; the CloneSet program must count both values set aside
// (regatta_cache_entries_set_aside_total), report its pods cache in sync, and keep running. Then the watcher is
// restarted: its list removes keys of objects that do not exist, so the garbage is gone from the bucket.
import { setTimeout as sleep } from 'node:timers/promises';
import { KINDS } from '@regatta/api';
import { bucketName, connectBus, encodeEnvelope } from '@regatta/bus';
import type { NatsUser } from '@regatta/local-cluster';
import { fmt } from '../bench/common.js';
import { createReady, removeCloneSet, startInPlaceRollout } from './cloneset.js';
import { describeStatus, rolledOut, type Observer } from './observer.js';
import type { CheckResult } from './report.js';
import { absolute } from './schedule.js';
import type { World } from './world.js';

/** `name="value"` of a metric line, with the sample's value, from a /metrics page. */
export function metricValue(page: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf('}'));
    const have = inner.split(',');
    if (want.every((w) => have.includes(w))) return Number(line.slice(line.indexOf('}') + 1).trim());
  }
  return undefined;
}

export async function checkBadBusValue(
  w: World,
  obs: Observer,
  o: { pods: number; natsUrl: string; watcherUser: NatsUser },
): Promise<CheckResult> {
  const ns = 'chaos-r7';
  const name = 'cs';
  const n = o.pods;
  const maxUnavailable = '20%';
  const budget = absolute(maxUnavailable, n, true);
  const program = w.controllers.get('cloneset')!;
  const crashesBefore = program.crashes.length + w.watcher.crashes.length;
  const bus = await connectBus({
    servers: o.natsUrl,
    name: 'chaos-r7',
    user: o.watcherUser.user,
    pass: o.watcherUser.password,
    prefix: '',
  });
  try {
    const pods = await bus.kvm.open(bucketName(KINDS.pods));
    const garbage = `${ns}.zz-garbage`;
    const badShape = `${ns}.zz-bad-shape`;
    await pods.put(garbage, new Uint8Array([0xde, 0xad]));
    await pods.put(
      badShape,
      encodeEnvelope({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'zz-bad-shape', namespace: ns, ownerReferences: { uid: 'x' } as never },
      }),
    );
    w.log(`R7: garbage and a badly shaped pod put into the pods bucket; CloneSet of ${n} pods`);

    await createReady(w.client, obs, {
      ns,
      name,
      replicas: n,
      type: 'InPlaceIfPossible',
      maxUnavailable,
      maxSurge: 0,
    });
    const { checker, gen, t0 } = await startInPlaceRollout(w, obs, { ns, name, n, minAvailable: n - budget });
    const done = await obs.until(ns, name, (c) => rolledOut(c, gen, n), 600_000);
    await sleep(2000); // late pod events still count
    checker.end();
    if (done === undefined)
      checker.report(
        'incomplete',
        w.now() - t0,
        `not rolled out in 10 min: ${describeStatus(obs.workload(ns, name))}`,
      );

    const page = program.health ? await (await fetch(`${program.health}/metrics`)).text() : '';
    const setAside = (reason: string) =>
      metricValue(page, 'regatta_cache_entries_set_aside_total', { cache: 'pods', reason }) ?? 0;
    const inSync = metricValue(page, 'regatta_cache_in_sync', { cache: 'pods' });
    if (setAside('envelope') < 1 || setAside('shape') < 1)
      checker.report(
        'bus',
        w.now() - t0,
        `the cloneset program did not count both bad values set aside (envelope ${setAside('envelope')}, shape ${setAside('shape')})`,
      );
    if (inSync !== 1)
      checker.report('bus', w.now() - t0, `the pods cache is not in sync (regatta_cache_in_sync ${inSync})`);

    // the watcher's list after a restart removes keys no object has
    const restart = await w.watcher.kill9(1000);
    let left: string[] = [];
    for (let i = 0; i < 60; i++) {
      left = [];
      for (const key of [garbage, badShape]) if ((await pods.get(key))?.operation === 'PUT') left.push(key);
      if (left.length === 0) break;
      await sleep(1000);
    }
    if (left.length > 0)
      checker.report('bus', w.now() - t0, `the restarted watcher left ${left.join(', ')} in the pods bucket`);

    await removeCloneSet(w.client, ns, name);
    return {
      id: 'R7',
      title: 'a bad value on the bus',
      figures: [
        ['pods (in place)', String(n)],
        ['rollout (patch → done)', done === undefined ? 'did not finish' : `${fmt((done - t0) / 1000)} s`],
        ['pods created / deleted', `${checker.creates} / ${checker.deletes}`],
        ['fewest available (required)', `${checker.minAvailableSeen} (${n - budget})`],
        ['set aside (envelope / shape)', `${setAside('envelope')} / ${setAside('shape')}`],
        ['watcher down → ready', `${fmt((restart.backAt - restart.at) / 1000)} s`],
        ['bad keys left after the watcher restarted', String(left.length)],
      ],
      violations: checker.violations,
      crashes: program.crashes.length + w.watcher.crashes.length - crashesBefore,
      notes: [],
    };
  } finally {
    await bus.close();
  }
}
