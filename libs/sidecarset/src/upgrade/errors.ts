import { RegattaError } from '@regatta/errors';

/**
 * The API server refused a sidecar resize through `pods/resize` (403 beyond the node's allocatable, 422 invalid for
 * the pod): told once on the SidecarSet, not sent again (./sync/resize.ts).
 */
export class SidecarResizeRefusedError extends RegattaError {
  constructor(message: string) {
    super('REGATTA_SIDECARSET_RESIZE_REFUSED', message);
  }
}
