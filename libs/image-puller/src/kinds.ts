import { KIND_TABLE, type KindRef } from '@regatta/kube';

/** NodeImage as the watcher mirrors it (libs/mirror's catalogue): cluster-scoped, keyed `_.<node name>`. */
export const NODEIMAGE_KIND: KindRef = KIND_TABLE.nodeimages;

/** The event source of the puller (`source.component`), as kruise-daemon's. */
export const EVENT_COMPONENT = 'kruise-daemon-imagepuller';

/** The controller name the agent registers its one kind under (its bus user may write only that key). */
export const REGISTRATION_CONTROLLER = 'imagepull';

/** The registration instance of a node's agent. */
export const agentInstance = (node: string): string => `agent-${node}`;
