/**
 * The Advanced StatefulSet reconciler as the program declares it (apps/asts): rollout traces (span prefix
 * `statefulset`, service regatta-asts) and image pre-download (the `imagepulljobs` reader: the jobs StatefulSets
 * control) around the {@link StatefulSetReconciler}.
 */
import type { Tracer } from '@opentelemetry/api';
import { ImagePreDownloadControl } from '@regatta/image-predownload';
import { RolloutTracer } from '@regatta/workload';
import { StatefulSetReconciler, type StatefulSetReconcilerDeps } from './reconciler.js';

export interface StatefulSetProgramContext {
  readers: Pick<StatefulSetReconcilerDeps, 'statefulsets' | 'pods' | 'pvcs' | 'revisions'> & {
    imagepulljobs: ConstructorParameters<typeof ImagePreDownloadControl>[0]['jobs'];
  };
  client: StatefulSetReconcilerDeps['client'] &
    ConstructorParameters<typeof ImagePreDownloadControl>[0]['client'];
  expectations: StatefulSetReconcilerDeps['expectations'];
  recorder: StatefulSetReconcilerDeps['recorder'];
  gates: NonNullable<StatefulSetReconcilerDeps['gates']>;
  tracer: Tracer;
}

export function statefulSetReconcilerOf({
  readers,
  client,
  expectations,
  recorder,
  gates,
  tracer,
}: StatefulSetProgramContext): StatefulSetReconciler {
  const rollouts = new RolloutTracer(tracer, { prefix: 'statefulset' });
  const imagePreDownload = new ImagePreDownloadControl({ client, jobs: readers.imagepulljobs, recorder });
  return new StatefulSetReconciler({
    ...readers,
    client,
    expectations,
    recorder,
    gates,
    rollouts,
    imagePreDownload,
  });
}
