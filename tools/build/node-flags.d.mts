/** The Node flags every Regatta program runs with (node-flags.mjs; docs/adr/0051). */
export declare const NODE_FLAGS: readonly string[];
