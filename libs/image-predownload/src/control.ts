/**
 * The writes of image pre-download (OpenKruise `createImagePullJobsForInPlaceUpdate`, `patchControllerRevisionLabels`
 * and `pkg/util/imagejob/utilfunction` `DeleteJobsForWorkload`), shared by CloneSet, Advanced StatefulSet and
 * Advanced DaemonSet (docs/adr/0036-image-pre-download-lib.md). Each update revision is handled once: its jobs are
 * created (an existing one is left as it is) and it is labelled `apps.kruise.io/pre-predownload-created`, or it is
 * labelled `apps.kruise.io/image-predownload-ignored` with the reason not to. Jobs are deleted once no rollout is on.
 */
import { Labels } from '@regatta/api';
import {
  EventReasons,
  type EventRecorder,
  type GroupVersionKind,
  type KubeObject,
  type LabelSelector,
  controllerRef,
  isAlreadyExists,
  isControlledBy,
  isNotFound,
} from '@regatta/kube';
import type { ControllerRevision, PodTemplate } from '@regatta/revision';
import type { ControlLogger, KubeWriter, ObjectReader } from '@regatta/workload';
import { changedImages } from './images.js';
import { preDownloadJob } from './job.js';
import type { PreDownloadSettings } from './settings.js';
import type { IgnoreReason } from './when.js';

export interface ImagePreDownloadControlDeps {
  client: Pick<KubeWriter, 'create' | 'patch' | 'delete'>;
  /** ImagePullJobs (a bus cache): the ones the workload controls are deleted by {@link ImagePreDownloadControl.cleanup}. */
  jobs: ObjectReader<KubeObject>;
  recorder: Pick<EventRecorder, 'normal'>;
}

export interface PrepareInput {
  owner: KubeObject;
  ownerKind: GroupVersionKind;
  selector: LabelSelector;
  /** The workload's pod template (= the update revision's). */
  template: PodTemplate;
  /** The templates pods may be at now (CloneSet/StatefulSet: the current revision; DaemonSet: every old one). */
  oldTemplates: readonly PodTemplate[];
  updateRevision: ControllerRevision;
  settings: PreDownloadSettings;
  /** Why not to pre-download this revision ({@link ignoreReason}); undefined = create the jobs. */
  ignore: IgnoreReason | undefined;
  log: ControlLogger;
}

/** What {@link ImagePreDownloadControl.prepare} did. */
export type PrepareOutcome =
  | { outcome: 'handled' }
  | { outcome: 'ignored'; reason: IgnoreReason }
  | { outcome: 'created'; jobs: string[] };

/** Revisions marked by this process, until the cache shows the label (at most this many remembered). */
const MARKED_MEMORY = 4096;

export class ImagePreDownloadControl {
  readonly #d: ImagePreDownloadControlDeps;
  readonly #marked = new Set<string>();

  constructor(deps: ImagePreDownloadControlDeps) {
    this.#d = deps;
  }

  /** Whether this revision was already handled (by its labels, or by a write of this process). */
  handled(revision: ControllerRevision): boolean {
    const labels = revision.metadata?.labels ?? {};
    if (Labels.PrePredownloadCreated in labels || Labels.ImagePredownloadIgnored in labels) return true;
    return this.#marked.has(revision.metadata?.uid ?? '');
  }

  /** Creates the update revision's jobs once (or labels it ignored). A failed create is an event, not an error. */
  async prepare(input: PrepareInput): Promise<PrepareOutcome> {
    const { updateRevision: rev } = input;
    if (this.handled(rev)) return { outcome: 'handled' };
    if (input.ignore) {
      input.log.debug({ revision: rev.metadata?.name, reason: input.ignore }, 'image pre-download skipped');
      await this.#mark(rev, Labels.ImagePredownloadIgnored);
      return { outcome: 'ignored', reason: input.ignore };
    }
    const images = changedImages(input.oldTemplates, input.template);
    const created: string[] = [];
    for (const [container, image] of images) {
      const job = preDownloadJob({ ...input, container, image });
      const name = job.metadata?.name ?? '';
      try {
        await this.#d.client.create(job);
      } catch (err) {
        if (isAlreadyExists(err)) continue;
        input.log.warn({ err, job: name }, 'could not create the ImagePullJob');
        void this.#d.recorder.normal(
          input.owner,
          EventReasons.FailedCreateImagePullJob,
          `failed to create ImagePullJob ${name}: ${(err as Error).message}`,
          input.ownerKind,
        );
        continue;
      }
      created.push(name);
      void this.#d.recorder.normal(
        input.owner,
        EventReasons.CreatedImagePullJob,
        `created ImagePullJob ${name} for image: ${image}`,
        input.ownerKind,
      );
    }
    await this.#mark(rev, Labels.PrePredownloadCreated);
    return { outcome: 'created', jobs: created };
  }

  /**
   * A rollout's pre-download step, as every workload runs it: after the rollout (`cleanup`) its jobs are deleted;
   * during it (`prepare`) the update revision's jobs are created once, the rest of the input computed only then;
   * any other step (waiting for updated pods) does nothing. A failure is logged and the rollout goes on, as upstream.
   */
  async sync(
    step: { action: string },
    owner: KubeObject,
    updateRevision: ControllerRevision,
    input: () => Omit<PrepareInput, 'owner' | 'updateRevision' | 'log'>,
    log: ControlLogger,
  ): Promise<void> {
    try {
      if (step.action === 'cleanup') await this.cleanup(owner);
      if (step.action !== 'prepare' || this.handled(updateRevision)) return;
      const out = await this.prepare({ ...input(), owner, updateRevision, log });
      if (out.outcome === 'created') log.info({ jobs: out.jobs }, 'created ImagePullJobs for the rollout');
    } catch (err) {
      log.warn({ err, step: step.action }, 'image pre-download failed');
    }
  }

  /** Deletes every ImagePullJob the workload controls (the rollout is over); returns how many. */
  async cleanup(owner: KubeObject): Promise<number> {
    const uid = owner.metadata?.uid;
    if (!uid) return 0;
    const jobs = this.#d.jobs.list({
      ...(owner.metadata?.namespace ? { namespace: owner.metadata.namespace } : {}),
      filter: (j) => isControlledBy(j, { uid }) && !j.metadata?.deletionTimestamp,
    });
    for (const job of jobs) {
      try {
        await this.#d.client.delete({
          apiVersion: job.apiVersion ?? 'apps.kruise.io/v1beta1',
          kind: job.kind ?? 'ImagePullJob',
          namespace: job.metadata?.namespace ?? '',
          name: job.metadata?.name ?? '',
        });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return jobs.length;
  }

  async #mark(revision: ControllerRevision, label: string): Promise<void> {
    await this.#d.client.patch(
      {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        namespace: revision.metadata?.namespace ?? '',
        name: revision.metadata?.name ?? '',
      },
      { metadata: { labels: { [label]: 'true' } } },
      { type: 'merge' },
    );
    if (this.#marked.size >= MARKED_MEMORY) this.#marked.clear();
    this.#marked.add(revision.metadata?.uid ?? '');
  }
}

/**
 * For the ImagePullJob cache of a workload controller: keep only jobs a workload of `kind` (apps.kruise.io)
 * controls — the ones it may have to delete.
 */
export function isPreDownloadJobOf(kind: string): (job: KubeObject) => boolean {
  return (job) => {
    const ref = controllerRef(job);
    return ref?.kind === kind && ref.apiVersion.startsWith('apps.kruise.io/');
  };
}
