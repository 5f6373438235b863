/** The exported names of each `.d.ts` file, sorted (scripts/exportNames.mjs). */
export function exportNames(files: string[]): Map<string, string[]>;
/** The type errors of `files` compiled as a NodeNext consumer (strict), one message each (scripts/exportNames.mjs). */
export function typeErrors(files: string[]): string[];
