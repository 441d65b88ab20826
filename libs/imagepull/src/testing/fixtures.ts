// Builders for the unit tables: a job for `nginx:1.20` and NodeImages holding its tag and status.
import type { ImagePullJob, ImageTagStatus, NodeImage, ReferenceObject } from '@regatta/api';

export const JOB_UID = 'job-uid-1';

export function job(edit: (j: ImagePullJob) => void = () => undefined): ImagePullJob {
  const j: ImagePullJob = {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'ImagePullJob',
    metadata: { name: 'job1', namespace: 'default', uid: JOB_UID },
    spec: { image: 'nginx:1.20', completionPolicy: { type: 'Always' } },
  };
  edit(j);
  return j;
}

export const owner = (uid = JOB_UID, name = 'job1') => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'ImagePullJob',
  name,
  namespace: 'default',
  uid,
});

export interface NodeImageSpecOptions {
  tag?: string;
  version?: number;
  owners?: ReturnType<typeof owner>[];
  secrets?: ReferenceObject[];
  status?: Partial<ImageTagStatus> & { tag?: string };
  image?: string;
  createdAt?: string;
  ttl?: number;
  labels?: Record<string, string>;
}

export function nodeImage(name: string, o: NodeImageSpecOptions = {}): NodeImage {
  const image = o.image ?? 'nginx';
  const ni: NodeImage = { metadata: { name, ...(o.labels ? { labels: o.labels } : {}) }, spec: {} };
  if (o.tag !== undefined) {
    ni.spec = {
      images: {
        [image]: {
          tags: [
            {
              tag: o.tag,
              version: o.version ?? 0,
              createdAt: o.createdAt ?? '2025-01-01T00:00:00Z',
              ownerReferences: o.owners ?? [owner()],
              pullPolicy: { ttlSecondsAfterFinished: o.ttl ?? 300 },
            },
          ],
          ...(o.secrets ? { pullSecrets: o.secrets } : {}),
        },
      },
    };
  } else if (o.secrets) {
    ni.spec = { images: { [image]: { tags: [], pullSecrets: o.secrets } } };
  }
  if (o.status) {
    ni.status = {
      desired: 1,
      imageStatuses: { [image]: { tags: [{ tag: o.tag ?? '1.20', phase: 'Pulling', version: 0, ...o.status }] } },
    };
  }
  return ni;
}
