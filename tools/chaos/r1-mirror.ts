// R1's check of the watcher itself (docs/reliability-checks.md, R1), for both rows (r1.ts, r1-sidecarset.ts): after each
// rollout (each group of them) and at the end, the watcher's mirror of the row's kinds must come to agree with the API
// server (mirror-agreement.ts) within MIRROR_AGREEMENT_MS, and the comparison's self-test must see a pod the watcher
// missed. A disagreement is a `mirror` violation of the row.
import { fmt } from '../bench/common.js';
import type { KindRef } from '@regatta/bus';
import type { Violation } from './checker.js';
import { waitForMirrorAgreement, type MirrorAgreement } from './mirror-agreement.js';
import { medianMax } from './report.js';
import type { World } from './world.js';

/** How long the mirror may take to agree with the API server after a rollout (kills and faults go on meanwhile). */
export const MIRROR_AGREEMENT_MS = 90_000;

/** The violation a comparison made `when` comes to (none when it agreed). Pure. */
export function mirrorViolation(when: string, m: MirrorAgreement, at: number): Violation | undefined {
  return m.agreedAfterMs !== undefined
    ? undefined
    : {
        kind: 'mirror',
        at,
        count: 1,
        detail: `${when}: the mirror did not agree with the API server in ${MIRROR_AGREEMENT_MS / 1000} s: ${m.differences.join('; ')}`,
      };
}

/** The row's mirror figures: the comparisons that agreed and how fast, and the self-test's outcome. Pure. */
export function mirrorFigures(
  kinds: readonly KindRef[],
  checks: readonly MirrorAgreement[],
  selfTest: string,
): [string, string][] {
  const agreed = checks.filter((m) => m.agreedAfterMs !== undefined);
  return [
    [
      `mirror agrees with the API server (${mirrored(kinds)})`,
      `${agreed.length}/${checks.length} comparisons, after ${medianMax(agreed.map((m) => m.agreedAfterMs ?? 0))} (median / max)`,
    ],
    ['a pod created with the watcher down (self-test)', selfTest],
  ];
}

/** The row's note on what "mirror agrees" means; `parallel`: rollouts at once. Pure. */
export function mirrorNote(kinds: readonly KindRef[], parallel: number): string {
  return `mirror agrees: every ${mirrored(kinds)} object the API server lists is in the watcher's bucket at the listed resourceVersion, and nothing else; compared after each ${parallel > 1 ? `group of ${parallel} rollouts, all done and not yet removed` : 'rollout'} (kills and faults going on) and at the end, until they agree or ${MIRROR_AGREEMENT_MS / 1000} s pass`;
}

const mirrored = (kinds: readonly KindRef[]) => kinds.map((k) => k.plural).join(', ');

/** A row's comparisons of the mirror of `kinds`; a disagreement goes into `violations` (the row's). */
export class MirrorChecks {
  readonly checks: MirrorAgreement[] = [];

  constructor(
    private readonly w: World,
    readonly kinds: KindRef[],
    private readonly violations: Violation[],
  ) {}

  /** Compares until they agree or {@link MIRROR_AGREEMENT_MS} pass; `when` labels it in the log and a violation. */
  async check(when: string): Promise<void> {
    const m = await waitForMirrorAgreement({
      ...mirrorSource(this.w),
      kinds: this.kinds,
      deadlineMs: MIRROR_AGREEMENT_MS,
    });
    this.checks.push(m);
    const v = mirrorViolation(when, m, this.w.now());
    if (v) this.violations.push(v);
    this.w.log(
      `R1: mirror ${m.agreedAfterMs === undefined ? 'DISAGREES' : `agrees (${fmt(m.agreedAfterMs / 1000)} s)`} ${when}, ${m.objects} objects`,
    );
  }

  /**
   * The comparison's self-test (as R0 is the checker's): with the watcher killed, a pod is created in a namespace of
   * the row's own (`id`); the comparison must report the mirror behind (`reported`, else a violation). The watcher is
   * then started again and the namespace deleted; the row's comparison at the end sees both reach the mirror.
   */
  async selfTest(id: string): Promise<string> {
    const w = this.w;
    const ns = `chaos-r1-mirror-${id}`;
    await w.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await w.watcher.kill();
    let outcome: string;
    try {
      await w.client.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'probe', namespace: ns },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27.3' }] },
      });
      const m = await waitForMirrorAgreement({ ...mirrorSource(w), kinds: this.kinds, deadlineMs: 3000 });
      outcome =
        m.agreedAfterMs === undefined ? 'reported' : 'NOT REPORTED: the mirror agreed without the pod';
    } finally {
      await w.watcher.start();
      await w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns });
    }
    if (outcome !== 'reported')
      this.violations.push({
        kind: 'mirror',
        at: w.now(),
        count: 1,
        detail: `the mirror comparison's self-test: ${outcome}`,
      });
    return outcome;
  }
}

/** The API server and the bus, read with the bus's reader user. */
function mirrorSource(w: World) {
  const { natsAuth, nats } = w.cluster.endpoints;
  if (!natsAuth || !nats) throw new Error('R1 needs the bus with its users (natsAuth)');
  return {
    client: w.client,
    nats: {
      url: nats,
      user: natsAuth.controller.user,
      password: natsAuth.controller.password,
      prefix: natsAuth.prefix,
    },
  };
}
