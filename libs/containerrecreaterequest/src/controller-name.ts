/** `source.component` of the manager's Events (upstream `pkg/controller/containerrecreaterequest`). */
export const CONTROLLER_NAME = 'containerrecreaterequest-controller';
