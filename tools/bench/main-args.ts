// `npm run bench`'s benchmark names, its usage line and its size flags (main.ts).

export const BENCHMARKS = [
  'watches',
  'latency',
  'memory',
  'rollout',
  'asts-rollout',
  'ads-rollout',
  'distribution',
  'sidecarset-latency',
  'sidecarset-policy',
  'sidecarset-upgrade',
  'imagepull',
  'coldstart',
  'broadcastjob',
  'bus',
];
export const usage = `usage: npm run bench [-- --quick] [-- --only=${BENCHMARKS.join(',')}] [-- --rollout-pods=N] [-- --bus-replicas=N] [-- --rollout-type=ReCreate|InPlaceIfPossible|InPlaceOnly] [-- --asts-pods=N] [-- --ads-nodes=N] [-- --sidecarset-pods=N] [-- --imagepull-nodes=N] [-- --coldstart-pods=N] [-- --sidecarset-node-args='FLAGS'] [-- --sidecarset-gap-ms=N] [-- --peer=kruise [-- --peer-qps=Q] [-- --peer-burst=B]] [-- --keep] [-- --sources]`;
/** A size flag's positive integer (at least `min`) when given; a usage error otherwise. */
export function sizeArgOf(args: readonly string[], flag: string, min = 1): number | undefined {
  const a = args.find((x) => x.startsWith(`${flag}=`));
  if (a === undefined) return undefined;
  const v = Number(a.slice(flag.length + 1));
  if (!(Number.isInteger(v) && v >= min)) {
    console.error(`${flag} wants ${min === 1 ? 'a positive integer' : `an integer of at least ${min}`}, got ${a}`);
    process.exit(2);
  }
  return v;
}
