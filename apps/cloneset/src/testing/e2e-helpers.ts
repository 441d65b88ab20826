// Helpers of the CloneSet e2e and seed-article scenario files (cloneset-e2e, cloneset-seeds, cloneset-seed-hooks):
// the pod template and in-place state as a scenario reads them, the Progressing conditions OpenKruise's e2e
// compares, the seed articles read as written (upstream test/e2e/apps/cloneset.go; docs/cloneset.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { isMap, isScalar, parseDocument, type Pair } from 'yaml';
import type { PodTemplateSpec } from '@regatta/api';
import { type CloneSet, type CloneSetScenarios, type Pod, seed } from './scenario-harness.js';
import { INPLACE_STATE, nameOf, sleep } from './scenario-helpers.js';

const FIXTURES = fileURLToPath(new URL('../../../../libs/api/src/fixtures/', import.meta.url));
export const MAX_INT32 = 2147483647;

/** A CloneSet's pod template as a scenario edits it: `@regatta/api`'s PodTemplateSpec with metadata and spec. */
export type Template = Required<PodTemplateSpec>;
/** The `apps.kruise.io/inplace-update-state` annotation of a pod, as the e2e scenarios read it. */
export interface InPlaceState {
  revision: string;
  updateTimestamp: string;
  lastContainerStatuses?: Record<string, { imageID: string }> | null;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: unknown;
  preCheckBeforeNext?: { containersRequiredReady?: string[] };
  containerBatchesRecord?: { timestamp: string; containers: string[] }[];
  updateEnvFromMetadata?: boolean;
}

export const templateOf = (cs: CloneSet): Template => cs.spec['template'] as Template;
export const inPlaceState = (p: Pod): InPlaceState | undefined => {
  const raw = p.metadata?.annotations?.[INPLACE_STATE];
  return raw ? (JSON.parse(raw) as InPlaceState) : undefined;
};

export const AVAILABLE = { status: 'True', reason: 'CloneSetAvailable', message: 'CloneSet is available' };
export const UPDATED = { status: 'True', reason: 'CloneSetUpdated', message: 'CloneSet is progressing' };
export const PAUSED = { status: 'True', reason: 'CloneSetPaused', message: 'CloneSet is paused' };
export const PARTITION_AVAILABLE = {
  status: 'True',
  reason: 'ProgressPartitionAvailable',
  message: 'CloneSet has been paused due to partition ready',
};
export const deadlineExceeded = (revision: string) => ({
  status: 'False',
  reason: 'ProgressDeadlineExceeded',
  message: `CloneSet revision ${revision} has timed out progressing`,
});

/**
 * The objects an article's YAML shows, as written: a line that is only `...` is an elision (read as a comment),
 * `{...}` placeholders and elided (empty) members are dropped, and where a key repeats (the article's alternatives)
 * there is one object per alternative. Nothing is added.
 */
export function article(file: string): CloneSet[] {
  const text = readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .map((l) => l.replace(/^(\s*)\.\.\.\s*$/, '$1# ...'))
    .join('\n');
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  const spec = doc.get('spec', true);
  const variants: unknown[] = [];
  if (!isMap(spec)) variants.push(doc.toJS());
  else {
    const keyOf = (p: Pair) => (isScalar(p.key) ? String(p.key.value) : String(p.key));
    const byKey = new Map<string, Pair[]>();
    for (const item of spec.items) byKey.set(keyOf(item), [...(byKey.get(keyOf(item)) ?? []), item]);
    const count = Math.max(1, ...[...byKey.values()].map((v) => v.length));
    const all = [...spec.items];
    for (let k = 0; k < count; k++) {
      spec.items = all.filter((item) => {
        const list = byKey.get(keyOf(item))!;
        return list.length <= 1 || list[Math.min(k, list.length - 1)] === item;
      });
      variants.push(doc.toJS());
    }
    spec.items = all;
  }
  return variants.map((v) => dropElided(v) as CloneSet);
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function dropElided(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropElided);
  if (!isPlain(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    if (k === '...' || val == null) continue;
    if (isPlain(val) && Object.keys(val).length === 1 && '...' in val) continue;
    out[k] = dropElided(val);
  }
  return out;
}

/** `base` with `over` merged in: objects member by member, anything else (lists too) replaced. */
export function merged<T>(base: T, over: unknown): T {
  if (!isPlain(base) || !isPlain(over)) return structuredClone(over) as T;
  const out: Record<string, unknown> = structuredClone(base);
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? merged(out[k], v) : structuredClone(v);
  return out as T;
}

/** A fragment of the articles merged into the cs-demo seed (S1 §2), in `ns`. */
export function demoWith(
  ns: string,
  fragment: CloneSet,
  edit: (cs: CloneSet) => void = () => undefined,
): CloneSet {
  const cs = merged(seed('s1-2-cs-demo.yaml'), fragment);
  cs.metadata = { ...cs.metadata, namespace: ns };
  edit(cs);
  return cs;
}

/** A Progressing condition without its timestamps. */
export interface ProgressingView {
  status: string;
  reason: string | undefined;
  message: string | undefined;
}

export interface E2eHelpers {
  /** The CloneSet's Progressing condition as OpenKruise's e2e compares it: without its timestamps. */
  progressing(ns: string, name: string): Promise<ProgressingView | undefined>;
  /** `expect.poll` of the Progressing condition. */
  pollProgressing(
    ns: string,
    name: string,
    timeout?: number,
  ): ReturnType<typeof expect.poll<ProgressingView | undefined>>;
  /**
   * A user's controller (S1 §2.3.3) played by the test: every 250 ms it reads the namespace's pods and applies the
   * merge patch `act` returns for a pod (with the pod's resourceVersion, so a stale decision fails and is retried).
   */
  userController(ns: string, act: (p: Pod) => Record<string, unknown> | undefined): { stop(): Promise<void> };
}

/**
 * The e2e scenarios' helpers that read through the file's harness: the Progressing condition, and the user's
 * controller (stopped after each test).
 */
export function useE2eHelpers(h: CloneSetScenarios): E2eHelpers {
  async function progressing(ns: string, name: string): Promise<ProgressingView | undefined> {
    const c = (await h.cloneSet(ns, name)).status?.conditions?.find((k) => k.type === 'Progressing');
    return c ? { status: c.status, reason: c.reason, message: c.message } : undefined;
  }

  const pollProgressing = (ns: string, name: string, timeout = 30_000) =>
    expect.poll(() => progressing(ns, name), { timeout, interval: 300 });

  const loops: { stop(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const l of loops.splice(0)) await l.stop();
  });

  function userController(ns: string, act: (p: Pod) => Record<string, unknown> | undefined) {
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        for (const p of await h.pods(ns).catch(() => [] as Pod[])) {
          const body = act(p);
          if (!body) continue;
          const meta = { ...((body['metadata'] as Record<string, unknown> | undefined) ?? {}) };
          await h
            .patchPod(
              ns,
              nameOf(p),
              {
                ...body,
                metadata: { ...meta, resourceVersion: p.metadata!.resourceVersion },
              },
              'merge',
            )
            .catch(() => undefined);
        }
        await sleep(250);
      }
    })();
    const handle = {
      stop: async () => {
        stopped = true;
        await loop;
      },
    };
    loops.push(handle);
    return handle;
  }

  return { progressing, pollProgressing, userController };
}
