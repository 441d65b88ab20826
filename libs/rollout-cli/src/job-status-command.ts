/**
 * The cluster side of `regatta status KIND/NAME` (BroadcastJob, ContainerRecreateRequest, AdvancedCronJob): read the
 * object, print its state (job-status.ts decides it), and with `watch` wait until it is over. Returns whether it
 * ended well: false when it failed, or (without `watch`) when it is not over yet.
 */
import { RolloutTimeoutError, RolloutUsageError, UnknownKindError } from './errors.js';
import { parseKindTarget, parseTarget } from './kinds.js';
import { JOB_KINDS, jobState, type JobKindInfo, type JobState } from './job-status.js';
import { formatStructured, type OutputFormat } from './output.js';
import { readNamed, type RolloutContext } from './commands.js';

export interface JobTarget {
  info: JobKindInfo;
  name: string;
}

export interface JobStatusOptions {
  watch: boolean;
  /** 0: no limit. */
  timeoutMs: number;
  intervalMs?: number;
  output?: OutputFormat;
  now?: () => number;
}

/** `KIND/NAME` of a job kind (`bcj/security-patch`, `crr/crr-demo`, `acj/nightly`). */
export function parseJobTarget(arg: string): JobTarget {
  try {
    const [info, name] = parseKindTarget(arg, JOB_KINDS);
    return { info, name };
  } catch (e) {
    // a workload that rolls out: say which command follows it
    if (e instanceof UnknownKindError && isRolloutTarget(arg))
      throw new RolloutUsageError(
        `${arg} is a workload that rolls out: follow it with \`regatta rollout status ${arg}\``,
      );
    throw e;
  }
}

function isRolloutTarget(arg: string): boolean {
  try {
    parseTarget(arg);
    return true;
  } catch {
    return false;
  }
}

function render(t: JobTarget, namespace: string, state: JobState): string {
  const head = `${t.info.title} ${JSON.stringify(t.name)} in namespace ${JSON.stringify(namespace)}: ${state.phase}`;
  return `${[head, ...state.lines.map((l) => `  ${l}`)].join('\n')}\n`;
}

/** Prints the state (again on each change with `watch`); true when it ended well (see the file comment). */
export async function jobStatus(ctx: RolloutContext, t: JobTarget, o: JobStatusOptions): Promise<boolean> {
  const now = o.now ?? Date.now;
  if (o.watch && !t.info.ends)
    throw new RolloutUsageError(
      `${t.info.title} never ends: --watch cannot wait for it (run status without --watch)`,
    );
  const deadline = o.timeoutMs > 0 ? now() + o.timeoutMs : Number.POSITIVE_INFINITY;
  let printed = '';
  for (;;) {
    const obj = await readNamed<Parameters<typeof jobState>[1]>(ctx, t.info, t.name);
    const state = jobState(t.info.kind, obj, now());
    if (!o.watch && o.output && o.output !== 'table') {
      ctx.out(
        formatStructured(o.output, { kind: t.info.kind, name: t.name, namespace: ctx.namespace, ...state }),
      );
      return state.done ? !state.failed : !t.info.ends;
    }
    const text = render(t, ctx.namespace, state);
    if (text !== printed) ctx.out(text);
    printed = text;
    if (state.done) return !state.failed;
    if (!o.watch) return !t.info.ends;
    if (now() >= deadline)
      throw new RolloutTimeoutError(
        `${t.info.title} ${JSON.stringify(t.name)} did not end within ${o.timeoutMs / 1000}s`,
      );
    await new Promise((r) => setTimeout(r, Math.min(o.intervalMs ?? 2000, Math.max(0, deadline - now()))));
  }
}
