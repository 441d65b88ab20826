import { status as GrpcStatus } from '@grpc/grpc-js';
import { RegattaError } from '@regatta/errors';

/** A CRI call failed: the runtime answered with a gRPC status, or could not be reached. */
export class CriCallError extends RegattaError {
  constructor(
    readonly method: string,
    /** The gRPC status code (`status.NOT_FOUND`, `status.DEADLINE_EXCEEDED`, `status.UNAVAILABLE`…). */
    readonly grpcCode: number,
    readonly details: string,
    options?: { cause?: unknown },
  ) {
    // the runtime's own words, as kubelet and kruise-daemon report them
    super('REGATTA_CRI_CALL', `rpc error: code = ${statusName(grpcCode)} desc = ${details}`, options);
  }
}

/** An error a server handler throws to answer with that gRPC status (any other error answers UNKNOWN). */
export class CriStatusError extends RegattaError {
  constructor(
    readonly grpcCode: number,
    message: string,
  ) {
    super('REGATTA_CRI_STATUS', message);
  }
}

function statusName(code: number): string {
  // a numeric enum maps its values back to their names (grpc-js `status`)
  const name: string = (GrpcStatus as Record<number, string | undefined>)[code] ?? String(code);
  // NOT_FOUND → NotFound, as Go's codes.Code prints
  return name
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
