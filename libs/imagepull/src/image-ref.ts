/**
 * Image references as the ImagePullJob controller and kruise-daemon key them (`pkg/daemon/util`
 * NormalizeImageRefToNameTag): the *familiar* repository name (`nginx`, `foo/bar`, `ghcr.io/x/y` — Docker Hub's
 * `docker.io/` and `library/` dropped) and the tag (`latest` when absent) or, for a digest reference, the digest.
 */
import { parseImageReference } from '@regatta/api';

export interface ImageNameTag {
  /** NodeImage `spec.images` key. */
  name: string;
  /** NodeImage tag: the tag, or `sha256:…` for a digest reference. */
  tag: string;
}

const DOCKER_HUB_DOMAINS = ['docker.io/', 'index.docker.io/', 'registry-1.docker.io/'];

/** The NodeImage key of an image reference, or `undefined` when the reference is not valid. */
export function normalizeImageRef(image: string): ImageNameTag | undefined {
  const ref = parseImageReference(image);
  if (!ref) return undefined;
  let name = ref.name;
  // the first component is a registry only with a dot, a port or as localhost; otherwise it is a lower-case path
  const first = name.split('/')[0] ?? '';
  const isDomain = first.includes('.') || first.includes(':') || first === 'localhost';
  if (name.includes('/') && !isDomain && first !== first.toLowerCase()) return undefined;
  for (const d of DOCKER_HUB_DOMAINS) {
    if (name.startsWith(d)) {
      name = name.slice(d.length);
      if (name.startsWith('library/') && name.split('/').length === 2) name = name.slice('library/'.length);
      break;
    }
  }
  // a digest wins over a tag (`name:tag@digest` pulls the digest)
  return { name, tag: ref.digest !== '' ? ref.digest : ref.tag };
}

/** `name:tag` as the NodeImage controller's events print a tag (also for digests, as upstream). */
export function imageFullName(name: string, tag: string): string {
  return `${name}:${tag}`;
}
