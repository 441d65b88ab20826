// The client side of API overload, as client-go's rest.Config gives every controller: a token bucket over the
// requests a client sends (QPS and Burst, k8s.io/client-go/util/flowcontrol) and the retry of a request the server
// throttled (429 TooManyRequests, or a 5xx with Retry-After: the server did not process it), waiting the server's
// Retry-After each time, up to 10 times (k8s.io/client-go/rest/with_retry.go). A runaway loop in a controller then
// costs the API server at most `qps` requests a second instead of all it can take, and API Priority and Fairness
// rejections are waited out instead of failing a reconcile each (docs/adr/0091-client-rate-limits.md).
import { KubeApiError } from './errors.js';
import { sleep } from './retry.js';

/** Requests a second on average, and how many may go at once after a quiet spell. */
export interface RateLimit {
  qps: number;
  burst: number;
}

/**
 * The programs' default: well above what a 1000-pod rollout sends (a batch writes about 3 requests per pod), so
 * it never slows a healthy rollout, and low enough that a runaway loop cannot flood the API server.
 */
export const DEFAULT_RATE_LIMIT: Readonly<RateLimit> = { qps: 200, burst: 400 };

/** A throttled request is sent again at most this many times (client-go's default). */
export const MAX_THROTTLE_RETRIES = 10;
/** The wait for a 429 without Retry-After; a longer Retry-After than {@link MAX_THROTTLE_WAIT_MS} is cut to it. */
export const DEFAULT_THROTTLE_WAIT_MS = 1000;
export const MAX_THROTTLE_WAIT_MS = 30_000;

/** A token bucket's state: tokens left (negative: reserved ahead by waiting callers) at a time. */
export interface BucketState {
  tokens: number;
  atMs: number;
}

/**
 * Takes one token at `nowMs`: the next state and how long the caller waits before sending (0 when a token was
 * there). A caller finding none reserves the next one, so callers go in the order they came.
 */
export function reserveToken(limit: RateLimit, state: BucketState, nowMs: number): { state: BucketState; waitMs: number } {
  const refilled = Math.min(limit.burst, state.tokens + (Math.max(0, nowMs - state.atMs) * limit.qps) / 1000);
  const tokens = refilled - 1;
  const waitMs = tokens >= 0 ? 0 : (-tokens * 1000) / limit.qps;
  return { state: { tokens, atMs: nowMs }, waitMs };
}

/** One client's bucket, full at the start. */
export class TokenBucket {
  private state: BucketState;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.state = { tokens: limit.burst, atMs: now() };
  }

  /** Waits for a token; resolves with the time waited (ms). */
  async take(): Promise<number> {
    const r = reserveToken(this.limit, this.state, this.now());
    this.state = r.state;
    if (r.waitMs > 0) await sleep(r.waitMs);
    return r.waitMs;
  }
}

/**
 * How long to wait before sending a request again after `err` (its `retries`-th retry coming), or undefined when
 * it is not sent again: only a throttled request (429, or 503 with Retry-After) is, and only `maxRetries` times.
 * The wait is the server's Retry-After (capped) plus up to half of it at random (`random` in [0, 1)): requests
 * rejected together do not all come back in the same instant. APF lengthens its Retry-After while rejections go on
 * (k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go), so a herd would meet a longer one each time.
 */
export function throttledRetryDelayMs(
  err: unknown,
  retries: number,
  maxRetries = MAX_THROTTLE_RETRIES,
  random: () => number = Math.random,
): number | undefined {
  if (!(err instanceof KubeApiError) || retries >= maxRetries) return undefined;
  const after = err.retryAfterSeconds;
  let waitMs: number;
  if (err.status === 429) {
    waitMs = after !== undefined && after > 0 ? Math.min(after * 1000, MAX_THROTTLE_WAIT_MS) : DEFAULT_THROTTLE_WAIT_MS;
  } else if (err.status === 503 && after !== undefined && after > 0) {
    waitMs = Math.min(after * 1000, MAX_THROTTLE_WAIT_MS);
  } else {
    return undefined;
  }
  return Math.round(waitMs * (1 + random() / 2));
}

/** A rate-limit variable that is not a number (or a burst under 1). */
export class RateLimitConfigError extends Error {
  readonly code = 'REGATTA_KUBE_RATE_LIMIT';

  constructor(message: string) {
    super(message);
    this.name = 'RateLimitConfigError';
  }
}

/** A limit from a variable's text; `what` names it in the error. */
function numberOf(what: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) {
    throw new RateLimitConfigError(`${what}='${text}' is not a number; set requests a second (for example 200), or -1 for no limit`);
  }
  return n;
}

/**
 * The rate limit a program's clients take from its environment: `REGATTA_KUBE_QPS` and `REGATTA_KUBE_BURST`
 * (the chart's `kubeClient.qps` / `kubeClient.burst`), each defaulting to {@link DEFAULT_RATE_LIMIT}'s; a QPS of
 * 0 or less turns the limit off (undefined), as a negative QPS does in client-go.
 */
export function rateLimitFromEnv(env: NodeJS.ProcessEnv = process.env): RateLimit | undefined {
  const qpsText = env['REGATTA_KUBE_QPS'];
  const burstText = env['REGATTA_KUBE_BURST'];
  const qps = qpsText === undefined || qpsText === '' ? DEFAULT_RATE_LIMIT.qps : numberOf('REGATTA_KUBE_QPS', qpsText);
  if (qps <= 0) return undefined;
  const burst =
    burstText === undefined || burstText === '' ? Math.max(DEFAULT_RATE_LIMIT.burst, Math.ceil(qps)) : numberOf('REGATTA_KUBE_BURST', burstText);
  if (burst < 1) throw new RateLimitConfigError(`REGATTA_KUBE_BURST='${burstText}' must be at least 1`);
  return { qps, burst };
}
