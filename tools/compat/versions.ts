// Pinned version of OpenKruise used by `npm run compat`. tools/compat/build.sh reads these lines
// (keep the `export const NAME = 'value';` form); the cache folder is keyed by the version,
// ${REGATTA_CACHE:-~/.cache/regatta}/openkruise-<version>/bin.
export const OPENKRUISE_VERSION = '1.9.1';
export const OPENKRUISE_MODULE = 'github.com/openkruise/kruise';
