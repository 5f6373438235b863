/**
 * Issue 17 item 3: workers start with the world and `disposeAnimationWorld` ends them — a Node
 * process then exits on its own. The script (fixtures/exitScript.ts) is bundled with vite and
 * run as a child process with the test run's worker bundle (BITANIM_WORKER_URL).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a Node process with a threaded world', () => {
  it('exits by itself once the world is disposed', async () => {
    const outDir = join(root, 'node_modules', '.cache', `bitanim-exit-test-${process.pid}`); // this run's own
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      build: { ssr: join(root, 'test', 'parallel', 'fixtures', 'exitScript.ts'), outDir, emptyOutDir: true, minify: false, rollupOptions: { output: { format: 'es', entryFileNames: 'exit.mjs' } } },
    });
    const started = Date.now();
    const child = spawnSync(process.execPath, [join(outDir, 'exit.mjs')], { encoding: 'utf8', timeout: 30_000, env: process.env });
    expect(child.error, child.stderr).toBeUndefined(); // not killed by the timeout
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout).toContain('stepped to 0.3333 s and disposed');
    expect(Date.now() - started).toBeLessThan(30_000);
    rmSync(outDir, { recursive: true, force: true });
  });
});
