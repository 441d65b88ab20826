/**
 * `resourcesPolicy` at injection (OpenKruise `pkg/webhook/pod/mutating/sidecarset_resources.go`): the sidecar's
 * resources computed from the target containers' (the pod's containers and native-sidecar init containers whose
 * names match the regex, SidecarSet sidecars excluded), summed or maxed, through the `resourcesExpr` expressions
 * (parsed by @regatta/api). Limits only when every target has one; missing requests count as 0.
 */
import { type ResourceExprNode, parseResourceExpression } from '@regatta/api';
import { InjectionError } from './errors.js';
import { isNativeSidecar } from './native-sidecar.js';
import type { Container, Pod, SidecarContainer } from './types.js';

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A Kubernetes quantity in base units (cores, bytes); a percentage (`50%`, calculator's `parseNumber`) is a fraction. */
export function parseQuantity(q: string | number): number {
  if (typeof q === 'number') return q;
  const pct = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)%$/.exec(q.trim());
  if (pct) return Number(pct[1]) / 100;
  const m = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/.exec(q.trim());
  if (!m) throw new InjectionError(`invalid quantity ${q}`);
  return Number(m[1]) * (SUFFIX[m[2] ?? ''] ?? 1);
}

function evaluate(node: ResourceExprNode, value: number): number {
  switch (node.kind) {
    case 'number':
      return parseQuantity(node.text);
    case 'variable':
      return value;
    case 'neg':
      return -evaluate(node.arg, value);
    case 'binary': {
      const l = evaluate(node.left, value);
      const r = evaluate(node.right, value);
      if (node.op === '/' && r === 0) throw new InjectionError('division by zero in resourcesExpr');
      return node.op === '+' ? l + r : node.op === '-' ? l - r : node.op === '*' ? l * r : l / r;
    }
    case 'call':
      return (node.fn === 'max' ? Math.max : Math.min)(...node.args.map((a) => evaluate(a, value)));
  }
}

/** cpu in millicores (`1500m`, `2`), memory in bytes (`536870912`); the API server stores them canonically. */
function format(resource: 'cpu' | 'memory', v: number): string {
  if (resource === 'cpu') {
    const milli = Math.trunc(v * 1000 + 1e-9);
    return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
  }
  return String(Math.trunc(v + 1e-9));
}

function targets(pod: Pod, regex: string, sidecarNames: ReadonlySet<string>): Container[] {
  let pattern: RegExp;
  try {
    pattern = new RegExp(regex);
  } catch (err) {
    throw new InjectionError(`invalid regex pattern ${JSON.stringify(regex)}: ${(err as Error).message}`);
  }
  const init = ((pod.spec?.initContainers ?? []) as Container[]).filter(isNativeSidecar);
  return [...init, ...((pod.spec?.containers ?? []) as Container[])].filter(
    (c) => !sidecarNames.has(c.name) && pattern.test(c.name),
  );
}

type Totals = {
  limits: Partial<Record<'cpu' | 'memory', number>>;
  requests: Record<'cpu' | 'memory', number>;
};

function aggregate(containers: readonly Container[], mode: string): Totals {
  const out: Totals = { limits: {}, requests: { cpu: 0, memory: 0 } };
  for (const r of ['cpu', 'memory'] as const) {
    const limits = containers.map((c) => c.resources?.limits?.[r]);
    const present = limits.filter((l): l is string | number => l !== undefined);
    if (present.length === limits.length) {
      const values = present.map(parseQuantity);
      out.limits[r] = mode === 'max' ? Math.max(...values) : values.reduce((a, b) => a + b, 0);
    }
    const requests = containers
      .map((c) => c.resources?.requests?.[r])
      .filter((q): q is string | number => q !== undefined);
    const values = requests.map(parseQuantity);
    out.requests[r] =
      values.length === 0 ? 0 : mode === 'max' ? Math.max(...values) : values.reduce((a, b) => a + b, 0);
  }
  return out;
}

/** The sidecar with its resources computed for `pod`, or as it is without a resourcesPolicy. */
export function withResourcesPolicy(
  sidecar: SidecarContainer,
  pod: Pod,
  sidecarNames: ReadonlySet<string>,
): SidecarContainer {
  const policy = sidecar.resourcesPolicy;
  if (!policy) return sidecar;
  const regex = policy.targetContainersNameRegex ?? '.*';
  const chosen = targets(pod, regex, sidecarNames);
  if (chosen.length === 0)
    throw new InjectionError(`no containers match the regex pattern ${JSON.stringify(regex)}`);
  const totals = aggregate(chosen, policy.targetContainersMode);
  const compute = (
    expr: string | undefined,
    r: 'cpu' | 'memory',
    value: number | undefined,
  ): string | undefined => {
    if (!expr || value === undefined) return undefined;
    const parsed = parseResourceExpression(expr, r);
    if (!parsed.ok)
      throw new InjectionError(`failed to parse expression ${JSON.stringify(expr)}: ${parsed.error}`);
    return format(r, evaluate(parsed.node, value));
  };
  const resources: NonNullable<Container['resources']> = {};
  const section = (which: 'limits' | 'requests') => {
    const exprs = policy.resourcesExpr[which];
    if (!exprs) return;
    const out: Record<string, string> = {};
    for (const r of ['cpu', 'memory'] as const) {
      const v = compute(exprs[r], r, which === 'limits' ? totals.limits[r] : totals.requests[r]);
      if (v !== undefined) out[r] = v;
    }
    if (Object.keys(out).length) resources[which] = out;
  };
  section('limits');
  section('requests');
  return { ...sidecar, resources };
}
