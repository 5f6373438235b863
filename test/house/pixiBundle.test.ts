/**
 * Issue 20: a bundle of the main entry holds no pixi.js. vite (rolldown) bundles src/index.ts
 * with pixi.js left bundleable — every other package is external — and the output must contain
 * none of pixi.js's modules or code; a bundle of src/pixi/index.ts made the same way does
 * contain them (so the check sees pixi.js where it is).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** Bundles `entry` into a fresh folder and returns the JavaScript written and the modules it drew on. */
async function bundle(entry: string): Promise<{ code: string; modules: string[] }> {
  const outDir = mkdtempSync(join(tmpdir(), 'bitanim-bundle-'));
  onTestFinished(() => rmSync(outDir, { recursive: true, force: true }));
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      write: true,
      lib: { entry: join(root, entry), formats: ['es'], fileName: 'bundle' },
      rollupOptions: {
        // Packages stay imports, except pixi.js, which would be pulled in if anything reached it.
        external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('pixi.js') && !id.startsWith('@pixi/') && !id.startsWith('\0'),
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const modules = outputs.flatMap((o) => o.output.flatMap((chunk) => (chunk.type === 'chunk' ? Object.keys(chunk.modules) : [])));
  const code = readdirSync(outDir).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n');
  return { code, modules };
}

const fromPixi = (id: string) => /node_modules[\\/](pixi\.js|@pixi)[\\/]/.test(id);

describe('the main entry bundles without pixi.js', () => {
  it('src/index.ts: no pixi.js module in the bundle and no pixi.js import left in it', async () => {
    const { code, modules } = await bundle('src/index.ts');
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.filter(fromPixi)).toEqual([]);
    expect(code).not.toMatch(/from ['"]pixi\.js['"]/);
    expect(code).not.toContain('GlProgram');
  }, 120_000);

  it('src/pixi/index.ts: the same bundle does pull pixi.js in (the check finds it where it is)', async () => {
    const { code, modules } = await bundle('src/pixi/index.ts');
    expect(modules.filter(fromPixi).length).toBeGreaterThan(10);
    expect(code).toContain('GlProgram');
  }, 120_000);
});
