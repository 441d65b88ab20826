// The Node flags every Regatta program runs with: deploy/Dockerfile's ENTRYPOINT (tools/deploy/build.test.ts checks
// it says these) and every benchmark's programs (tools/bench/common.ts). Why each: docs/adr/0051.
// - `--enable-source-maps`: stack traces name the TypeScript sources (the bundle's linked map);
// - `--max-semi-space-size=16` (MiB): V8's young generation at most 2 × 16 MiB. Node 24 lets it grow to 2 × 64 MiB
//   on a machine with a few GiB, and a controller that parses every bus update fills it: 128 MiB of the CloneSet
//   program's resident memory during a rollout were the young generation, most of it empty after each scavenge.
export const NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=16'];
