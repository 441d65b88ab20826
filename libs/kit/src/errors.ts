import { RegattaError } from '@regatta/errors';

/** An error of the controller kit: a declaration that cannot run, or webhook certificates that cannot be shared. */
export class KitError extends RegattaError {}
