// Image reference normalization the way containerd / the docker reference library does it, and the
// stable, fake image digests the simulated runtime reports. Pure.
import { createHash } from 'node:crypto';
import { canonicalImage } from './image-catalogue.js';

export interface ImageRef {
  /** Registry host, e.g. `docker.io`. */
  domain: string;
  /** Repository path below the domain, e.g. `library/nginx`. */
  path: string;
  tag?: string;
  digest?: string;
  /** `domain/path[:tag][@digest]`, with `:latest` added when there is neither tag nor digest. */
  normalized: string;
  /** `domain/path` */
  repository: string;
}

const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_PREFIX = 'library/';

/** `nginx:alpine` → `docker.io/library/nginx:alpine`; `quay.io/a/b` → `quay.io/a/b:latest`. Never throws. */
export function parseImageRef(image: string): ImageRef {
  const raw = image.trim();
  let domain = DEFAULT_DOMAIN;
  let remainder = raw;
  const slash = raw.indexOf('/');
  if (slash !== -1) {
    const first = raw.slice(0, slash);
    if (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first) {
      domain = first;
      remainder = raw.slice(slash + 1);
    }
  }
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN;
  let digest: string | undefined;
  const at = remainder.indexOf('@');
  if (at !== -1) {
    digest = remainder.slice(at + 1);
    remainder = remainder.slice(0, at);
  }
  let tag: string | undefined;
  const colon = remainder.lastIndexOf(':');
  if (colon !== -1 && colon > remainder.lastIndexOf('/')) {
    tag = remainder.slice(colon + 1);
    remainder = remainder.slice(0, colon);
  }
  if (domain === DEFAULT_DOMAIN && !remainder.includes('/')) remainder = OFFICIAL_PREFIX + remainder;
  if (tag === undefined && digest === undefined) tag = 'latest';
  const repository = `${domain}/${remainder}`;
  const normalized =
    repository + (tag !== undefined ? `:${tag}` : '') + (digest !== undefined ? `@${digest}` : '');
  return { domain, path: remainder, tag, digest, normalized, repository };
}

export function normalizeImage(image: string): string {
  return parseImageRef(image).normalized;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The `imageID` a container runtime reports for an image: the repository digest reference.
 * A reference that already names a digest keeps it; otherwise the digest is the sha256 of the normalized
 * reference, so the same tag always has the same ID and a different tag a different one, except for tags the
 * image catalogue (image-catalogue.ts) knows to be one image, which share their digest.
 */
export function imageIdOf(image: string): string {
  const ref = parseImageRef(image);
  return `${ref.repository}@${ref.digest ?? `sha256:${sha256(canonicalImage(ref.normalized))}`}`;
}

/** Deterministic fake image size between 5 MB and 200 MB. */
export function imageSizeOf(image: string): number {
  const h = parseInt(sha256(`size:${normalizeImage(image)}`).slice(0, 8), 16);
  return 5_000_000 + (h % 195_000_000);
}

/** The names node.status.images lists for an image, as kubelet does: repo digests first, then tags. */
export function nodeImageNames(image: string): string[] {
  const ref = parseImageRef(image);
  const id = imageIdOf(image);
  return ref.digest !== undefined && ref.tag === undefined
    ? [id]
    : [id, `${ref.repository}:${ref.tag ?? 'latest'}`];
}

/** `*`-glob match on the raw reference or its normalized form. */
export function imageMatches(pattern: string, image: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(image) || re.test(normalizeImage(image));
}
