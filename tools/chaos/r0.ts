// R0, the checker's own check: the suite plants violations itself and the live pipeline (API watch → viewOf →
// InvariantChecker) must report them. A CloneSet of 10 pods held to in-place bounds with maxUnavailable 1; the
// suite force-deletes two pods at once (the controller recreates them): a recreate and too few available must be
// seen. A check that passes here says the other checks' "0 violations" come from a checker that sees.
import { setTimeout as sleep } from 'node:timers/promises';
import { createReady, removeCloneSet } from './cloneset.js';
import type { Observer } from './observer.js';
import type { ViolationKind } from './checker.js';
import type { CheckResult } from './report.js';
import type { World } from './world.js';

export async function checkTheChecker(w: World, obs: Observer): Promise<CheckResult> {
  const ns = 'chaos-r0';
  const name = 'cs';
  const n = 10;
  await createReady(w.client, obs, {
    ns,
    name,
    replicas: n,
    type: 'InPlaceIfPossible',
    maxUnavailable: 1,
    maxSurge: 0,
  });
  const checker = obs.checker(ns);
  checker.begin({ minAvailable: n - 1, maxPods: n, inPlace: { creates: 0, deletes: 0 } }, w.now());
  const victims = checker.active().slice(0, 2);
  await Promise.all(
    victims.map((p) =>
      w.client.delete(
        { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: p.name },
        { gracePeriodSeconds: 0 },
      ),
    ),
  );
  const want: ViolationKind[] = ['recreate', 'unavailable'];
  const deadline = Date.now() + 60_000;
  const seen = () => new Set(checker.violations.map((v) => v.kind));
  while (!want.every((k) => seen().has(k)) && Date.now() < deadline) await sleep(200);
  checker.end();
  const missed = want.filter((k) => !seen().has(k));
  await removeCloneSet(w.client, ns, name);
  return {
    id: 'R0',
    title: 'checker self-test',
    figures: [
      ['planted', `2 of ${n} pods force-deleted under in-place bounds, maxUnavailable 1`],
      ['reported', [...seen()].join(', ') || 'nothing'],
    ],
    violations: missed.map((k) => ({
      kind: k,
      at: w.now(),
      count: 1,
      detail: `the checker did not report the planted ${k}`,
    })),
    crashes: 0,
    notes: [],
  };
}
