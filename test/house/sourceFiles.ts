/** The source files the house rules (test/house/*.test.ts) read. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under `dir`, recursively, in directory order. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}
