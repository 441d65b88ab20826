/** The Node flags every Regatta program runs with (node-flags.mjs; docs/adr/0051). */
export declare const NODE_FLAGS: readonly string[];
/** The environment every Regatta program runs with besides its flags (node-flags.mjs; docs/adr/0051). */
export declare const PROGRAM_ENV: Readonly<Record<string, string>>;
