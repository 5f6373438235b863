/**
 * glTF at its own key rate (issue 13, item 5): the key grid, the rate search and
 * `clip.importError`, on tiny documents whose errors are derived by hand, and on the shared
 * assets (their chosen rates and errors are printed for docs/importing.md).
 */
import { Document, WebIO, type Node } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { AnimationError, type Clip } from '../../src/index.js';
import { loadGltf } from '../../src/import/gltf.js';
import { findKeyGrid } from '../../src/import/gltf/resample.js';
import { readAsset } from '../oracle/gltfThree.js';

/** One joint `j0` (and a child `j1` one metre up its X axis), skinned to nothing. */
function tinyDoc() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene();
  const j0 = doc.createNode('j0');
  const j1 = doc.createNode('j1').setTranslation([1, 0, 0]);
  j0.addChild(j1);
  scene.addChild(j0);
  doc.createSkin().addJoint(j0).addJoint(j1);
  const animation = doc.createAnimation('a');
  const channel = (node: Node, path: 'translation' | 'rotation', interpolation: 'LINEAR' | 'STEP', times: number[], values: number[]) => {
    const input = doc.createAccessor().setType('SCALAR').setArray(new Float32Array(times)).setBuffer(buffer);
    const output = doc.createAccessor().setType(path === 'rotation' ? 'VEC4' : 'VEC3').setArray(new Float32Array(values)).setBuffer(buffer);
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(interpolation);
    animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setSampler(sampler).setTargetNode(node).setTargetPath(path));
  };
  return { doc, j0, j1, channel };
}

const bytesOf = (doc: Document) => new WebIO().writeBinary(doc);
const deg = Math.PI / 180;

describe('findKeyGrid: the smallest whole rate with every key on a frame', () => {
  it('finds 24 for keys at k/24 stored as float32, 120 for the Fox Run pattern, 0 off any grid', () => {
    const f32 = (values: number[]) => Float64Array.from(values, Math.fround);
    expect(findKeyGrid(f32(Array.from({ length: 83 }, (_, k) => k / 24)))).toBe(24);
    // 0…16/24, then a 0.2 s gap: 0.8667 = 104/120 s, and on by 1/24 = 5/120.
    const run = [...Array.from({ length: 17 }, (_, k) => k / 24), ...Array.from({ length: 8 }, (_, k) => 16 / 24 + 0.2 + k / 24)];
    expect(findKeyGrid(f32(run))).toBe(120);
    expect(findKeyGrid(f32([0, 0.5, 1.5]))).toBe(2);
    expect(findKeyGrid(f32([0, 0.3137, 1]))).toBe(0); // 3137/10000: no grid up to 1000 Hz
    expect(findKeyGrid(f32([0]))).toBe(1);
  });
});

