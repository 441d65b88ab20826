import type { TSchema } from '@sinclair/typebox';

/** The same schema with a description for this use of it (the shared schema object is not changed). */
export function described<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, description };
}
