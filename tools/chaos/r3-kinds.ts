// R3 for a program that serves admission webhooks for its kinds (tools/chaos/r3-programs.ts): in a namespace of its
// own, pods, Deployments and another program's kind are created and updated one after the other with the program
// absent (the baseline), running, killed (-9) and hung (SIGSTOP: alive, its sockets open, answering nothing). While
// it is down, a create and an update of each of its kinds must be refused (failurePolicy Fail); once it is started
// again (killed) or resumed (hung), its kinds must be admitted again, and how long that took is measured. Verdicts:
// tools/chaos/r3-verdicts.ts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound, KubeApiError, type KubeObject } from '@regatta/kube';
import { nowMs } from '../bench/common.js';
import type { CheckResult } from './report.js';
import { deployment, pod, type R3Kind, type R3Program } from './r3-programs.js';
import {
  CONTROL,
  r3Figures,
  r3Violations,
  type DownPhase,
  type OwnWrite,
  type Phase,
  type ProgramRun,
  type UnrelatedWrite,
} from './r3-verdicts.js';
import { deleteConfigurations, webhookEntries } from './webhook-configs.js';
import type { World } from './world.js';

/** How long R3 waits for a program's kinds to be admitted again. */
const BACK_WAIT_MS = 120_000;
/** After SIGCONT, how long R3 waits for the program's exit (a hang over the renew deadline ended it, finding 11). */
const EXIT_WAIT_MS = 20_000;

const message = (err: unknown) =>
  err instanceof KubeApiError
    ? err.serverMessage || err.message
    : err instanceof Error
      ? err.message
      : String(err);

const refOf = (o: KubeObject) => ({
  apiVersion: o.apiVersion ?? '',
  kind: o.kind ?? '',
  name: o.metadata?.name ?? '',
  ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
});

/** Gone already is what a delete wants; any other error is the run's. */
const unlessGone = (err: unknown) => {
  if (!isNotFound(err)) throw err;
};

/** A write's duration, and the API server's message when it refused it. */
async function timed(write: () => Promise<unknown>): Promise<{ ms: number; error?: string }> {
  const t = nowMs();
  try {
    await write();
    return { ms: nowMs() - t };
  } catch (err) {
    return { ms: nowMs() - t, error: message(err) };
  }
}

/** How many times the program's log says it lost its lease. */
async function leaseLostLines(logsDir: string, app: string): Promise<number> {
  const log = await readFile(join(logsDir, `${app}.log`), 'utf8').catch(() => '');
  return log.split('\n').filter((l) => l.includes('leadership lost')).length;
}

