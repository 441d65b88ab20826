/**
 * A strategic-merge patch of a core/v1 PodTemplateSpec (`subset.patch`; OpenKruise applies it with
 * `strategicpatch.StrategicMergePatch(template, patch, &corev1.PodTemplateSpec{})`). Maps merge recursively and
 * `null` deletes a key; the lists core/v1 declares with a merge key merge by it (a `$patch: delete` element removes
 * its match, `$patch: replace` in an object replaces it); every other list is replaced.
 */
import { cloneJson, isPlainObject, ownValue, setMember } from '@regatta/kube';

/** core/v1 lists with `patchStrategy:"merge"`, by field name → merge key. */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  volumes: 'name',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
};

type Obj = Record<string, unknown>;

/** `template` with `patch` applied; neither input is changed. */
export function strategicMergePodTemplate(template: Obj, patch: Obj): Obj {
  return mergeObject(cloneJson(template), patch);
}

function mergeObject(target: Obj, patch: Obj): Obj {
  if (patch['$patch'] === 'replace') {
    const { $patch: _ignored, ...rest } = patch;
    return cloneJson(rest);
  }
  const out: Obj = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    const current = ownValue(out, key);
    const mergeKey = ownValue(MERGE_KEYS, key);
    if (value === null) {
      delete out[key];
    } else if (isPlainObject(value)) {
      setMember(out, key, mergeObject(isPlainObject(current) ? current : {}, value));
    } else if (Array.isArray(value) && mergeKey !== undefined && Array.isArray(current)) {
      setMember(out, key, mergeList(current, value, mergeKey));
    } else {
      setMember(out, key, cloneJson(value));
    }
  }
  return out;
}

function mergeList(target: unknown[], patch: unknown[], mergeKey: string): unknown[] {
  const out = [...target];
  for (const item of patch) {
    if (!isPlainObject(item) || (item as Obj)[mergeKey] === undefined) {
      out.push(cloneJson(item));
      continue;
    }
    const p = item as Obj;
    const i = out.findIndex((e) => isPlainObject(e) && (e as Obj)[mergeKey] === p[mergeKey]);
    if (p['$patch'] === 'delete') {
      if (i >= 0) out.splice(i, 1);
    } else if (i >= 0) {
      out[i] = mergeObject(out[i] as Obj, p);
    } else {
      out.push(mergeObject({}, p));
    }
  }
  return out;
}
