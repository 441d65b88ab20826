/**
 * A SidecarSet's injection compiled into a MutatingAdmissionPolicy and its binding (admissionregistration.k8s.io/v1,
 * GA in Kubernetes 1.36): the API server adds the sidecars itself, so a selected pod never waits on the sidecarset
 * program (docs/adr/0089-sidecarset-injection-policies.md). The containers, volumes and image pull secrets are what
 * `buildSidecars` (injection/build.ts) gives for a pod that shares nothing with them, so the webhook and the policy
 * inject the same containers; the policy adds the hash and injected-list annotations the upgrade controller reads.
 *
 * Only SidecarSets whose injection does not depend on the pod's contents or on other objects compile
 * ({@link webhookOnlyReason}); the others stay on the pod webhook (ADR 0026), as do all of them on a cluster that does
 * not serve MutatingAdmissionPolicy.
 */
import { SidecarSetAnnotations } from '@regatta/api';
import type { KubeObject, LabelSelector } from '@regatta/kube';
import { buildSidecars } from '../injection/build.js';
import { isHotUpgrade } from '../injection/hot-upgrade.js';
import { namespaceSelectorOf } from '../injection/match.js';
import { toContainer } from '../injection/merge.js';
import { isNativeSidecar } from '../injection/native-sidecar.js';
import type { AnySidecarSet, SidecarContainer } from '../injection/types.js';
import { andSelectors, injects } from '../webhooks/pod-webhook-configuration.js';

export const POLICY_API_VERSION = 'admissionregistration.k8s.io/v1';
/** The label of every policy and binding the program keeps: the value names the program's scope (`all` unscoped). */
export const INJECTION_POLICY_LABEL = 'sidecarset.regatta.kruise.io/injection-policy';

export interface PolicyCompileOptions {
  /** Feature gate EnableSortSidecarContainerByName: the webhook orders the sidecars by name then. */
  sortContainersByName?: boolean;
}

/** Why the SidecarSet's injection needs the webhook (code or look-ups), or undefined when it compiles. */
export function webhookOnlyReason(s: AnySidecarSet, o: PolicyCompileOptions = {}): string | undefined {
  const a = s.metadata?.annotations ?? {};
  if (a[SidecarSetAnnotations.Canary] === 'true' || a[SidecarSetAnnotations.Base]) return 'a canary or its base: injection reads the other SidecarSets';
  if (s.spec.injectionStrategy?.revision) return 'injectionStrategy.revision reads ControllerRevisions';
  if (s.spec.patchPodMetadata?.length) return 'patchPodMetadata';
  if (o.sortContainersByName) return 'EnableSortSidecarContainerByName orders every matched SidecarSet together';
  const sidecars: SidecarContainer[] = [...(s.spec.containers ?? []), ...(s.spec.initContainers ?? [])];
  for (const c of sidecars) {
    if (isHotUpgrade(c)) return `container ${c.name}: hot upgrade`;
    if (c.transferEnv?.length) return `container ${c.name}: transferEnv reads the pod's containers`;
    if (c.shareVolumePolicy?.type === 'enabled') return `container ${c.name}: shareVolumePolicy reads the pod's mounts`;
    if (c.shareVolumeDevicePolicy?.type === 'enabled') return `container ${c.name}: shareVolumeDevicePolicy reads the pod's devices`;
    if (c.resourcesPolicy) return `container ${c.name}: resourcesPolicy is computed from the pod's containers`;
  }
  if ((s.spec.initContainers ?? []).some(isNativeSidecar)) return 'native sidecars';
  return undefined;
}

/** The policy's and binding's name: `regatta-sidecarset-<name>`, suffixed with the scope's values. */
export function injectionPolicyName(s: AnySidecarSet, scope?: { matchLabels: Record<string, string> }): string {
  const suffix = scope ? `-${Object.values(scope.matchLabels).filter(Boolean).join('-') || 'scoped'}` : '';
  return `regatta-sidecarset-${s.metadata?.name ?? ''}${suffix}`;
}

/**
 * A JSON value as a CEL literal. JSON's syntax is CEL's for maps, lists, strings, numbers, booleans and null, but the
 * API server's CEL wants literals of one element type: every member and item is wrapped in `dyn()`.
 */
export function cel(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => `dyn(${cel(x)})`).join(', ')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: dyn(${cel(x)})`).join(', ')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
const patch = (op: string, path: string, value: string): string => `JSONPatch{op: "${op}", path: "${path}", value: ${value}}`;
const annotationPath = (key: string): string => `/metadata/annotations/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** CEL: the pod's annotation `key`, '' when absent. */
const annotation = (key: string): string =>
  `(has(object.metadata.annotations) && ${JSON.stringify(key)} in object.metadata.annotations ? object.metadata.annotations[${JSON.stringify(key)}] : '')`;

/** CEL: the JSON object text `existing` with `"name": entry` added (the hash annotations, a JSON map per SidecarSet). */
const withEntry = (existing: string, name: string, entry: unknown): string => {
  const member = `${cel(name)}:${JSON.stringify(entry)}`;
  return (
    `(size(${existing}) < 2 || ${existing} == '{}' ? ${cel(`{${member}}`)} : ` +
    `${existing}.substring(0, size(${existing}) - 1) + ${cel(`,${member}}`)})`
  );
};

