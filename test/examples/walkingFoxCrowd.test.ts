import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getRootTransform } from '../../src/index.js';
import { walkingFoxCrowd } from '../../examples/walkingFoxCrowd.js';
import { assetPath } from '../support/assets.js';

const fox = new Uint8Array(readFileSync(assetPath('Fox.glb')));

describe('examples/walkingFoxCrowd.ts', () => {
  it('walks 100 foxes at their target speeds along their headings, and steers them back inside 12 m', async () => {
    const { world, foxes, frame } = await walkingFoxCrowd(fox);
    expect(foxes).toHaveLength(100);
    const start = foxes.map((eid) => getRootTransform(world, eid));
    let palettes: Float32Array[] = [];
    for (let n = 0; n < 6 * 60; n++) palettes = frame(1 / 60);
    expect(palettes).toHaveLength(100);
    for (const palette of palettes) expect(palette.length).toBe(24 * 12);
    // 6 s in, none has reached 12 m (from 8 m at ≤ 1.16 m/s sideways: √(8² + 7²) < 12), so each
    // has walked 6 s × its speed along its heading (sin ψ, cos ψ), to 2% (the part of a cycle).
    foxes.forEach((eid, n) => {
      const speed = 0.8 + (0.4 * ((n * 7) % 10)) / 10;
      const at = getRootTransform(world, eid), from = start[n]!;
      const dx = at.x - from.x, dz = at.z - from.z;
      expect(Math.abs(Math.hypot(dx, dz) - 6 * speed)).toBeLessThan(0.02 * 6 * speed);
      const along = dx * Math.sin(from.yaw) + dz * Math.cos(from.yaw);
      expect(along / Math.hypot(dx, dz)).toBeGreaterThan(Math.cos((2 * Math.PI) / 180));
    });
    // A minute on, the steering has kept every fox within one frame's travel of 12 m.
    let farthest = 0;
    for (let n = 0; n < 60 * 60; n++) {
      frame(1 / 60);
      for (const eid of foxes) {
        const { x, z } = getRootTransform(world, eid);
        farthest = Math.max(farthest, Math.hypot(x, z));
      }
    }
    expect(farthest).toBeGreaterThan(11.9); // they did get there
    expect(farthest).toBeLessThan(12 + 1.2 / 60 + 0.05);
  });
});
