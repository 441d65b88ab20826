// The ImageService and RuntimeService definitions built from the proto text, once per process.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { CRI_IMAGE_PROTO } from './api-proto.js';
import { CRI_RUNTIME_PROTO } from './runtime-proto.js';

/** Decoding as messages.ts types it (the parse above turns field names camelCase, the wire keeps the numbers):, 64-bit numbers as JS numbers, unset scalars as their defaults. */
const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  objects: false,
};

let pkg: protoLoader.PackageDefinition | undefined;

function loaded(): protoLoader.PackageDefinition {
  if (!pkg) {
    const root = protobuf.parse(CRI_IMAGE_PROTO, { keepCase: false }).root;
    protobuf.parse(CRI_RUNTIME_PROTO, root, { keepCase: false });
    pkg = protoLoader.fromJSON(root.toJSON(), LOADER_OPTIONS);
  }
  return pkg;
}

/** `runtime.v1.ImageService`, as grpc-js serves and calls it. */
export function imageServiceDefinition(): grpc.ServiceDefinition {
  return loaded()['runtime.v1.ImageService'] as grpc.ServiceDefinition;
}

/** `runtime.v1.RuntimeService` (the subset of runtime-proto.ts), as grpc-js serves and calls it. */
export function runtimeServiceDefinition(): grpc.ServiceDefinition {
  return loaded()['runtime.v1.RuntimeService'] as grpc.ServiceDefinition;
}

/** The gRPC target of a unix socket path (`unix:///run/containerd/containerd.sock`). */
export function unixTarget(socketPath: string): string {
  return socketPath.startsWith('unix:') ? socketPath : `unix://${socketPath}`;
}