describe('the rate search and clip.importError (hand-derived errors)', () => {
  it('LINEAR rotation 0° → 90° in 1 s: 1 Hz keys, nlerp off slerp by 2·sin(Δ/2) at the child, so the rate rises', async () => {
    const t = tinyDoc();
    const s = Math.SQRT1_2;
    t.channel(t.j0, 'rotation', 'LINEAR', [0, 1], [0, 0, 0, 1, 0, 0, s, s]);
    const bytes = await bytesOf(t.doc);

    // Forced 1 fps: frames at 0 and 1 s. At u = ¼ (and ¾) nlerp turns by 2·atan2(u·sin45°, 1 − u + u·cos45°)
    // while slerp turns by u·90°; the child, 1 m out, is off by the chord 2·sin(Δ/2). ½ is exact.
    const forced = await loadGltf(bytes, { frameRate: 1 });
    const clip = forced.clips[0]!;
    expect([clip.frameCount, clip.frameRate]).toEqual([2, 1]);
    const nlerpAngle = (u: number) => 2 * Math.atan2(u * Math.sin(45 * deg), 1 - u + u * Math.cos(45 * deg));
    const chord = (u: number) => 2 * Math.sin(Math.abs(nlerpAngle(u) - u * 90 * deg) / 2);
    expect(clip.importError).toBeCloseTo(chord(0.25), 7);
    expect(chord(0.25)).toBeCloseTo(0.01574, 5); // 21.598° against 22.5°
    expect(forced.warnings).toEqual([expect.stringMatching(/^animation "a" \(animations\[0\]\): at the given frameRate \(1 fps\) its frames are up to 16 mm off the file's keys, more than 0\.1 mm; without frameRate the importer picks a rate within it$/)]);

    // Default: grid 1 Hz, then 2, 3, 4, 6, 8, … until within 0.1 mm. At n Hz each frame interval
    // turns by 90°/n, and the error at ¼ of it is the same chord for that span.
    const chosen = (await loadGltf(bytes)).clips[0]!;
    const chordFor = (rate: number) => {
      const half = 90 / rate / 2 * deg;
      const a = 2 * Math.atan2(0.25 * Math.sin(half), 0.75 + 0.25 * Math.cos(half));
      return 2 * Math.sin(Math.abs(a - 0.25 * 2 * half) / 2);
    };
    const ladder = [1, 2, 3, 4, 6, 8, 12, 16, 24];
    const expected = ladder.find((r) => chordFor(r) <= 1e-4)!;
    expect(chosen.frameRate).toBe(expected);
    expect(chosen.importError).toBeCloseTo(chordFor(expected), 6); // float32 frames: ~6e-8
    expect(chosen.importError).toBeLessThanOrEqual(1e-4);
    expect(chordFor(ladder[ladder.indexOf(expected) - 1]!)).toBeGreaterThan(1e-4); // the one below is not enough
  });

  it('keys off any grid: the rate starts at 30 and rises until the kink is within 0.1 mm; the error is the kink\'s', async () => {
    const t = tinyDoc();
    const tk = Math.fround(0.3137);
    t.channel(t.j0, 'translation', 'LINEAR', [0, tk, 1], [0, 0, 0, 0.01, 0, 0, 0, 0, 0]);
    const { clips, warnings } = await loadGltf(await bytesOf(t.doc));
    const clip = clips[0]!;
    expect(warnings).toEqual([]);
    // Between frames a < tk < b (h = 1/rate) the source has a kink of slope change Δ; the frames'
    // line is off by Δ·(tk − a)(b − tk)/h there, the largest error (the key is a measured instant).
    const errorAt = (rate: number) => {
      const h = 1 / rate, a = Math.floor(tk * rate) * h, b = a + h;
      const delta = 0.01 / tk + 0.01 / (1 - tk);
      return (delta * (tk - a) * (b - tk)) / h;
    };
    const ladder = [30, 60, 90, 120, 180, 240, 360, 480, 720, 960];
    const expected = ladder.find((r) => errorAt(r) <= 1e-4)!;
    expect(clip.frameRate).toBeCloseTo(expected, 9); // D = 1 s: intervals / D is whole
    expect(clip.importError).toBeCloseTo(errorAt(expected), 6);
    expect(errorAt(30)).toBeGreaterThan(1e-4);
  });

  it('STEP keys: a jump stays a jump at any rate, so the search stops, keeps the grid rate and warns', async () => {
    const t = tinyDoc();
    t.channel(t.j0, 'translation', 'STEP', [0, 0.5, 1], [0, 0, 0, 1, 0, 0, 1, 0, 0]);
    const { clips, warnings } = await loadGltf(await bytesOf(t.doc));
    const clip = clips[0]!;
    // Grid 2 Hz: frames 0, 0.5, 1. In [0, 0.5] the frames ramp 0 → 1 while the source holds 0:
    // ¾ of the way, 0.75 m off. At 4 Hz the last interval before the jump ramps the same way.
    expect(clip.frameRate).toBe(2);
    expect(clip.importError).toBeCloseTo(0.75, 6);
    expect(warnings).toEqual([
      'animation "a" (animations[0]): at 2 fps its frames are up to 750 mm off the file\'s keys, more than 0.1 mm: a higher rate was no closer (STEP keys jump between two frames at any rate)',
    ]);
  });

  it('tolerance: a coarser bound gives a lower rate; a bad one is an AnimationError', async () => {
    const t = tinyDoc();
    const s = Math.SQRT1_2;
    t.channel(t.j0, 'rotation', 'LINEAR', [0, 1], [0, 0, 0, 1, 0, 0, s, s]);
    const bytes = await bytesOf(t.doc);
    const coarse = (await loadGltf(bytes, { tolerance: 0.02 })).clips[0]!;
    expect([coarse.frameRate, coarse.importError < 0.02]).toEqual([1, true]); // 15.7 mm at 1 Hz
    for (const tolerance of [0, -1, Number.NaN]) {
      const error = await loadGltf(bytes, { tolerance }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(AnimationError);
      expect((error as AnimationError).message).toMatch(/options\.tolerance is .*: must be a finite number > 0 \(metres\)/);
    }
  });

  it('a clip given its frames has importError 0; a single-key animation is one exact frame', async () => {
    const t = tinyDoc();
    t.channel(t.j0, 'translation', 'LINEAR', [0.25], [1, 2, 3]);
    const clip = (await loadGltf(await bytesOf(t.doc))).clips[0]!;
    expect([clip.frameCount, clip.importError]).toEqual([1, 0]);
  });
});

describe('the shared assets at their own key rate (figures for docs/importing.md)', () => {
  const table = async (file: string, options: { scale?: 'cm' } = {}): Promise<Clip[]> => {
    const { clips, warnings } = await loadGltf(readAsset(file), options);
    expect(warnings.filter((w) => /off the file's keys/.test(w))).toEqual([]);
    console.log(`${file}${options.scale ? ` (scale '${options.scale}')` : ''}:\n` + clips.map((c) =>
      `  ${c.name.padEnd(9)} ${String(c.frameCount).padStart(4)} frames at ${String(c.frameRate).padStart(3)} fps, importError ${(c.importError * 1000).toFixed(4)} mm`).join('\n'));
    for (const clip of clips) expect(clip.importError, clip.name).toBeLessThanOrEqual(1e-4);
    return clips;
  };

  it('Fox in metres: Survey keeps 24 fps, Walk 48 (nlerp between 24 fps keys is 0.61 mm off slerp), Run its 120 fps grid', async () => {
    const clips = await table('Fox.glb', { scale: 'cm' });
    expect(clips.map((c) => c.frameRate)).toEqual([24, 48, 120]);
    // Frames = rate × D + 1 with D = 82/24, 17/24 and 139/120 s.
    expect(clips.map((c) => c.frameCount)).toEqual([83, 35, 140]);
  });

  it('Fox in its file units taken as metres (no scale): the bound is 0.1 mm of those units, so rates are higher', async () => {
    const clips = await table('Fox.glb');
    for (const clip of clips) expect(clip.frameRate % 24 === 0 || clip.frameRate % 120 === 0, clip.name).toBe(true);
  });

  it('RobotExpressive (metres): every clip on a multiple of its 24 fps grid', async () => {
    const clips = await table('RobotExpressive.glb');
    expect(clips).toHaveLength(14);
    for (const clip of clips) expect(clip.frameRate % 24, clip.name).toBe(0);
  });
});
