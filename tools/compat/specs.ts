/**
 * Lists the specs (`ginkgo.It`) of an OpenKruise e2e source file with their line numbers and the names of the
 * containers (`Describe` / `Context`) around them. gofmt indents with one tab per block, which gives the nesting.
 */
export interface Spec {
  /** Path under upstream's test/e2e/, e.g. `apps/v1alpha1/cloneset.go`. */
  file: string;
  /** Line of the `ginkgo.It(` call: what `--ginkgo.focus-file=<file>:<line>` selects. */
  line: number;
  text: string;
  /** Enclosing Describe/Context texts, outermost first. */
  containers: string[];
}

const NODE =
  /^(\t*)(?:var _ = )?(?:[A-Za-z_][\w]*\.)?(Describe|Context|When|It|SIGDescribe|KruiseDescribe)\(\s*(.*)$/;

/** The text of a Go string literal at the start of `rest` ("…" or `…`), or the raw expression up to a comma. */
export function leadingString(rest: string): string {
  const q = rest[0];
  if (q === '`') {
    const end = rest.indexOf('`', 1);
    return end > 0 ? rest.slice(1, end) : rest.slice(1);
  }
  if (q === '"') {
    let out = '';
    for (let i = 1; i < rest.length; i++) {
      const ch = rest.charAt(i);
      if (ch === '\\' && i + 1 < rest.length) {
        out += rest.charAt(++i);
        continue;
      }
      if (ch === '"') return out;
      out += ch;
    }
    return out;
  }
  const comma = rest.indexOf(',');
  return (comma >= 0 ? rest.slice(0, comma) : rest).trim();
}

export function parseSpecs(source: string, file: string): Spec[] {
  const stack: { indent: number; text: string }[] = [];
  const specs: Spec[] = [];
  source.split('\n').forEach((raw, i) => {
    const m = NODE.exec(raw);
    if (!m) return;
    const [, tabs = '', node, rest = ''] = m;
    const indent = tabs.length;
    const text = leadingString(rest);
    while (stack.length > 0 && (stack.at(-1)?.indent ?? -1) >= indent) stack.pop();
    if (node === 'It') specs.push({ file, line: i + 1, text, containers: stack.map((s) => s.text) });
    else stack.push({ indent, text });
  });
  return specs;
}

/** The key of a spec in NOT_APPLICABLE and in `--only`. */
export const specKey = (s: Pick<Spec, 'file' | 'text'>): string => `${s.file}:${s.text}`;

/** Whether `--only` selects this spec: a line number, a whole file, `file:line`, or a piece of the spec text. */
export function selects(filter: string, s: Spec): boolean {
  if (/^\d+$/.test(filter)) return s.line === Number(filter);
  if (filter === s.file) return true;
  if (filter === `${s.file}:${s.line}` || filter === `${s.file.split('/').pop()}:${s.line}`) return true;
  return s.text.includes(filter);
}
