// The Node flags every Regatta program runs with: deploy/Dockerfile's ENTRYPOINT (tools/deploy/build.test.ts checks
// it says these) and every benchmark's programs (tools/bench/common.ts). Why: docs/adr/0051.
// - `--max-semi-space-size=4` (MiB): V8's young generation at most 2 × 4 MiB. Node 24 lets it grow to 2 × 64 MiB
//   on a machine with a few GiB, and a controller that parses every bus update fills it: 128 MiB of the CloneSet
//   program's resident memory during a rollout were the young generation, most of it empty after each scavenge.
//   16 MiB (the first cap) still cost 113 MiB of growth for 1000 pods; 4 MiB, 48 (docs/adr/0051, amendment).
// - `--heap-growing-percent=30`: after a full collection V8 lets the old generation grow to 1.3 × what survived
//   before the next one (by default it picks a factor up to 4 from how fast it collects), so a rollout's decoded
//   updates no longer stack up as headroom: the CloneSet program's peak over the 1000-pod rollout 211 → 146 MiB,
//   for 18 % more of its CPU (docs/adr/0051, second amendment). A V8 flag: Node refuses it in NODE_OPTIONS, so it
//   goes on the command line (the Dockerfile's ENTRYPOINT; REGATTA_NODE_ARGS for the benchmarks' programs).
// - no `--enable-source-maps`: Node parses a bundle's whole map (one array per mapping) the first time a stack
//   trace is formatted, 58-77 MiB of heap for the CloneSet program's. The map ships beside the bundle; set
//   NODE_OPTIONS=--enable-source-maps to have traces name the TypeScript sources (docs/operations.md).
export const NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=30'];

// The environment every Regatta program runs with besides (deploy/Dockerfile's ENV; the benchmarks' programs):
// - `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates (libuv's pool, V8's GC and compiler threads) an
//   arena of its own, up to 8 per core, and keeps what they freed. Two arenas: the CloneSet program's peak over the
//   1000-pod rollout 11 MiB lower, the watcher's 8, idle both 4-7, at the same CPU (docs/adr/0051, fourth amendment).
export const PROGRAM_ENV = { MALLOC_ARENA_MAX: '2' };
