/**
 * ImagePullJob and NodeImage admission rules, pure (OpenKruise `pkg/webhook/imagepulljob`,
 * `pkg/webhook/nodeimage`, defaults in `apis/apps/defaults`). Each rule answers with a field path and OpenKruise's
 * own reason text, so `kubectl` shows the same words as upstream (which answers 400 with the bare text).
 */
import {
  DEFAULT_COMPLETION_POLICY_TYPE,
  DEFAULT_IMAGE_PULL_POLICY,
  DEFAULT_PULL_BACKOFF_LIMIT,
  DEFAULT_PULL_TIMEOUT_SECONDS,
  ImagePullJobKeys,
  MAX_NODE_IMAGE_IMAGES,
  type ImagePullJob,
  type NodeImage,
} from '@regatta/api';
import {
  cloneJson,
  fieldErrors,
  isPlainObject,
  jsonEqual,
  toRfc3339,
  validateLabelSelector,
  type FieldError,
} from '@regatta/kube';
import { normalizeImageRef } from './image-ref.js';

/**
 * The ImagePullJob mutating webhook: completionPolicy.type Always, pullPolicy 600 s / 3, imagePullPolicy IfNotPresent;
 * the finalizer on create. A part of the wrong type (a string `completionPolicy`, an array `spec`) is left as it is,
 * not defaulted: the CRD schema refuses it with its field path after this webhook (reliability finding 5).
 */
export function defaultImagePullJob<T extends ImagePullJob>(job: T, options: { create: boolean }): T {
  const out = cloneJson(job) as T;
  const spec = defaultedPart(out as Record<string, unknown>, 'spec');
  if (spec) {
    const completion = defaultedPart(spec, 'completionPolicy');
    if (completion && !completion['type']) completion['type'] = DEFAULT_COMPLETION_POLICY_TYPE;
    const pull = defaultedPart(spec, 'pullPolicy');
    if (pull) {
      pull['timeoutSeconds'] ??= DEFAULT_PULL_TIMEOUT_SECONDS;
      pull['backoffLimit'] ??= DEFAULT_PULL_BACKOFF_LIMIT;
    }
    if (!spec['imagePullPolicy']) spec['imagePullPolicy'] = DEFAULT_IMAGE_PULL_POLICY;
  }
  const meta = options.create ? defaultedPart(out as Record<string, unknown>, 'metadata') : undefined;
  if (meta) {
    const finalizers = Array.isArray(meta['finalizers']) ? (meta['finalizers'] as unknown[]) : meta['finalizers'] == null ? [] : undefined;
    if (finalizers && !finalizers.includes(ImagePullJobKeys.DeletionProtectionFinalizer))
      meta['finalizers'] = [...finalizers, ImagePullJobKeys.DeletionProtectionFinalizer];
  }
  return out;
}

/** `parent[key]`, an empty object put there when it is absent; undefined when it holds something else than an object. */
function defaultedPart(parent: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  parent[key] ??= {};
  const v = parent[key];
  return isPlainObject(v) ? v : undefined;
}

