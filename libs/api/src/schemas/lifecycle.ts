import { Type, type Static } from '@sinclair/typebox';
import { StringMap } from './scalars.js';

/**
 * `apps/pub.LifecycleHook` (`apis/apps/pub/lifecycle.go`): a hook holds a pod while it carries any of these labels /
 * finalizers.
 */
export const LifecycleHookSchema = Type.Object({
  labelsHandler: Type.Optional(StringMap({ description: 'Labels (key and exact value) that hold the pod at this hook.' })),
  finalizersHandler: Type.Optional(Type.Array(Type.String(), { description: 'Finalizers that hold the pod at this hook.' })),
  markPodNotReady: Type.Optional(
    Type.Boolean({
      description:
        'Set the KruisePodReady condition to False while the pod waits at PreparingDelete / PreparingUpdate (and back to True at Updated).',
    }),
  ),
});

/** `apps/pub.Lifecycle`. */
export const LifecycleSchema = Type.Object(
  {
    preDelete: Type.Optional(LifecycleHookSchema),
    inPlaceUpdate: Type.Optional(LifecycleHookSchema),
    preNormal: Type.Optional(LifecycleHookSchema),
  },
  { description: 'Hooks that hold pods before deletion, around an in-place update, and before they become Normal.' },
);

export type LifecycleHook = Static<typeof LifecycleHookSchema>;
export type Lifecycle = Static<typeof LifecycleSchema>;
