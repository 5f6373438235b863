/**
 * The palette pool as a texture (no GPU): the layout puts whole characters in each row, so a
 * joint's matrix read at (texel mod width, texel div width) is the pool's own 12 floats; the
 * texture source aliases the pool; impossible sizes are AnimationErrors naming the option.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimationError, createAnimationWorld } from '../../src/index.js';

type Pixi = typeof import('../../src/pixi/index.js');
let pixi: Pixi;

beforeAll(async () => {
  if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' };
  pixi = await import('../../src/pixi/index.js');
});

describe('paletteLayout', () => {
  it('the most whole characters per row, a power of two ≤ 64 dividing the rows, within 4,096 texels', () => {
    // 24 joints = 72 texels: 32 × 72 = 2,304 fits, 64 × 72 = 4,608 does not.
    expect(pixi.paletteLayout(64, 24)).toEqual({ texelsPerEntity: 72, perRow: 32, width: 2304, height: 2 });
    // 4 joints = 12 texels: 64 per row (the cap), 1,024 rows → 16 tall.
    expect(pixi.paletteLayout(1024, 4)).toEqual({ texelsPerEntity: 12, perRow: 64, width: 768, height: 16 });
    // 12 rows: 4 divides them, 8 does not.
    expect(pixi.paletteLayout(12, 4)).toEqual({ texelsPerEntity: 12, perRow: 4, width: 48, height: 3 });
    // An odd row count: one character per row.
    expect(pixi.paletteLayout(101, 10)).toEqual({ texelsPerEntity: 30, perRow: 1, width: 30, height: 101 });
  });

  it('every texel of the pool lands at one (x, y) inside the texture, and a character\'s texels never wrap mid-matrix', () => {
    for (const [rows, joints] of [[64, 24], [12, 4], [101, 10], [256, 100]] as const) {
      const layout = pixi.paletteLayout(rows, joints);
      const texels = rows * joints * 3;
      expect(layout.width * layout.height).toBe(texels);
      for (let eid = 0; eid < rows; eid++) {
        const first = eid * layout.texelsPerEntity;
        const last = first + layout.texelsPerEntity - 1;
        expect(Math.floor(first / layout.width), `rows ${rows} eid ${eid}`).toBe(Math.floor(last / layout.width));
      }
    }
  });

  it('too many joints for a row, or a pool too tall, is an AnimationError naming the world option', () => {
    expect(() => pixi.paletteLayout(64, 1366)).toThrow(/world\.maxJoints is 1366: a palette of 4098 texels .*\(at most 1365 joints\)/);
    expect(pixi.paletteLayout(64, 1365).width).toBe(4095);
    expect(() => pixi.paletteLayout(4097, 4)).toThrow(/world\.maxEntities is 4096: .* 4097 texels tall \(1 per row\)/);
    expect(() => pixi.paletteLayout(4097, 4)).toThrow(AnimationError);
  });
});

describe('PaletteTexture', () => {
  it('aliases the world\'s palette pool (no copy), rgba32float, nearest, never premultiplied', () => {
    const world = createAnimationWorld({ maxEntities: 63, maxJoints: 24 });
    const pool = world.components.SkinPalette.data as Float32Array;
    const palette = new pixi.PaletteTexture(pool, world.maxJoints);
    expect(palette.layout).toEqual(pixi.paletteLayout(64, 24));
    expect(palette.source.resource).toBe(pool);
    expect([palette.source.width, palette.source.height]).toEqual([2304, 2]);
    expect(palette.source.format).toBe('rgba32float');
    expect(palette.source.alphaMode).toBe('no-premultiply-alpha');
    expect(palette.source.style.scaleMode).toBe('nearest');
  });
});
