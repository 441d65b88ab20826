// The attempt rules of one tag's pull (`imagepuller_worker.go`, pullWorker.Run): up to backoffLimit+1 attempts,
// each limited by timeoutSeconds and by what is left of activeDeadlineSeconds, with 1 s, 2 s, 4 s … 30 s between.

export const DEFAULT_TIMEOUT_SECONDS = 600;
export const DEFAULT_BACKOFF_LIMIT = 3;
export const FIRST_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 30_000;
export const DEADLINE_EXCEEDED_MESSAGE = 'pulling exceeds the activeDeadlineSeconds';

export interface PullSettings {
  /** How many attempts at most. */
  attempts: number;
  timeoutMs: number;
  /** ms since the epoch after which no attempt starts, when the tag has activeDeadlineSeconds. */
  deadline?: number;
}

/** A negative backoffLimit counts as the default, as upstream. */
export function pullSettings(
  policy: { timeoutSeconds?: number; backoffLimit?: number; activeDeadlineSeconds?: number } | undefined,
  startedAt: number,
): PullSettings {
  const limit = policy?.backoffLimit ?? DEFAULT_BACKOFF_LIMIT;
  return {
    attempts: (limit < 0 ? DEFAULT_BACKOFF_LIMIT : limit) + 1,
    timeoutMs: (policy?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    ...(policy?.activeDeadlineSeconds !== undefined
      ? { deadline: startedAt + policy.activeDeadlineSeconds * 1000 }
      : {}),
  };
}

/** The time the next attempt may take, or `exceeded` when the deadline has passed. */
export function attemptTimeout(s: PullSettings, now: number): number | 'exceeded' {
  if (s.deadline === undefined) return s.timeoutMs;
  const left = s.deadline - now;
  if (left <= 0) return 'exceeded';
  return Math.min(left, s.timeoutMs);
}

/** The pause after failed attempt `n` (0-based): 1 s, 2 s, 4 s … at most 30 s. */
export function backoffAfter(n: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.min(n, 30), MAX_BACKOFF_MS);
}

/** `IfNotPresent` skips the pull of a present image; `Always`, and any other value (also none), pulls. */
export function needsPull(imagePullPolicy: string | undefined, present: boolean): boolean {
  return !(present && imagePullPolicy === 'IfNotPresent');
}
