/** `source.component` of the SidecarSet controller's Events (OpenKruise `pkg/controller/sidecarset`). */
export const CONTROLLER_NAME = 'sidecarset-controller';
