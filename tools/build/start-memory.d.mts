import type { Plugin } from 'esbuild';
/** Bundles load Node's `http` module with `require`, not an ES import (start-memory.mjs; docs/adr/0051). */
export declare const requireHttp: Plugin;
/** @kubernetes/client-node's modules bundled only when used (start-memory.mjs; docs/adr/0051). */
export declare const clientNodeWithoutSideEffects: Plugin;
