/**
 * Field sets typed against the object type they project (docs/adr/0071-one-typed-kind-registry.md): a
 * `FieldSetOf<Pod>` names only fields a `Pod` has, and `Projected<Pod, F>` is the type of a pod read through `F`, so
 * a controller that reads a field its program does not keep fails to compile instead of reading `undefined`
 * (docs/adr/0060-pod-projection.md). Types only; the run-time projection is projection.ts's.
 */
import type { FieldRule } from './projection.js';

type Element<V> = V extends readonly (infer E)[] ? E : V;

/** What to keep of a value of type `V`: as is (`true`, `'shared'`, `'deduped'`) or, for an object or a list of objects, some of its fields. */
export type FieldRuleOf<V> =
  | true
  | 'shared'
  | 'deduped'
  | (Element<NonNullable<V>> extends object ? FieldSetOf<Element<NonNullable<V>>> : never);

/** The fields to keep of a `T`, each named one a field of `T`; `'*'` (every field not named) stays untyped. */
export type FieldSetOf<T> = { readonly [K in keyof T]?: FieldRuleOf<T[K]> } & { readonly '*'?: FieldRule };

type ProjectedValue<V, R> = R extends object
  ? V extends readonly (infer E)[]
    ? Projected<E, R>[]
    : V extends object
      ? Projected<V, R>
      : V
  : V;

/**
 * A `T` read through the field set `F`: the fields `F` names (nested sets applied to objects and to each element of
 * lists), and every other field of `T` when `F` has `'*'`. Optional fields stay optional.
 */
export type Projected<T, F> = {
  [K in keyof T as K extends keyof F ? K : '*' extends keyof F ? K : never]: K extends keyof F
    ? ProjectedValue<T[K], F[K]>
    : '*' extends keyof F
      ? ProjectedValue<T[K], F['*']>
      : never;
};

/** The type of `unionFieldSets(a, b)`: every field either names; nested sets merged, a field kept whole by either kept whole. */
export type UnionOfFieldSets<A, B> = {
  [K in keyof A | keyof B]: K extends keyof A
    ? K extends keyof B
      ? A[K] extends object
        ? B[K] extends object
          ? UnionOfFieldSets<A[K], B[K]>
          : B[K]
        : A[K]
      : A[K]
    : K extends keyof B
      ? B[K]
      : never;
};
