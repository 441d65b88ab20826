import { Type, type TUnsafe } from '@sinclair/typebox';
import type { ObjectMeta } from '@regatta/kube';

/**
 * `metadata` of a custom resource: the API server validates and prunes it itself, so the schema says only
 * `type: object` (a structural schema may not say more at the root). The static type is kube's open ObjectMeta.
 */
export const ObjectMetaSchema = (): TUnsafe<ObjectMeta> => Type.Unsafe<ObjectMeta>(Type.Object({}));
