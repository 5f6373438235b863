/**
 * Key times as exporters write them: a clip whose keys start one frame in (at 1/24 s) and key
 * times rounded to a few decimals (0.0417, 0.0833, …). The importer must find the keys' own
 * rate (a multiple of the grid they sit near) and stay within 0.1 mm of them, without a
 * warning. The files are Fox.glb with its key times rewritten here; the expected clip is the
 * unmodified file's, sampled one frame later.
 */
import { Accessor, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { loadGltf } from '../../src/import/gltf.js';
import { findKeyGrid } from '../../src/import/gltf/resample.js';
import { sampleClipInto } from '../../src/assets/sampleClip.js';
import { composeModel } from '../../src/math/composeModel.js';
import { MATRIX_STRIDE, MATRIX_T, POSE_STRIDE } from '../../src/math/layout.js';
import type { Clip } from '../../src/index.js';
import { readAsset } from '../support/assets.js';

/** Fox.glb with every key time t rewritten as `retime(t)` (each input accessor once). */
async function retimedFox(retime: (t: number) => number): Promise<Uint8Array> {
  const io = new WebIO();
  const doc = await io.readBinary(readAsset('Fox.glb'));
  const seen = new Set<Accessor>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const sampler of animation.listSamplers()) {
      const input = sampler.getInput()!;
      if (seen.has(input)) continue;
      seen.add(input);
      input.setArray(Float32Array.from(input.getArray()!, retime));
    }
  }
  return io.writeBinary(doc);
}

/** Largest model-space joint distance, metres, between `a` at t + shift and `b` at t, over b's frames and midpoints. */
function largestGap(a: Clip, shift: number, b: Clip): number {
  const J = b.skeleton.jointCount, size = J * POSE_STRIDE;
  const pa = new Float32Array(size), pb = new Float32Array(size);
  const ma = new Float64Array(J * MATRIX_STRIDE), mb = new Float64Array(J * MATRIX_STRIDE);
  const time = new Float64Array(1);
  let worst = 0;
  for (let i = 0; i < 2 * (b.frameCount - 1); i++) {
    const t = i / 2 / b.frameRate;
    time[0] = t + shift;
    sampleClipInto(pa, 0, a, time, 0);
    time[0] = t;
    sampleClipInto(pb, 0, b, time, 0);
    composeModel(ma, 0, MATRIX_STRIDE, Float64Array.from(pa), 0, a.skeleton.parents, 0, J);
    composeModel(mb, 0, MATRIX_STRIDE, Float64Array.from(pb), 0, b.skeleton.parents, 0, J);
    for (let j = 0; j < J; j++) {
      const m = j * MATRIX_STRIDE + MATRIX_T;
      worst = Math.max(worst, Math.hypot(ma[m] - mb[m], ma[m + 1] - mb[m + 1], ma[m + 2] - mb[m + 2]));
    }
  }
  return worst;
}

describe('findKeyGrid near a grid', () => {
  it('keys rounded to 4 decimals or 6 digits give their grid; a few keys off any grid give none', () => {
    const f32 = (values: number[]) => Float64Array.from(values, Math.fround);
    expect(findKeyGrid(f32([0.0417, 0.0833, 0.125, 0.1667, 0.2083, 0.25]))).toBe(24);
    expect(findKeyGrid(f32(Array.from({ length: 30 }, (_, k) => Number(((k + 1) / 24).toPrecision(6)))))).toBe(24);
    expect(findKeyGrid(f32(Array.from({ length: 30 }, (_, k) => Math.round((k + 1) / 120 * 1e4) / 1e4)))).toBe(120);
    // 4 decimals of k/30: 0.0333, 0.0667, … (within 3.4e-5 s of the grid, inside 1 % of 1/30).
    expect(findKeyGrid(f32(Array.from({ length: 30 }, (_, k) => Math.round(k / 30 * 1e4) / 1e4)))).toBe(30);
    // Too few keys to call a near fit a grid; keys a millisecond off are off any near grid.
    expect(findKeyGrid(f32([0, 0.3137, 1]))).toBe(0);
    expect(findKeyGrid(f32([0, 0.0427, 0.0843, 0.126, 0.1677, 0.2093].map((t, k) => t + (k % 2) * 0.0013)))).toBe(0);
  });
});

describe('decimal-rounded key times that start at 1/24 s', () => {
  const variants: [string, (t: number) => number][] = [
    ['shifted by 1/24 s, float32', (t) => t + 1 / 24],
    ['shifted by 1/24 s, 6 significant digits', (t) => Number((t + 1 / 24).toPrecision(6))],
    ['shifted by 1/24 s, 4 decimals', (t) => Math.round((t + 1 / 24) * 1e4) / 1e4],
    ['not shifted, 4 decimals', (t) => Math.round(t * 1e4) / 1e4],
  ];
  for (const [label, retime] of variants) {
    it(`Fox ${label}: the rates of the original file (24, 48, 120 fps), within 0.1 mm, no warning`, async () => {
      const original = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
      const shift = retime(0) > 0.02 ? 1 / 24 : 0;
      const { clips, warnings } = await loadGltf(await retimedFox(retime), { scale: 'cm' });
      console.log(`${label}: ` + clips.map((c) => `${c.name} ${c.frameRate} fps ${(c.importError * 1000).toFixed(4)} mm`).join(', '), warnings);
      expect(warnings).toEqual([]);
      expect(clips.map((c) => c.frameRate)).toEqual(original.clips.map((c) => c.frameRate));
      for (let i = 0; i < clips.length; i++) {
        const clip = clips[i]!;
        expect(clip.importError, clip.name).toBeLessThanOrEqual(1e-4);
        // Against the unmodified file one frame later: the keys back on their grid are the
        // original keys, so both imports hold the same frames up to float32 rounding (~1e-7 m).
        const gap = largestGap(clip, shift, original.clips[i]!);
        console.log(`  ${clip.name}: largest gap to the original ${(gap * 1000).toFixed(4)} mm`);
        expect(gap, clip.name).toBeLessThan(1e-5);
      }
    });
  }
});
