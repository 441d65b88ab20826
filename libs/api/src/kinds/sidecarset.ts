/** SidecarSet (cluster-scoped): the full CRD lives with its types (`../sidecarset/crd.ts`). */
export { SIDECARSET_CRD } from '../sidecarset/crd.js';
