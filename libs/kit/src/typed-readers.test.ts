import { describe, expect, it } from 'vitest';
import type { FieldSetOf } from '@regatta/bus';
import { kind, type KubeObject } from '@regatta/kube';
import { ControllerBuilder } from './declaration.js';

// docs/adr/0071-one-typed-kind-registry.md: a declaration's readers are typed from its kinds and projections; the
// checks are the compiler's (the typecheck target compiles this file).
interface Widget extends KubeObject {
  spec?: { size?: number; colour?: string };
}
const WIDGETS = kind<Widget>()({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const SIZE_ONLY = { metadata: true, spec: { size: true } } as const satisfies FieldSetOf<Widget>;

describe('typed readers', () => {
  it('types each reader from its kind, and a projected one to what it keeps', () => {
    const sizes: (number | undefined)[] = [];
    ControllerBuilder.controller({ name: 'widgets', eventComponent: 'widget-controller' })
      .for('widgets', WIDGETS)
      .watches('small', WIDGETS, () => [], { project: SIZE_ONLY })
      .reconciler(({ readers }) => {
        for (const w of readers.widgets.list()) sizes.push(w.spec?.size, w.spec?.colour?.length);
        for (const w of readers.small.list()) {
          sizes.push(w.spec?.size);
          // @ts-expect-error the projection keeps no colour
          sizes.push(w.spec?.colour);
        }
        return { reconcile: () => Promise.resolve({}) };
      });
    expect(sizes).toEqual([]);
  });
});
