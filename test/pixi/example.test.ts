/**
 * examples/pixiFox.ts (docs/pixi.md) in Node: pixi's `Application` is replaced by a stand-in
 * (no canvas here) with a real stage and a ticker the test drives; everything else is the
 * example's own code and the real bitanim/pixi. The example stays under 50 lines of user code,
 * and the sandbox builds it as a page (sandbox/pixiFox.html, which the e2e test runs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { getRootTransform } from '../../src/index.js';
import { readAsset } from '../support/assets.js';

vi.hoisted(() => {
  if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' };
});

vi.mock('pixi.js', async (original) => {
  const pixi = await original<typeof import('pixi.js')>();
  class Application {
    readonly stage = new pixi.Container();
    readonly callbacks: ((ticker: { deltaMS: number }) => void)[] = [];
    readonly ticker = { add: (callback: (ticker: { deltaMS: number }) => void) => this.callbacks.push(callback) };
    options: unknown = null;
    async init(options: unknown): Promise<void> {
      this.options = options;
    }
  }
  return { ...pixi, Application };
});

const { pixiFoxes, showFoxes } = await import('../../examples/pixiFox.js');

describe('examples/pixiFox.ts', () => {
  it('spawns 100 Foxes with the textured body in one crowd on the stage; the ticker walks them; the crowd draws them in one call', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { app, world, crowd, body, foxes } = await pixiFoxes(readAsset('Fox.glb'));
    const fake = app as unknown as { callbacks: ((ticker: { deltaMS: number }) => void)[]; options: { preference: string } };
    expect(fake.options.preference).toBe('webgl');
    expect(app.stage.children).toEqual([crowd]);
    expect(foxes.length).toBe(100);
    expect(crowd.characterCount).toBe(100);
    expect(foxes.every((fox) => crowd.bodyOf(fox) === body)).toBe(true);
    expect(body.material?.baseColorTexture?.mimeType).toBe('image/png');
    // Node has no createImageBitmap: the body warns and draws its base colour factor.
    expect(await body.texture.ready).toBe(false);
    expect(String(warn.mock.calls[0]?.join(' '))).toMatch(/no createImageBitmap/);
    const before = foxes.map((fox) => getRootTransform(world, fox));
    for (let f = 0; f < 60; f++) for (const callback of fake.callbacks) callback({ deltaMS: 1000 / 60 });
    const walked = foxes.map((fox, i) => Math.hypot(getRootTransform(world, fox).x - before[i]!.x, getRootTransform(world, fox).z - before[i]!.z));
    // 1 s at 0.8 … 1.16 m/s (some turned back at the edge, which does not shorten the path much).
    expect(Math.min(...walked)).toBeGreaterThan(0.4);
    expect(Math.max(...walked)).toBeLessThan(1.3);
    crowd.update(960, 600);
    expect(crowd.stats.drawCalls).toBe(1);
    expect(crowd.stats.drawn).toBe(100); // the camera frames the whole crowd
    warn.mockRestore();
  });

  it('showFoxes fetches the file and starts the same app; a failed fetch names the URL and the status', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bytes = readAsset('Fox.glb');
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return url === 'Fox.glb' ? new Response(bytes) : new Response('', { status: 404 });
    });
    try {
      const { crowd, foxes, body } = await showFoxes('Fox.glb', 3);
      expect(fetched).toEqual(['Fox.glb']);
      expect(foxes.length).toBe(3);
      expect(crowd.characterCount).toBe(3);
      // Fox.glb has one mesh, of 1,728 vertices (its POSITION accessor's count): all in the body.
      expect(body.arrays.vertexCount).toBe(1728);
      await expect(showFoxes('missing.glb')).rejects.toThrow('missing.glb: HTTP 404');
    } finally {
      vi.unstubAllGlobals();
      warn.mockRestore();
    }
  });

  it('the regions the README and docs/pixi.md show are the whole module (beside its header comment): every name they use is defined in them', () => {
    const text = readFileSync(new URL('../../examples/pixiFox.ts', import.meta.url), 'utf8');
    const header = text.slice(0, text.indexOf('// #region imports'));
    expect(header.trim()).toMatch(/^\/\*\*[\s\S]*\*\/$/);
    const outside = text.slice(header.length).split('\n').filter((l, i, lines) => {
      const before = lines.slice(0, i + 1);
      const opened = before.filter((x) => x.trim().startsWith('// #region')).length;
      const closed = before.filter((x) => x.trim().startsWith('// #endregion')).length;
      return opened === closed && l.trim() !== '' && !l.trim().startsWith('// #endregion');
    });
    expect(outside).toEqual([]);
    expect(text).not.toContain('meshes[0]');
  });

  it('is under 50 lines of user code (imports and the app, without blank lines and comments), and the sandbox builds it as a page', () => {
    const text = readFileSync(new URL('../../examples/pixiFox.ts', import.meta.url), 'utf8');
    const region = (name: string): string[] => {
      const lines = text.split('\n');
      const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
      const end = lines.findIndex((l, k) => k > start && l.trim() === '// #endregion');
      return lines.slice(start + 1, end);
    };
    const code = [...region('imports'), ...region('app')].filter((l) => l.trim() !== '' && !l.trim().startsWith('//'));
    expect(code.length).toBeGreaterThan(20);
    expect(code.length).toBeLessThan(50);
    const vite = readFileSync(new URL('../../sandbox/vite.config.ts', import.meta.url), 'utf8');
    expect(vite).toMatch(/pixiFox: join\(sandboxDir, 'pixiFox\.html'\)/);
    expect(vite).toMatch(/bitanim\\\/pixi\$\/, replacement: join\(repoDir, 'src', 'pixi', 'index\.ts'\)/);
    expect(readFileSync(new URL('../../sandbox/pixiFox.html', import.meta.url), 'utf8')).toContain('src="./src/pixiFoxPage.ts"');
    expect(readFileSync(new URL('../../sandbox/src/pixiFoxPage.ts', import.meta.url), 'utf8')).toContain("from '../../examples/pixiFox'");
  });
});
