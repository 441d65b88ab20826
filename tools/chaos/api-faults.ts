// Which API request the fault-injecting proxy (api-proxy.ts) breaks, and how. Pure: a request and a random source
// in, a decision out. Faults: 409 Conflict on an update (the object changed under the writer), 429 Too Many Requests
// with Retry-After, 500 and a timeout (no answer, the connection closed after `hangMs`), the last two either before the
// request reaches the API server or after it was served (the write happened, its answer is lost), and a watch
// connection dropped mid-stream. Leases are never broken (leader election has its own, documented, failure path:
// a lost lease ends the program).

export const API_FAULT_KINDS = ['409', '429', '500', 'timeout', 'drop-watch'] as const;
export type ApiFaultKind = (typeof API_FAULT_KINDS)[number];

export interface ApiFault {
  kind: ApiFaultKind;
  /** `after`: forward the request, then break the answer (500, timeout); `before`: never forward it. */
  when: 'before' | 'after';
}

export interface ApiRequest {
  method: string;
  path: string;
}

export const isWatch = (r: ApiRequest) => /[?&]watch=(1|true)\b/.test(r.path);
export const isLease = (r: ApiRequest) => r.path.includes('/apis/coordination.k8s.io/');

/** The fault for one request, or undefined: with probability `rate`, a kind the request can meet. */
export function decideApiFault(rand: () => number, r: ApiRequest, rate: number): ApiFault | undefined {
  if (isLease(r) || rand() >= rate) return undefined;
  if (isWatch(r)) return { kind: 'drop-watch', when: 'after' };
  const kinds: ApiFaultKind[] =
    r.method === 'PUT' || r.method === 'PATCH' ? ['409', '429', '500', 'timeout'] : ['429', '500', 'timeout'];
  const kind = kinds[Math.floor(rand() * kinds.length)]!;
  const when = kind === '500' || kind === 'timeout' ? (rand() < 0.5 ? 'before' : 'after') : 'before';
  return { kind, when };
}

/** The Kubernetes Status body of an injected error. */
export function statusBody(kind: '409' | '429' | '500'): { code: number; body: string } {
  const [code, reason, message] =
    kind === '409'
      ? [
          409,
          'Conflict',
          'the object has been modified; please apply your changes to the latest version and try again (injected by the chaos suite)',
        ]
      : kind === '429'
        ? [429, 'TooManyRequests', 'too many requests, please try again later (injected by the chaos suite)']
        : [500, 'InternalError', 'Internal error occurred: injected by the chaos suite'];
  return {
    code,
    body: JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      code,
    }),
  };
}
