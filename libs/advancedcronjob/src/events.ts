/**
 * The cron job's Events (as Kubernetes' CronJob controller names them: SuccessfulCreate, SuccessfulDelete,
 * FailedCreate, JobAlreadyActive, MissSchedule, UnparseableSchedule, TooManyMissedTimes). A round repeats its
 * decision until the situation changes; a skip is told once per cron job and reason and message, not every round.
 */
import type { EventRecorder, KubeObject } from '@regatta/kube';

export class CronEvents {
  readonly #told = new Map<string, string>();

  constructor(private readonly recorder: Pick<EventRecorder, 'normal' | 'warning'>) {}

  /** Records the event unless the last one told for `key` was the same. */
  once(key: string, obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const said = `${reason}|${message}`;
    if (this.#told.get(key) === said) return;
    this.#told.set(key, said);
    void (type === 'Normal' ? this.recorder.normal(obj, reason, message) : this.recorder.warning(obj, reason, message));
  }

  forget(key: string): void {
    this.#told.delete(key);
  }
}
