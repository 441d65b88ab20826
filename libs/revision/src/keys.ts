/** Labels and annotations around ControllerRevisions and the pods that point at them (keys defined in `@regatta/api`). */
import { Annotations, Labels } from '@regatta/api';

/** Pod label (apps/v1 `ControllerRevisionHashLabelKey`): the revision name of the pod (`<set>-<hash>`, or the hash only). */
export const CONTROLLER_REVISION_HASH_LABEL = Labels.ControllerRevisionHash;

/** Pod label (apps/v1 `DefaultDeploymentUniqueLabelKey`): always the short hash of the pod's revision. */
export const POD_TEMPLATE_HASH_LABEL = Labels.PodTemplateHash;

/** ControllerRevision label (`history.ControllerRevisionHashLabel`): the hash computed when the revision was built. */
export const REVISION_HASH_LABEL = Labels.ControllerRevisionHashOnRevision;

/** ControllerRevision annotation: hash of the CloneSet `volumeClaimTemplates` (empty string when there are none). */
export const VCT_HASH_ANNOTATION = Annotations.CloneSetVolumeClaimTemplateHash;

/** ControllerRevision names keep at most this many characters of the parent name (`history.ControllerRevisionName`). */
export const MAX_PARENT_NAME_LENGTH = 223;

/** Default `revisionHistoryLimit`. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
