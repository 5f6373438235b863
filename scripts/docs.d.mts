/** The entry points the reference documents (scripts/docs.mjs). */
export const ENTRIES: readonly { file: string; name: string; id: string }[];
/** Builds the reference; the messages that fail it, empty when it passed (scripts/docs.mjs). */
export function runDocs(options?: { markdown?: boolean; log?: (line: string) => void }): Promise<string[]>;
/** One line of api-documenter's markdown prose as HTML (scripts/docs.mjs). */
export function inlineHtml(text: string): string;
/** A page of api-documenter's markdown as an HTML document titled `title` (scripts/docs.mjs). */
export function markdownToHtml(markdown: string, title: string): string;
