/**
 * JSON Patch (RFC 6902): the operation type, `applyJsonPatch`, and `createJsonPatch(before, after)` which mutating
 * admission webhooks use to describe their change to the API server.
 */
import { cloneJson, isPlainObject, jsonEqual } from './json.js';
import { escapePointerToken, parsePointer } from './json-pointer.js';

export type JsonPatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'move'; from: string; path: string }
  | { op: 'copy'; from: string; path: string }
  | { op: 'test'; path: string; value: unknown };

/** An operation could not be applied; `index` is its position in the patch. */
export class JsonPatchError extends Error {
  readonly code = 'REGATTA_KUBE_JSON_PATCH';

  constructor(
    readonly index: number,
    readonly operation: unknown,
    reason: string,
  ) {
    super(`JSON patch operation ${index} (${JSON.stringify(operation)}) failed: ${reason}`);
    this.name = 'JsonPatchError';
  }
}

const ARRAY_INDEX_RE = /^(0|[1-9]\d*)$/;

type Container = Record<string, unknown> | unknown[];

class Failure extends Error {}

function arrayIndex(arr: unknown[], token: string, allowEnd: boolean): number {
  if (allowEnd && token === '-') return arr.length;
  if (!ARRAY_INDEX_RE.test(token)) throw new Failure(`${JSON.stringify(token)} is not an array index`);
  const i = Number(token);
  if (i > arr.length || (!allowEnd && i === arr.length)) throw new Failure(`index ${i} is out of bounds (length ${arr.length})`);
  return i;
}

function getAt(doc: unknown, tokens: readonly string[]): unknown {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false)];
    else if (isPlainObject(cur) && Object.hasOwn(cur, t) && cur[t] !== undefined) cur = cur[t];
    else throw new Failure(`path element ${JSON.stringify(t)} does not exist`);
  }
  return cur;
}

function parentOf(doc: unknown, tokens: readonly string[]): { parent: Container; last: string } {
  const parent = getAt(doc, tokens.slice(0, -1));
  if (!Array.isArray(parent) && !isPlainObject(parent)) throw new Failure('the parent is not an object or an array');
  return { parent, last: tokens[tokens.length - 1] ?? '' };
}

function add(doc: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
  else parent[last] = value;
  return doc;
}

