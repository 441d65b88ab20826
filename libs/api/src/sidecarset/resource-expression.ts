/**
 * The grammar of `resourcesPolicy.resourcesExpr` expressions (OpenKruise `pkg/util/calculator`, as the SidecarSet
 * webhook checks them in `validateResourceExpression`): numbers, percentages (`50%` = 0.5) and Kubernetes quantities
 * (`0.5`, `100m`, `1Gi`), the one variable of the resource (`cpu` or `memory`), `+ - * /`, unary minus,
 * parentheses and `max(a, b, …)` / `min(a, b, …)`. {@link parseResourceExpression} returns the syntax tree, so the injection code can evaluate it.
 */

export type ResourceExprNode =
  | { kind: 'number'; text: string }
  | { kind: 'variable'; name: string }
  | { kind: 'neg'; arg: ResourceExprNode }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: ResourceExprNode; right: ResourceExprNode }
  | { kind: 'call'; fn: 'max' | 'min'; args: ResourceExprNode[] };

export type ParsedResourceExpr = { ok: true; node: ResourceExprNode } | { ok: false; error: string };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:%|Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),]))/y;

class ParseError extends Error {}

/** Parses an expression whose only variable is `variable`. */
export function parseResourceExpression(expr: string, variable: string): ParsedResourceExpr {
  const tokens: { t: 'num' | 'id' | 'op'; v: string }[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < expr.length) {
    if (/^\s*$/.test(expr.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(expr);
    if (!m) return { ok: false, error: `invalid expression: unexpected character at ${pos}: ${JSON.stringify(expr.slice(pos, pos + 10))}` };
    pos = TOKEN.lastIndex;
    if (m[1] !== undefined) tokens.push({ t: 'num', v: m[1] });
    else if (m[2] !== undefined) tokens.push({ t: 'id', v: m[2] });
    else tokens.push({ t: 'op', v: m[3] ?? '' });
  }
  let i = 0;
  const peek = () => tokens[i];
  const take = (v: string): boolean => {
    if (peek()?.t === 'op' && peek()?.v === v) {
      i++;
      return true;
    }
    return false;
  };
  const expect = (v: string): void => {
    if (!take(v)) throw new ParseError(`expected ${JSON.stringify(v)}`);
  };
  const primary = (): ResourceExprNode => {
    const tok = tokens[i++];
    if (!tok) throw new ParseError('unexpected end of expression');
    if (tok.t === 'num') return { kind: 'number', text: tok.v };
    if (tok.t === 'id') {
      if (tok.v === 'max' || tok.v === 'min') {
        expect('(');
        const args = [sum()];
        while (take(',')) args.push(sum());
        expect(')');
        return { kind: 'call', fn: tok.v, args };
      }
      if (tok.v !== variable) throw new ParseError(`unknown variable ${JSON.stringify(tok.v)} (only ${variable})`);
      return { kind: 'variable', name: tok.v };
    }
    if (tok.v === '(') {
      const inner = sum();
      expect(')');
      return inner;
    }
    if (tok.v === '-') return { kind: 'neg', arg: primary() };
    throw new ParseError(`unexpected ${JSON.stringify(tok.v)}`);
  };
  const product = (): ResourceExprNode => {
    let left = primary();
    for (;;) {
      const op = take('*') ? '*' : take('/') ? '/' : undefined;
      if (!op) return left;
      left = { kind: 'binary', op, left, right: primary() };
    }
  };
  const sum = (): ResourceExprNode => {
    let left = product();
    for (;;) {
      const op = take('+') ? '+' : take('-') ? '-' : undefined;
      if (!op) return left;
      left = { kind: 'binary', op, left, right: product() };
    }
  };
  try {
    if (tokens.length === 0) throw new ParseError('empty expression');
    const node = sum();
    if (i < tokens.length) throw new ParseError(`unexpected ${JSON.stringify(tokens[i]?.v)}`);
    return { ok: true, node };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: `invalid expression: ${e.message}` };
    throw e;
  }
}
