import type { TSchema } from '@sinclair/typebox';

/** `additionalPrinterColumns[i]` of a CRD version (what `kubectl get` shows). */
export interface PrinterColumn {
  name: string;
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  /** 0 (default) shows in `kubectl get`; 1 only in `-o wide`. */
  priority?: number;
  format?: string;
}

/** `subresources.scale` of a CRD version. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One served version of a kind. */
export interface CrdVersionDefinition {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  /** The TypeBox schema of the whole object (apiVersion, kind, metadata, spec, status). */
  schema: TSchema;
  printerColumns: readonly PrinterColumn[];
  subresources: { status?: boolean; scale?: ScaleSubresource };
}

/** Everything the generator needs to write one CustomResourceDefinition. */
export interface CrdDefinition {
  group: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  scope: 'Namespaced' | 'Cluster';
  versions: readonly CrdVersionDefinition[];
}

/** A JSON-schema node as apiextensions.k8s.io/v1 `JSONSchemaProps` (plain JSON). */
export type JsonSchemaProps = { [key: string]: unknown };

/** The CustomResourceDefinition object the generator writes (apiextensions.k8s.io/v1). */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Namespaced' | 'Cluster';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      deprecated?: boolean;
      schema: { openAPIV3Schema: JsonSchemaProps };
      additionalPrinterColumns?: PrinterColumn[];
      subresources?: { status?: Record<string, never>; scale?: ScaleSubresource };
    }[];
  };
}

/** The `AGE` column every OpenKruise kind has. */
export const AGE_COLUMN: PrinterColumn = {
  name: 'AGE',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: 'Time since the object was created.',
};
