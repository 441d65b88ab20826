/** `code` with every character outside ASCII written as a `\uXXXX` escape (ascii.mjs; docs/adr/0051). */
export declare function asciiOnly(code: string): string;