/** CEL: a list of JSONPatch appending `items` to the pod's list at `field` (creating it when absent). */
function appendAll(field: string, items: readonly unknown[], unlessNamed = false): string {
  if (items.length === 0) return '[]';
  const path = `/spec/${field}`;
  const absent = `!has(object.spec.${field})`;
  const each = items.map((item) => {
    const add = patch('add', `${path}/-`, cel(item));
    const name = (item as { name?: string }).name ?? '';
    // a volume (secret) of that name in the pod wins, as mergeVolumes and mergeSecrets keep the pod's
    return unlessNamed ? `(!${absent} && object.spec.${field}.exists(x, x.name == ${cel(name)}) ? [] : [${add}])` : `[${add}]`;
  });
  return `(${absent} ? [${patch('add', path, '[]')}] : []) + ${each.join(' + ')}`;
}

/** The MutatingAdmissionPolicy and its binding for one SidecarSet, or undefined when it injects nothing. */
export function injectionPolicyObjects(
  s: AnySidecarSet,
  scope?: { matchLabels: Record<string, string> },
): KubeObject[] | undefined {
  if (!injects(s)) return undefined;
  const name = s.metadata?.name ?? '';
  const built = buildSidecars(s, { metadata: {}, spec: { containers: [] } } as never);
  const containers = built.containers.map(toContainer);
  const initContainers = built.initContainers.map(toContainer);
  if (containers.length === 0 && initContainers.length === 0) return undefined;
  const sidecarNames = [...containers, ...initContainers].map((c) => c.name);
  const before = built.containers.filter((c) => c.podInjectPolicy === 'BeforeAppContainer').map(toContainer);
  const after = built.containers.filter((c) => c.podInjectPolicy !== 'BeforeAppContainer').map(toContainer);
  const volumes = [...new Map(built.volumes.map((v) => [v.name, v])).values()];
  const latestRevision = s.status?.latestRevision;
  const hashEntry = (hash: string, revision: boolean) => ({
    updateTimestamp: null,
    hash,
    sidecarSetName: name,
    sidecarList: built.sidecarList,
    ...(revision && latestRevision ? { controllerRevision: latestRevision } : {}),
  });
  const a = s.metadata?.annotations ?? {};
  const hashKey = SidecarSetAnnotations.Hash;
  const noImageKey = SidecarSetAnnotations.HashWithoutImage;
  const listKey = SidecarSetAnnotations.InjectedList;
  const list = annotation(listKey);
  const patches = [
    // before the app containers, in the SidecarSet's order: each inserted at 0, last first
    ...[...before].reverse().map((c) => `[${patch('add', '/spec/containers/0', cel(c))}]`),
    ...after.map((c) => `[${patch('add', '/spec/containers/-', cel(c))}]`),
    appendAll('initContainers', initContainers),
    appendAll('volumes', volumes, true),
    appendAll('imagePullSecrets', built.imagePullSecrets, true),
    `(has(object.metadata.annotations) ? [] : [${patch('add', '/metadata/annotations', '{}')}])`,
    `[${patch('add', annotationPath(hashKey), withEntry(annotation(hashKey), name, hashEntry(a[hashKey] ?? '', true)))}]`,
    `[${patch('add', annotationPath(noImageKey), withEntry(annotation(noImageKey), name, hashEntry(a[noImageKey] ?? '', false)))}]`,
    `[${patch('add', annotationPath(listKey), `(${list} == '' ? ${cel(name)} : ${list} + ${cel(`,${name}`)})`)}]`,
  ];
  const policyName = injectionPolicyName(s, scope);
  const namespaceSelector: LabelSelector | undefined = andSelectors(scope, namespaceSelectorOf(s) ?? undefined);
  const labels = { [INJECTION_POLICY_LABEL]: scope ? Object.values(scope.matchLabels).join('-') || 'scoped' : 'all' };
  return [
    {
      apiVersion: POLICY_API_VERSION,
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: policyName, labels },
      spec: {
        failurePolicy: 'Fail',
        reinvocationPolicy: 'Never',
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
          objectSelector: s.spec.selector,
          ...(namespaceSelector ? { namespaceSelector } : {}),
        },
        // injected once: a pod that has the sidecars (the webhook's, or a reinvocation) is left alone
        matchConditions: [{ name: 'not-injected', expression: notInjected(sidecarNames) }],
        mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: patches.join(' + ') } }],
      },
    } as KubeObject,
    {
      apiVersion: POLICY_API_VERSION,
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: { name: policyName, labels },
      spec: { policyName },
    } as KubeObject,
  ];
}

/** CEL: none of the sidecars is in the pod yet (containers or init containers). */
export function notInjected(sidecarNames: readonly string[]): string {
  const names = JSON.stringify([...sidecarNames].sort());
  return (
    `!object.spec.containers.exists(c, c.name in ${names}) && ` +
    `!(has(object.spec.initContainers) && object.spec.initContainers.exists(c, c.name in ${names}))`
  );
}