/** Upstream's reason texts (`pkg/webhook/imagepulljob/validating/imagepulljob_create_update_handler.go`). */
export const ImagePullJobRejections = {
  namesAndLabels: 'can not set both names and labelSelector in this spec.selector',
  duplicatedNames: 'duplicated name in selector names',
  selectorAndPodSelector: 'can not set both selector and podSelector',
  emptyImage: 'image can not be empty',
  parallelismPercent: 'parallelism does not support percentage value',
  parallelismNegative: 'parallelism must be non-negative',
  parallelismInteger: 'parallelism must be a valid integer',
  deadlineBelowTimeout:
    'completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)',
  alwaysOnly: 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType',
  pullSecretsImmutable: 'spec.pullSecrets is immutable',
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every ImagePullJob rule of CREATE and UPDATE (the spec as written, after defaulting). Never throws. */
export function validateImagePullJob(obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const spec = isRecord(obj) && isRecord(obj['spec']) ? obj['spec'] : {};
  const selector = spec['selector'];
  if (isRecord(selector)) {
    const hasLabels = selector['matchLabels'] != null || selector['matchExpressions'] != null;
    const names = selector['names'];
    if (hasLabels) {
      if (names != null) errs.push(fieldErrors.invalid('spec.selector', selector, ImagePullJobRejections.namesAndLabels));
      else errs.push(...validateLabelSelector(selector as never, 'spec.selector'));
    }
    if (Array.isArray(names)) {
      const seen = new Set<unknown>();
      names.forEach((n, i) => {
        if (seen.has(n)) errs.push(fieldErrors.invalid(`spec.selector.names[${i}]`, n, ImagePullJobRejections.duplicatedNames));
        seen.add(n);
      });
    }
  }
  const podSelector = spec['podSelector'];
  if (podSelector != null) {
    if (selector != null) errs.push(fieldErrors.forbidden('spec.podSelector', ImagePullJobRejections.selectorAndPodSelector));
    else if (isRecord(podSelector)) errs.push(...validateLabelSelector(podSelector as never, 'spec.podSelector'));
  }

  const image = spec['image'];
  if (typeof image !== 'string' || image === '') errs.push(fieldErrors.required('spec.image', ImagePullJobRejections.emptyImage));
  else if (!normalizeImageRef(image)) errs.push(fieldErrors.invalid('spec.image', image, `invalid image ${image}`));

  const parallelism = spec['parallelism'];
  if (parallelism != null) {
    if (typeof parallelism === 'string') {
      if (parallelism.endsWith('%'))
        errs.push(fieldErrors.invalid('spec.parallelism', parallelism, ImagePullJobRejections.parallelismPercent));
      else if (!/^[+-]?\d+$/.test(parallelism) || Math.abs(Number(parallelism)) > 2 ** 31 - 1)
        errs.push(fieldErrors.invalid('spec.parallelism', parallelism, ImagePullJobRejections.parallelismInteger));
      else if (Number(parallelism) < 0)
        errs.push(fieldErrors.invalid('spec.parallelism', parallelism, ImagePullJobRejections.parallelismNegative));
    } else if (typeof parallelism === 'number' && parallelism < 0) {
      errs.push(fieldErrors.invalid('spec.parallelism', parallelism, ImagePullJobRejections.parallelismNegative));
    }
  }

  const pullPolicy = isRecord(spec['pullPolicy']) ? spec['pullPolicy'] : {};
  const timeout = typeof pullPolicy['timeoutSeconds'] === 'number' ? pullPolicy['timeoutSeconds'] : DEFAULT_PULL_TIMEOUT_SECONDS;
  const completion = isRecord(spec['completionPolicy']) ? spec['completionPolicy'] : {};
  const deadline = completion['activeDeadlineSeconds'];
  switch (completion['type']) {
    case 'Always':
      if (typeof deadline === 'number' && timeout > deadline)
        errs.push(
          fieldErrors.invalid('spec.completionPolicy.activeDeadlineSeconds', deadline, ImagePullJobRejections.deadlineBelowTimeout),
        );
      break;
    case 'Never':
      if (deadline != null)
        errs.push(fieldErrors.forbidden('spec.completionPolicy.activeDeadlineSeconds', ImagePullJobRejections.alwaysOnly));
      if (completion['ttlSecondsAfterFinished'] != null)
        errs.push(fieldErrors.forbidden('spec.completionPolicy.ttlSecondsAfterFinished', ImagePullJobRejections.alwaysOnly));
      break;
    default:
      errs.push(
        fieldErrors.invalid(
          'spec.completionPolicy.type',
          completion['type'] ?? '',
          `unknown type of completionPolicy: ${String(completion['type'] ?? '')}`,
        ),
      );
  }
  return errs;
}

/** UPDATE: `spec.pullSecrets` may not change (checked before the CREATE rules, as upstream). */
export function validateImagePullJobUpdate(obj: unknown, old: unknown): FieldError[] {
  const secrets = (o: unknown) => (isRecord(o) && isRecord(o['spec']) ? o['spec']['pullSecrets'] : undefined) ?? null;
  if (!jsonEqual(secrets(obj) as never, secrets(old) as never))
    return [fieldErrors.forbidden('spec.pullSecrets', ImagePullJobRejections.pullSecretsImmutable)];
  return validateImagePullJob(obj);
}

/**
 * The NodeImage mutating webhook: createdAt = now, pullPolicy 600 s / 3 (not the TTL), tags sorted by name. A part of
 * the wrong type (a string `tags`, a number for a tag, a string `pullPolicy`, an array `images`) is left as it is and
 * the rest defaulted: the CRD schema, checked after the mutating webhooks, refuses it with its field path (the chaos
 * suite's R2 found the webhook answering 500 on them, docs/reliability-findings-1-16.md finding 6).
 */
export function defaultNodeImage<T extends NodeImage>(obj: T, now: Date): T {
  const out = cloneJson(obj) as T;
  const at = toRfc3339(now);
  const byTag = (a: unknown, b: unknown) => {
    const ta = isRecord(a) && typeof a['tag'] === 'string' ? a['tag'] : '';
    const tb = isRecord(b) && typeof b['tag'] === 'string' ? b['tag'] : '';
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  };
  const images: unknown = isRecord(out.spec) ? out.spec['images'] : undefined;
  for (const image of isRecord(images) ? Object.values(images) : []) {
    const tags: unknown = isRecord(image) ? image['tags'] : undefined;
    if (!Array.isArray(tags)) continue;
    for (const tag of tags as unknown[]) {
      if (!isRecord(tag)) continue;
      tag['createdAt'] ??= at;
      tag['pullPolicy'] ??= {};
      const policy = tag['pullPolicy'];
      if (!isRecord(policy)) continue;
      policy['timeoutSeconds'] ??= DEFAULT_PULL_TIMEOUT_SECONDS;
      policy['backoffLimit'] ??= DEFAULT_PULL_BACKOFF_LIMIT;
    }
    tags.sort(byTag);
  }
  const statuses: unknown = isRecord(out.status) ? out.status['imageStatuses'] : undefined;
  for (const status of isRecord(statuses) ? Object.values(statuses) : []) {
    const tags: unknown = isRecord(status) ? status['tags'] : undefined;
    if (Array.isArray(tags)) tags.sort(byTag);
  }
  return out;
}

/** Every NodeImage rule (`pkg/webhook/nodeimage/validating`), with its upstream text. Never throws. */
export function validateNodeImage(obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const spec = isRecord(obj) && isRecord(obj['spec']) ? obj['spec'] : {};
  const images = isRecord(spec['images']) ? spec['images'] : {};
  const count = Object.keys(images).length;
  if (count > MAX_NODE_IMAGE_IMAGES)
    errs.push({
      type: 'FieldValueTooMany',
      field: 'spec.images',
      detail: `spec images length ${count} can not be more than ${MAX_NODE_IMAGE_IMAGES}`,
    });
  for (const [name, image] of Object.entries(images)) {
    const path = `spec.images[${name}]`;
    if (name === '') errs.push(fieldErrors.required(path, 'image name can not be empty'));
    const tags = isRecord(image) && Array.isArray(image['tags']) ? (image['tags'] as unknown[]) : [];
    const seen = new Set<string>();
    tags.forEach((t, i) => {
      const tp = `${path}.tags[${i}]`;
      const tag = isRecord(t) ? t : {};
      const value = typeof tag['tag'] === 'string' ? tag['tag'] : '';
      if (value === '') {
        errs.push(fieldErrors.required(`${tp}.tag`, `tag for image ${name} can not be empty`));
        return;
      }
      if (seen.has(value))
        errs.push({
          type: 'FieldValueDuplicate',
          field: `${tp}.tag`,
          badValue: value,
          detail: `duplicated tag ${value} for image ${name}`,
        });
      seen.add(value);
      const fullName = `${name}/${value}`;
      if (tag['createdAt'] == null) errs.push(fieldErrors.required(`${tp}.createdAt`, `createAt field for ${fullName} can not be empty`));
      if (typeof tag['version'] === 'number' && tag['version'] < 0)
        errs.push(fieldErrors.invalid(`${tp}.version`, tag['version'], `version for ${fullName} can not be less than 0`));
      const pullPolicy = tag['pullPolicy'];
      if (!isRecord(pullPolicy)) errs.push(fieldErrors.required(`${tp}.pullPolicy`, `pullPolicy field for ${fullName} must set`));
      else if (pullPolicy['ttlSecondsAfterFinished'] == null)
        errs.push(
          fieldErrors.required(
            `${tp}.pullPolicy.ttlSecondsAfterFinished`,
            `pullPolicy.ttlSecondsAfterFinished for ${fullName} must set`,
          ),
        );
    });
  }
  return errs;
}
