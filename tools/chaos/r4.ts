// R4, a leaked expectation (OpenKruise #1765: a CloneSet frozen for 68 hours). A CloneSet is scaled from 1 to M; at
// the first new pod the suite sees, the watcher is killed -9, so the creates that follow (the controller creates in
// slow-start batches 1, 2, 4, …) reach no cache. The suite deletes those pods (grace 0) before starting the watcher
// again: their create events never arrive, and the controller's create expectations for them can only end by
// timing out (libs/runtime expectations.ts, DEFAULT_EXPECTATION_TIMEOUT_MS). Measured: from the first create of the
// scale-up (when the expectation began) to the first pod the controller creates again, against the timeout.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_EXPECTATION_TIMEOUT_MS } from '@regatta/runtime';
import { fmt } from '../bench/common.js';
import { createReady, removeCloneSet, refOf } from './cloneset.js';
import type { Observer } from './observer.js';
import type { CheckResult } from './report.js';
import type { World } from './world.js';

/** Pods first seen this long after the kill were created after it (the watcher cannot have seen them). */
const AFTER_KILL_MS = 150;

export async function checkLeakedExpectation(
  w: World,
  obs: Observer,
  o: { pods: number },
): Promise<CheckResult> {
  const ns = 'chaos-r4';
  const name = 'cs';
  const m = o.pods;
  const timeoutMs = DEFAULT_EXPECTATION_TIMEOUT_MS;
  const program = w.controllers.get('cloneset')!;
  const crashesBefore = program.crashes.length + w.watcher.crashes.length;
  const notes: string[] = [];
  w.log(`R4: CloneSet of 1 pod scaled to ${m}; the watcher dies at the first new pod`);
  await createReady(w.client, obs, {
    ns,
    name,
    replicas: 1,
    type: 'InPlaceIfPossible',
    maxUnavailable: 1,
    maxSurge: 0,
  });
  const checker = obs.checker(ns);
  const before = new Set(checker.active().map((p) => p.uid));

  await w.client.patch(refOf(ns, name), { spec: { replicas: m } }, { type: 'merge' });
  const deadline = Date.now() + 120_000;
  while (checker.active().every((p) => before.has(p.uid))) {
    if (Date.now() > deadline) throw new Error('R4: the scale-up created no pod in 2 min');
    await sleep(2);
  }
  const killAt = await w.watcher.kill();
  const firstCreate = Math.min(
    ...[...checker.firstSeen].filter(([uid]) => !before.has(uid)).map(([, at]) => at),
  );
  // the controller goes on creating (its own writes' responses, not events, drive the batches)
  let count = -1;
  while (checker.active().length !== count) {
    count = checker.active().length;
    await sleep(2000);
  }
  const unseen = checker
    .active()
    .filter((p) => (checker.firstSeen.get(p.uid) ?? 0) >= killAt + AFTER_KILL_MS);
  for (const p of unseen)
    await w.client.delete(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: p.name },
      { gracePeriodSeconds: 0 },
    );
  w.log(
    `R4: ${count} pods created, ${unseen.length} of them after the kill, deleted before the watcher is back`,
  );
  // a run that produced no leak tested nothing: it must not pass (issue 47)
  if (unseen.length === 0)
    checker.report('no-fault', w.now(), 'no pod was created after the kill: the leak was not produced (rerun)');
  await w.watcher.start();
  const backAt = w.now();
  w.log(`R4: watcher back; waiting up to ${timeoutMs / 60_000 + 3} min for the CloneSet to resume`);

  const healDeadline = Date.now() + timeoutMs + 180_000;
  let resumeAt: number | undefined;
  let healedAt: number | undefined;
  while (Date.now() < healDeadline) {
    resumeAt ??= [...checker.firstSeen]
      .map(([, at]) => at)
      .filter((at) => at > backAt)
      .sort((a, b) => a - b)[0];
    if (checker.active().length >= m && checker.active().every((p) => p.available)) {
      healedAt = w.now();
      break;
    }
    await sleep(500);
  }
  const log = readFileSync(program.p?.spec.logFile ?? '', 'utf8');
  const timedOut = (log.match(/expectation timed out/g) ?? []).length;
  if (healedAt === undefined)
    checker.report(
      'incomplete',
      w.now(),
      `${checker.active().length}/${m} pods ${(timeoutMs + 180_000) / 1000} s after the watcher was back`,
    );
  const age = resumeAt === undefined ? undefined : resumeAt - firstCreate;
  if (age !== undefined && unseen.length > 0 && age < timeoutMs - 5000)
    notes.push(
      `the controller resumed ${fmt(age / 1000)} s after the first create, before the timeout: the leak was healed by an event`,
    );
  await removeCloneSet(w.client, ns, name);
  return {
    id: 'R4',
    title: 'leaked expectation',
    figures: [
      ['scale-up', `1 → ${m} pods`],
      ['creates the watcher never saw', String(unseen.length)],
      ['expectation timeout (configured)', `${fmt(timeoutMs / 1000)} s`],
      ['first create → controller resumes', age === undefined ? 'never' : `${fmt(age / 1000)} s`],
      [
        'watcher back → controller resumes',
        resumeAt === undefined ? 'never' : `${fmt((resumeAt - backAt) / 1000)} s`,
      ],
      [
        'watcher back → all pods ready',
        healedAt === undefined ? 'never' : `${fmt((healedAt - backAt) / 1000)} s`,
      ],
      ['"expectation timed out" logged', String(timedOut)],
    ],
    violations: checker.violations,
    crashes: program.crashes.length + w.watcher.crashes.length - crashesBefore,
    notes,
  };
}
