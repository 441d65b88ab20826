export * from "./daemonset-object.js";
export * from "./planning/index.js";
