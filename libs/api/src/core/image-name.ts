/**
 * Just enough of the container image reference grammar (distribution/reference, as used by Kubernetes'
 * `parsers.ParseImageName`) to find the tag an image would be pulled with.
 */

const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(
  `^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`,
);
const NAME_TOTAL_MAX = 255;
const HEX64_RE = /^[a-f0-9]{64}$/;

/** The parts of an image reference; `tag` is `latest` when neither a tag nor a digest is given. */
export interface ImageReference {
  name: string;
  tag: string;
  digest: string;
}

/**
 * Parses an image reference as Kubernetes does before defaulting `imagePullPolicy`; `undefined` for a reference that
 * does not parse (upper-case repository, empty, a bare 64-hex id, …).
 */
export function parseImageReference(image: string): ImageReference | undefined {
  if (image === '' || HEX64_RE.test(image)) return undefined;
  const m = REFERENCE_RE.exec(image);
  if (!m) return undefined;
  const name = m[1] ?? '';
  if (name.length > NAME_TOTAL_MAX) return undefined;
  let tag = m[2] ?? '';
  const digest = m[3] ?? '';
  if (tag === '' && digest === '') tag = 'latest';
  return { name, tag, digest };
}

/**
 * core/v1 `SetDefaults_Container`'s pull policy: `Always` when the image would be pulled as `:latest` (tag `latest`,
 * or no tag and no digest), `IfNotPresent` otherwise (including references that do not parse).
 */
export function defaultPullPolicyForImage(image: string | undefined): 'Always' | 'IfNotPresent' {
  return parseImageReference(image ?? '')?.tag === 'latest' ? 'Always' : 'IfNotPresent';
}
