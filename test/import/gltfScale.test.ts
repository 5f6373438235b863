/**
 * `loadGltf(bytes, { scale })`: file units → metres at import. A uniform scale s of the whole
 * world conjugates every node transform, S·(T·R·Sc)·S⁻¹ = (s·T)·R·Sc, and every inverse bind
 * the same way, so a joint matrix becomes S·J·S⁻¹ and a skinned vertex S·J·S⁻¹·(s·v) = s·(J·v):
 * the properties below (every translation and position × s, rotations and scales unchanged,
 * skinned vertices × s) follow from that, not from the importer.
 */
import { describe, expect, it } from 'vitest';
import { AnimationError, type Clip } from '../../src/index.js';
import { computeModelPose, computeSkinPalette, skinVertices } from '../../src/kernels.js';
import { loadGltf } from '../../src/import/gltf.js';
import { parseScale, UNITS } from '../../src/import/units.js';
import { parseWithThree, readAsset } from '../oracle/gltfThree.js';

const FOX = readAsset('Fox.glb');
const ROBOT = readAsset('RobotExpressive.glb');
const RATE = { frameRate: 24 }; // the same frames with and without a scale, whatever the default

/** |a − b| ≤ tolerance × max(1, |b|) for every element. */
function expectScaled(actual: ArrayLike<number>, base: ArrayLike<number>, s: number, what: string): void {
  expect(actual.length, what).toBe(base.length);
  let worst = 0;
  for (let i = 0; i < base.length; i++) {
    const expected = Math.fround(base[i]!) * s;
    worst = Math.max(worst, Math.abs(actual[i]! - expected) / Math.max(1e-3, Math.abs(expected)));
  }
  expect(worst, what).toBeLessThan(1e-6); // float32 rounding of the product, relative
}

/** The elements of a J×stride block at the given offsets within each stride. */
function pick(values: ArrayLike<number>, stride: number, offsets: readonly number[]): number[] {
  const out: number[] = [];
  for (let b = 0; b < values.length; b += stride) for (const o of offsets) out.push(values[b + o]!);
  return out;
}

const TRANSLATION = [0, 1, 2];
const ROTATION_SCALE = [3, 4, 5, 6, 7, 8, 9];
const IBM_TRANSLATION = [9, 10, 11];
const IBM_LINEAR = [0, 1, 2, 3, 4, 5, 6, 7, 8];

describe('parseScale: the one parser of file units (loadGltf, bitanim inspect and lod)', () => {
  it('gives metres per unit for names in any case, numbers and numeric strings; NaN otherwise', () => {
    expect(UNITS).toEqual({ m: 1, cm: 0.01, mm: 0.001, in: 0.0254, ft: 0.3048 }); // inch and foot by definition
    expect(parseScale('cm')).toBe(0.01);
    expect(parseScale('FT')).toBe(0.3048);
    expect(parseScale(' in ')).toBe(0.0254);
    expect(parseScale(0.056444)).toBe(0.056444);
    expect(parseScale('0.01')).toBe(0.01);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '', 'furlong', 'constructor', '-2', null, {}, true]) {
      expect(parseScale(bad), String(bad)).toBeNaN();
    }
  });
});

