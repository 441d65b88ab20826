/** The API group of every OpenKruise workload kind Regatta serves. */
export const KRUISE_APPS_GROUP = 'apps.kruise.io';

export const APPS_V1ALPHA1 = `${KRUISE_APPS_GROUP}/v1alpha1`;
export const APPS_V1BETA1 = `${KRUISE_APPS_GROUP}/v1beta1`;
