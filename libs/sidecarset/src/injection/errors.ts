import { RegattaError } from '@regatta/errors';

/** The pod cannot be injected as its SidecarSets say (a pinned revision missing, an unreadable annotation…). */
export class InjectionError extends RegattaError {
  constructor(message: string) {
    super('REGATTA_SIDECARSET_INJECTION', message);
  }
}
