// Two esbuild plugins for what a program holds from its start (tools/build/build.mjs; docs/adr/0051, sixth
// amendment). Measured on the CloneSet bundle stopped at configuration (resident memory, MALLOC_ARENA_MAX=2, the
// image's flags): 88.8 MiB before, 86.5 with the first plugin, 77.0 with both; an empty script 41.7.
import { join } from 'node:path';

const HTTP_NAMESPACE = 'regatta-require-http';

/**
 * The bundle loads Node's `http` module with `require`, never with an ES `import`. To build an ES namespace Node
 * reads every export of a built-in module, and `http`'s `WebSocket`, `CloseEvent` and `MessageEvent` are getters
 * that load Node's own copy of undici (lib/http.js in Node 24), which no Regatta program uses. Each ES import of
 * `http` or `node:http` (@kubernetes/client-node has some) goes to one module of the bundle whose body is the
 * `require`; esbuild's CommonJS interop keeps default and named imports working and reads an export only when the
 * code does.
 * @type {import('esbuild').Plugin}
 */
export const requireHttp = {
  name: 'require-http',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.kind === 'require-call' ? undefined : { path: 'node:http', namespace: HTTP_NAMESPACE },
    );
    build.onLoad({ filter: /.*/, namespace: HTTP_NAMESPACE }, () => ({
      contents: "module.exports = require('node:http');",
      loader: 'js',
    }));
  },
};

const CLIENT_NODE = '/@kubernetes/client-node/dist/';

/**
 * @kubernetes/client-node's modules are bundled only when the program uses what they export. Its package.json does
 * not say `"sideEffects": false`, so esbuild keeps every module its index reaches, among them the generated models
 * and the `ObjectSerializer` that lists them all (0.45 MB of the bundle, more in the heap once evaluated), though
 * the programs use only `KubeConfig` and the request types (libs/kube). `polyfill.js`, imported for its effect,
 * stays. The package's modules import one another by relative paths with their extensions, so joining the path to
 * the importer's folder is the resolution.
 * @type {import('esbuild').Plugin}
 */
export const clientNodeWithoutSideEffects = {
  name: 'client-node-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.includes(CLIENT_NODE)) return undefined;
      const path = join(args.resolveDir, args.path);
      return path.endsWith('/polyfill.js') ? undefined : { path, sideEffects: false };
    });
  },
};