describe('loadGltf { scale }: every length × s, rotations and scales unchanged', async () => {
  const base = await loadGltf(FOX, RATE);
  const cm = await loadGltf(FOX, { ...RATE, scale: 'cm' });

  it("'cm' and 0.01 are the same import", async () => {
    const number = await loadGltf(FOX, { ...RATE, scale: 0.01 });
    expect(number.skeletons[0]!.rest).toEqual(cm.skeletons[0]!.rest);
    expect(number.clips[2]!.frames).toEqual(cm.clips[2]!.frames);
    expect(number.meshes[0]!.positions).toEqual(cm.meshes[0]!.positions);
  });

  it('skeleton: rest translations and inverse-bind translations × 0.01, the rest unchanged', () => {
    const a = base.skeletons[0]!, b = cm.skeletons[0]!;
    expect(b.names).toEqual(a.names);
    expectScaled(pick(b.rest, 10, TRANSLATION), pick(a.rest, 10, TRANSLATION), 0.01, 'rest translations');
    expect(pick(b.rest, 10, ROTATION_SCALE)).toEqual(pick(a.rest, 10, ROTATION_SCALE));
    expectScaled(pick(b.inverseBind, 12, IBM_TRANSLATION), pick(a.inverseBind, 12, IBM_TRANSLATION), 0.01, 'inverse bind translations');
    expect(pick(b.inverseBind, 12, IBM_LINEAR)).toEqual(pick(a.inverseBind, 12, IBM_LINEAR));
    expect(b.hipHeight).toBeCloseTo(a.hipHeight * 0.01, 6);
  });

  it('clips: the same frames with every translation × 0.01 (Survey, Walk, Run)', () => {
    expect(cm.clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    cm.clips.forEach((clip, c) => {
      const original = base.clips[c]!;
      expect(clip.frameCount).toBe(original.frameCount);
      expect(clip.frameRate).toBe(original.frameRate);
      expectScaled(pick(clip.frames, 10, TRANSLATION), pick(original.frames, 10, TRANSLATION), 0.01, `${clip.name} translations`);
      expect(pick(clip.frames, 10, ROTATION_SCALE), clip.name).toEqual(pick(original.frames, 10, ROTATION_SCALE));
    });
  });

  it('meshes: positions × 0.01; joints and weights unchanged', () => {
    const a = base.meshes[0]!, b = cm.meshes[0]!;
    expectScaled(b.positions, a.positions, 0.01, 'positions');
    expect(b.joints).toEqual(a.joints);
    expect(b.weights).toEqual(a.weights);
  });

  it('skinVertices stays consistent: every skinned vertex of every Run frame is × 0.01', () => {
    const skinned = (result: typeof base, clip: Clip, frame: number): Float32Array => {
      const skeleton = result.skeletons[0]!, mesh = result.meshes[0]!;
      const n = skeleton.jointCount;
      const local = clip.frames.subarray(frame * n * 10, (frame + 1) * n * 10);
      const model = new Float32Array(n * 12), palette = new Float32Array(n * 12);
      computeModelPose(model, 0, local, 0, skeleton.parents, n);
      computeSkinPalette(palette, 0, model, 0, skeleton.inverseBind, n);
      const out = new Float32Array(mesh.positions.length);
      skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, out);
      return out;
    };
    const run = 2;
    for (let f = 0; f < cm.clips[run]!.frameCount; f++) {
      const a = skinned(base, base.clips[run]!, f), b = skinned(cm, cm.clips[run]!, f);
      // Float32 arithmetic on both sides: ≤ 1e-5 of the fox's size (~155 units → 1.55 m).
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(b[i]! - a[i]! * 0.01));
      expect(worst, `Run frame ${f}`).toBeLessThan(1.55e-5);
    }
  });

  it('the Fox in metres: hips (b_Hip_01) at the height three.js gives in centimetres × 0.01', async () => {
    const three = await parseWithThree(FOX);
    const hipNode = three.gltf.scene.getObjectByName('b_Hip_01')!;
    const threeHeightCm = hipNode.getWorldPosition(hipNode.position.clone()).y;
    const skeleton = cm.skeletons[0]!;
    const hip = skeleton.names.indexOf('b_Hip_01');
    const model = new Float32Array(skeleton.jointCount * 12);
    computeModelPose(model, 0, skeleton.rest, 0, skeleton.parents, skeleton.jointCount);
    const height = model[hip * 12 + 10]!;
    expect(Math.abs(height - threeHeightCm * 0.01)).toBeLessThan(1e-6);
    // A fox's hips stand a few decimetres high (the model is ~79 cm tall to the ears).
    expect(height).toBeGreaterThan(0.2);
    expect(height).toBeLessThan(0.6);
    console.log(`Fox hips (b_Hip_01) at rest: ${height.toFixed(4)} m with scale 'cm'; three.js ${threeHeightCm.toFixed(3)} units`);
  });

  it('the robot (metres, a scaled armature node baked into its joints) scales the same way', async () => {
    const a = await loadGltf(ROBOT, RATE), b = await loadGltf(ROBOT, { ...RATE, scale: 'ft' });
    expectScaled(pick(b.skeletons[0]!.rest, 10, TRANSLATION), pick(a.skeletons[0]!.rest, 10, TRANSLATION), 0.3048, 'rest');
    expectScaled(pick(b.clips[0]!.frames, 10, TRANSLATION), pick(a.clips[0]!.frames, 10, TRANSLATION), 0.3048, 'frames');
    b.meshes.forEach((mesh, m) => expectScaled(mesh.positions, a.meshes[m]!.positions, 0.3048, mesh.name));
  });

  it('refuses a scale that is not a positive finite number or a unit name, naming options.scale', async () => {
    for (const scale of [0, -0.01, Number.NaN, Number.POSITIVE_INFINITY, 'furlong', ''] as unknown[]) {
      const error = await loadGltf(FOX, { scale: scale as number }).then(() => null, (e: unknown) => e);
      expect(error, String(scale)).toBeInstanceOf(AnimationError);
      expect((error as AnimationError).message).toMatch(/options\.scale is .*: must be a finite number > 0 \(metres per file unit\) or one of m, cm, mm, in, ft/);
    }
  });
});
