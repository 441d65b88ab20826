import { RegattaError } from '@regatta/errors';

/** An ImagePullJob / NodeImage failure with a stable code (`REGATTA_IMAGEPULL_…`). */
export class ImagePullError extends RegattaError {}