export async function checkProgramBlastRadius(
  w: World,
  p: R3Program,
  o: { writes: number },
): Promise<CheckResult> {
  const logsDir = join(w.cluster.dir, 'logs');
  const ns = `chaos-r3-${p.app}`;
  const at = w.now();
  const notes: string[] = [];
  // the writes per state, split between pods, Deployments and the other kind
  const k = Math.max(1, Math.ceil(o.writes / 3));
  // cluster-scoped names are the cluster's: prefixed with the namespace
  const nameOf = (kind: R3Kind, name: string) => (kind.clusterScoped ? `${ns}-${name}` : name);
  const families: [string, (name: string) => KubeObject][] = [
    ['pod', (name) => pod(ns, name)],
    ['deployment', (name) => deployment(ns, name)],
    [p.other.kind, (name) => p.other.make(ns, nameOf(p.other, name))],
  ];
  const label = (obj: KubeObject, value: string) =>
    w.client.patch(refOf(obj), { metadata: { labels: { r3: value } } }, { type: 'merge' });

  /**
   * `k` creates of each family, then an update (a label) of each object created; each write is followed by the same
   * write of a ConfigMap (the `control` family), which no admission webhook of any program matches: what slows the
   * controls is the machine, not the program (the noise model, r3-verdicts.ts `slowedDown`).
   */
  async function unrelated(phase: Phase | 'warm-up', n = k): Promise<UnrelatedWrite[]> {
    const out: UnrelatedWrite[] = [];
    const control = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: ns },
      data: { r3: name },
    } as KubeObject);
    for (const [family, make] of families) {
      const objs = Array.from({ length: n }, (_, i) => [make(`${phase}-${i}`), control(`${family}-${phase}-${i}`)]);
      for (const [obj, c] of objs) {
        out.push({ family, op: 'create', ...(await timed(() => w.client.create(obj!))) });
        out.push({ family: CONTROL, op: 'create', ...(await timed(() => w.client.create(c!))) });
      }
      for (const [obj, c] of objs) {
        out.push({ family, op: 'update', ...(await timed(() => label(obj!, phase))) });
        out.push({ family: CONTROL, op: 'update', ...(await timed(() => label(c!, phase))) });
      }
    }
    return out;
  }

  const own: OwnWrite[] = [];
  /** A create of `own-<phase>` and an update of the object created while the program ran, for each kind. */
  async function ownWrites(phase: OwnWrite['phase']): Promise<void> {
    for (const kind of p.kinds) {
      const created = kind.make(ns, nameOf(kind, `own-${phase}`));
      const running = kind.make(ns, nameOf(kind, 'own-running'));
      for (const [op, write] of [
        ['create', () => w.client.create(created)],
        ['update', () => label(running, phase)],
      ] as const) {
        const r = await timed(write);
        own.push({
          kind: kind.kind,
          op,
          phase,
          ms: r.ms,
          admitted: r.error === undefined,
          ...(r.error ? { message: r.error } : {}),
        });
      }
    }
    const refused = own.find((x) => x.phase === phase && !x.admitted);
    if (refused && phase !== 'running')
      notes.push(`${p.app} ${phase}: ${refused.kind} ${refused.op} refused: ${refused.message}`);
  }

  /** From now until a create of each kind is admitted (one try every 200 ms); undefined after BACK_WAIT_MS. */
  async function admittedAgain(phase: DownPhase | 'exit'): Promise<number | undefined> {
    const t = nowMs();
    for (let i = 0; nowMs() - t < BACK_WAIT_MS; i++) {
      const tries = await Promise.all(
        p.kinds.map((kind) =>
          timed(() =>
            w.client.create(kind.make(ns, nameOf(kind, `back-${phase}-${kind.kind.toLowerCase()}-${i}`))),
          ),
        ),
      );
      if (tries.every((x) => x.error === undefined)) return nowMs() - t;
      await sleep(200);
    }
    return undefined;
  }

  // absent means absent: the world's own (without webhooks; same name, same lease identity) is stopped meanwhile
  const main = w.controllers.get(p.app);
  await main?.kill();
  await w.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  // the first writes into a new namespace are slower, whatever runs: a few first, unmeasured
  await unrelated('warm-up', 2);
  w.log(`R3 ${p.app}: ${3 * k} creates and updates of unrelated objects with the program absent`);
  const absent = await unrelated('absent');

  const program = w.program(p.app, { webhook: true });
  let run: ProgramRun;
  let expectedExits: number;
  try {
    await program.start();
    const deadline = Date.now() + BACK_WAIT_MS;
    for (;;) {
      const entries = await webhookEntries(w, `regatta-${p.app}`);
      if (p.kinds.every((kind) => entries.includes(kind.entry))) break;
      if (Date.now() > deadline)
        throw new Error(`R3: the ${p.app} webhook configurations did not appear in 2 min`);
      await sleep(500);
    }
    await ownWrites('running');
    w.log(`R3 ${p.app}: the same with the program running`);
    const running = await unrelated('running');

    await program.kill();
    w.log(`R3 ${p.app}: the same with the program killed (-9)`);
    const killed = await unrelated('killed');
    await ownWrites('killed');
    const starting = program.start();
    const backKilled = await admittedAgain('killed');
    await starting;

    const crashesBefore = program.crashes.length;
    const leaseLostBefore = await leaseLostLines(logsDir, p.app);
    program.pause();
    await sleep(500);
    w.log(`R3 ${p.app}: the same with the program hung (SIGSTOP)`);
    const hung = await unrelated('hung');
    await ownWrites('hung');
    program.resume();
    const resumedAt = w.now();
    const backHung = await admittedAgain('hung');
    // a program hung past its lease's renew deadline (the kit's is 6 s, libs/runtime leader-election.ts) renews on
    // resume when nobody wrote the lease meanwhile; it used to give the lease up and exit (docs/reliability-findings-1-16.md, finding
    // 11). Should it exit, the supervisor starts it again a second later, as a kubelet would: R3 waits for that exit and
    // measures the second time its kinds are admitted again; the exit is counted apart from crashes when its log says
    // the lease was lost.
    while (program.crashes.length === crashesBefore && w.now() - resumedAt < EXIT_WAIT_MS) await sleep(100);
    const exitAt = program.crashes[crashesBefore]?.at;
    const exited = exitAt !== undefined;
    // from the exit (the suite's clock): to the admission already seen when the restart came first, else to the next
    const admittedAt = backHung === undefined ? undefined : resumedAt + backHung;
    const backAfterExit = !exited
      ? undefined
      : admittedAt !== undefined && admittedAt > exitAt
        ? admittedAt - exitAt
        : await admittedAgain('exit').then((x) => (x === undefined ? undefined : w.now() - exitAt));
    const afterResume = program.crashes.slice(crashesBefore);
    const leaseLost = (await leaseLostLines(logsDir, p.app)) - leaseLostBefore;
    expectedExits = Math.min(afterResume.length, leaseLost);
    if (afterResume.length > 0)
      notes.push(
        `${p.app} exited ${afterResume.length} time(s) after SIGCONT (codes ${afterResume.map((c) => c.code).join(', ')}); ` +
          `'leadership lost' in its log ${leaseLost} time(s) meanwhile`,
      );

    for (const kind of p.kinds.filter((x) => x.clusterScoped)) {
      const list = await w.client.list({ apiVersion: kind.apiVersion, kind: kind.kind });
      for (const obj of list.items.filter((x) => x.metadata?.name?.startsWith(`${ns}-`)))
        await w.client.delete(refOf(obj)).catch(unlessGone);
    }
    await w.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns }).catch(unlessGone);
    run = {
      program: p.app,
      at,
      unrelated: { absent, running, killed, hung },
      own,
      admittedAgainMs: { killed: backKilled, hung: backHung },
      exitedAfterResume: exited,
      admittedAfterExitMs: backAfterExit,
    };
  } finally {
    await program.stop();
  }
  await deleteConfigurations(w, p.app);
  await main?.start();

  return {
    id: 'R3',
    title: `blast radius (${p.app})`,
    figures: [
      ...r3Figures(
        run,
        p.kinds.map((x) => x.kind),
      ),
      ['exits after SIGCONT (lease lost, restarted)', String(expectedExits)],
    ],
    violations: r3Violations(run),
    crashes: program.crashes.length - expectedExits,
    notes,
  };
}
