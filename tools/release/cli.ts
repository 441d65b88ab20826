// The regatta CLI as one self-contained file (docs/images.md "The CLI as one file"): the sandbox app's bundle
// (tools/build/build.mjs), made an executable ES module with a shebang, its licences inlined and no source map
// reference, and told its own name (a `kubectl-regatta` link names itself `kubectl regatta`, as apps/sandbox/bin does).
const LEGAL_POINTER = /\/\*! For license information please see main\.mjs\.LEGAL\.txt \*\/\n?/;
const MAP_LINE = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

/** The single-file CLI's text from the bundle's text and its LEGAL.txt; `regatta version` prints `version`. */
export function cliFile(bundle: string, legal: string, version: string): string {
  const licences = legal.trim() === '' ? '' : `/*\n${legal.replaceAll('*/', '* /').trimEnd()}\n*/\n`;
  const body = bundle.replace(MAP_LINE, '\n').replace(LEGAL_POINTER, '');
  return [
    '#!/usr/bin/env node',
    // before the bundle's body runs (its imports are Node's built-ins only)
    "process.env.REGATTA_INVOKED_AS ??= (process.argv[1] ?? '').split('/').pop()?.replace(/\\.m?js$/, '');",
    `process.env.REGATTA_VERSION = ${JSON.stringify(version)};`,
    body.trimEnd(),
    licences,
  ].join('\n');
}