function remove(doc: unknown, tokens: string[]): unknown {
  if (tokens.length === 0) throw new Failure('the whole document cannot be removed');
  const { parent, last } = parentOf(doc, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
  else if (Object.hasOwn(parent, last) && parent[last] !== undefined) delete parent[last];
  else throw new Failure(`path element ${JSON.stringify(last)} does not exist`);
  return doc;
}

function replace(doc: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  getAt(doc, tokens);
  const { parent, last } = parentOf(doc, tokens);
  if (Array.isArray(parent)) parent[arrayIndex(parent, last, false)] = value;
  else parent[last] = value;
  return doc;
}

function requireValue(op: Record<string, unknown>): unknown {
  if (!('value' in op) || op['value'] === undefined) throw new Failure("the operation has no 'value'");
  return cloneJson(op['value']);
}

function requireFrom(op: Record<string, unknown>): string[] {
  if (typeof op['from'] !== 'string') throw new Failure("the operation has no 'from'");
  return parsePointer(op['from']);
}

/**
 * Applies the operations in order to a copy of `doc` and returns it; the input is never modified. Any failing
 * operation (missing path, failed `test`, bad index) throws {@link JsonPatchError} and nothing is returned.
 */
export function applyJsonPatch<T = unknown>(doc: unknown, operations: readonly JsonPatchOperation[]): T {
  let out = cloneJson(doc);
  operations.forEach((operation, index) => {
    // a copy read field by field: the operation may come from JSON and lack what its type promises
    const op: Readonly<Record<string, unknown>> = { ...operation };
    try {
      if (typeof op['path'] !== 'string') throw new Failure("the operation has no 'path'");
      const path = parsePointer(op['path']);
      switch (op['op']) {
        case 'add':
          out = add(out, path, requireValue(op));
          break;
        case 'remove':
          out = remove(out, path);
          break;
        case 'replace':
          out = replace(out, path, requireValue(op));
          break;
        case 'move': {
          const from = requireFrom(op);
          const isPrefix = from.length < path.length && from.every((t, i) => path[i] === t);
          if (isPrefix) throw new Failure("'from' is a parent of 'path': a value cannot move into itself");
          const value = getAt(out, from);
          if (from.length === path.length && from.every((t, i) => path[i] === t)) break;
          out = add(remove(out, from), path, value);
          break;
        }
        case 'copy':
          out = add(out, path, cloneJson(getAt(out, requireFrom(op))));
          break;
        case 'test':
          if (!jsonEqual(getAt(out, path), op['value'])) throw new Failure('the value differs');
          break;
        default:
          throw new Failure(`unknown op ${JSON.stringify(op['op'])}`);
      }
    } catch (e) {
      if (e instanceof Failure || (e instanceof Error && 'code' in e && e.code === 'REGATTA_KUBE_JSON_POINTER')) {
        throw new JsonPatchError(index, operation, e.message);
      }
      throw e;
    }
  });
  return out as T;
}

export interface CreateJsonPatchOptions {
  /**
   * A list whose own changes would take more operations than this is replaced as a whole, in one operation. The
   * API server applies a JSON Patch one operation at a time, each over the whole object, so thousands of small
   * operations on a large object (defaults for each of 1500 containers) cost far more than one `replace` of the
   * list. Default: no limit (every change has its own operation, which callers reading paths rely on).
   */
  maxListOperations?: number;
}

/**
 * Operations that turn `before` into `after` (empty when equal). Objects are compared member by member (removals,
 * then changes and additions, in key order); arrays keep their common head and tail and diff element by element when
 * the changed middle has the same length, otherwise remove the old middle and add the new one; everything else is a
 * `replace`. Keys are escaped per RFC 6901, so annotation keys such as `apps.kruise.io/x` are safe.
 */
export function createJsonPatch(
  before: unknown,
  after: unknown,
  options: CreateJsonPatchOptions = {},
): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  diff('', before, after, ops, options.maxListOperations ?? Infinity);
  return ops;
}

function diff(path: string, a: unknown, b: unknown, ops: JsonPatchOperation[], maxList: number): void {
  if (jsonEqual(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const [k, v] of Object.entries(a)) {
      if (v !== undefined && b[k] === undefined) ops.push({ op: 'remove', path: `${path}/${escapePointerToken(k)}` });
    }
    for (const [k, v] of Object.entries(b)) {
      if (v === undefined) continue;
      const p = `${path}/${escapePointerToken(k)}`;
      if (a[k] === undefined) ops.push({ op: 'add', path: p, value: cloneJson(v) });
      else diff(p, a[k], v, ops, maxList);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const own: JsonPatchOperation[] = [];
    diffArray(path, a, b, own, maxList);
    if (own.length > maxList) ops.push({ op: 'replace', path, value: cloneJson(b) });
    else ops.push(...own);
    return;
  }
  ops.push({ op: 'replace', path, value: cloneJson(b) });
}

function diffArray(path: string, a: unknown[], b: unknown[], ops: JsonPatchOperation[], maxList: number): void {
  const min = Math.min(a.length, b.length);
  let head = 0;
  while (head < min && jsonEqual(a[head] ?? null, b[head] ?? null)) head++;
  let tail = 0;
  while (tail < min - head && jsonEqual(a[a.length - 1 - tail] ?? null, b[b.length - 1 - tail] ?? null)) tail++;
  const aEnd = a.length - tail;
  const bEnd = b.length - tail;
  if (aEnd - head === bEnd - head) {
    for (let i = head; i < aEnd; i++) diff(`${path}/${i}`, a[i] ?? null, b[i] ?? null, ops, maxList);
    return;
  }
  for (let i = aEnd - 1; i >= head; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
  for (let j = head; j < bEnd; j++) ops.push({ op: 'add', path: `${path}/${j}`, value: cloneJson(b[j] ?? null) });
}
