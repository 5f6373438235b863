/**
 * Whole characters and morph targets in `bitanim/pixi`, without a GPU: the Robot's 19
 * primitives merged into one body (its corner texture read back as the shader reads it:
 * texels per corner, colour, morph row, deltas), the morph weights the crowd writes into each
 * character's slot (from `setMorphWeights` or the world's curve values through the adapter),
 * and the boundary checks.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnimationError, createAnimationWorld, createClip, curveIndex, getCurves, loadGltf, play, spawnCharacter, step, type GltfResult, type SkinnedMeshData } from '../../src/index.js';
import { readAsset } from '../support/assets.js';

type Pixi = typeof import('../../src/pixi/index.js');
let pixi: Pixi;
let robot: GltfResult;
let meshes: SkinnedMeshData[];
let fox: GltfResult;

beforeAll(async () => {
  if (!('navigator' in globalThis)) (globalThis as { navigator?: unknown }).navigator = { userAgent: 'node' };
  pixi = await import('../../src/pixi/index.js');
  robot = await loadGltf(readAsset('RobotExpressive.glb'));
  meshes = robot.meshes.filter((m) => m.skeleton === 0);
  fox = await loadGltf(readAsset('Fox.glb'), { scale: 'cm' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The crowd's batches (private) as the tests read them. */
type Batch = { body: { name: string }; slots: Float32Array; slotFloats: number; targets: number; size: number };
const batchesOf = (crowd: object): Batch[] => [...(crowd as unknown as { batches: Map<unknown, Batch> }).batches.values()];

/** Texel `i` of a body's corner image (4 floats). */
function texel(data: Float32Array, i: number): number[] {
  return Array.from(data.subarray(i * 4, i * 4 + 4));
}

describe('a whole character: the Robot in one body', () => {
  it('merges its 19 primitives: 7,214 vertices, every triangle offset to its primitive, joints within the skeleton', () => {
    const body = pixi.createCharacterBody(meshes);
    expect(meshes.length).toBe(19);
    expect(body.arrays.vertexCount).toBe(7214);
    let corners = 0, first = 0;
    for (let i = 0; i < meshes.length; i++) {
      const m = meshes[i]!;
      expect(body.arrays.firstVertex[i]).toBe(first);
      const local = m.indices!;
      for (let k = 0; k < local.length; k += 97) expect(body.arrays.indices[corners + k]).toBe(local[k]! + first);
      // A vertex's position is its primitive's.
      expect(body.arrays.vertices[(first + 1) * pixi.BODY_STRIDE + 1]).toBe(m.positions[4]);
      corners += local.length;
      first += m.positions.length / 3;
    }
    expect(body.corners).toBe(corners);
    expect(body.jointCount).toBeLessThanOrEqual(robot.skeletons[0]!.jointCount);
    expect(body.materials).toEqual(meshes.map((m) => m.material));
  });

  it('keeps each primitive\'s base colour factor per vertex (5 texels per corner) and the head\'s three targets, by curve name', () => {
    const body = pixi.createCharacterBody(meshes);
    expect(body.vertexColors).toBe(true);
    expect(body.baseColorFactor).toEqual([1, 1, 1, 1]);
    expect(body.texelsPerCorner).toBe(5);
    expect(body.morphTargets).toEqual(robot.skeletons[0]!.curves.map((c) => c.name));
    expect(body.morphTargets).toEqual(['Head.Angry', 'Head.Surprised', 'Head.Sad']);
    const data = body.cornerSource.resource as Float32Array;
    let k = 0;
    for (let i = 0; i < meshes.length; i++) {
      const m = meshes[i]!;
      const factor = m.material!.baseColorFactor;
      for (let n = 0; n < m.indices!.length; n++, k++) {
        if (n % 53 !== 0) continue;
        const extra = texel(data, k * 5 + 4);
        expect(extra.slice(0, 3)).toEqual(factor.slice(0, 3).map(Math.fround));
        expect(extra[3]! > 0).toBe(m.morphTargets.length > 0); // morph row + 1; 0: none
      }
    }
  });

  it('the corner image, read as the shader reads it, gives each vertex its bind position + Σ wₖ Δₖ (the meshes\' own deltas)', () => {
    const body = pixi.createCharacterBody(meshes);
    const data = body.cornerSource.resource as Float32Array;
    const T = body.morphTargets.length, per = body.texelsPerCorner;
    const weights = [0.7, 0.2, 0.45];
    let k = 0, morphed = 0, largest = 0;
    for (const m of meshes) {
      const local = m.indices!;
      for (let n = 0; n < local.length; n++, k++) {
        const v = local[n]!;
        // The shader's way: texels 0 and 4 of the corner, then 2 texels per (row, target).
        const p = texel(data, k * per).slice(0, 3);
        const row = Math.round(texel(data, k * per + 4)[3]!) - 1;
        if (row >= 0) {
          for (let t = 0; t < T; t++) {
            const a = texel(data, body.morphBase + (row * T + t) * 2);
            for (let c = 0; c < 3; c++) p[c]! += weights[t]! * a[c]!;
          }
        }
        // Independently, from the mesh.
        for (let c = 0; c < 3; c++) {
          let expected = m.positions[v * 3 + c]!;
          m.morphTargets.forEach((target) => { expected += weights[body.morphTargets.indexOf(target.name)]! * target.positions[v * 3 + c]!; });
          expect(Math.abs(p[c]! - expected)).toBeLessThan(1e-6);
          largest = Math.max(largest, Math.abs(expected - m.positions[v * 3 + c]!));
        }
        if (row >= 0) morphed++;
      }
    }
    expect(morphed).toBe(meshes.filter((m) => m.morphTargets.length > 0).reduce((n, m) => n + m.indices!.length, 0));
    // The expressions move the face (Head#2): bind space is the joints' (their matrices scale it ×100; the head is 0.026 wide in it).
    expect(largest).toBeGreaterThan(0.001);
  });

  it('a body without colours per vertex or morph targets keeps 4 texels per corner and its material\'s factor (the Fox; one Robot colour)', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const foxBody = pixi.createCharacterBody(fox.meshes[0]!);
    expect([foxBody.texelsPerCorner, foxBody.morphBase, foxBody.morphTargets.length, foxBody.vertexColors]).toEqual([4, 0, 0, false]);
    const legs = meshes.filter((m) => /^(Leg|LowerLeg)\./.test(m.name));
    const legBody = pixi.createCharacterBody(legs);
    expect([legBody.texelsPerCorner, legBody.vertexColors]).toEqual([4, false]);
    expect(legBody.baseColorFactor).toEqual(legs[0]!.material!.baseColorFactor);
    // Morph targets alone: 5 texels, colour white.
    const head = pixi.createCharacterBody(meshes.find((m) => m.name === 'Head#2')!);
    expect(head.texelsPerCorner).toBe(5);
    expect(texel(head.cornerSource.resource as Float32Array, 4).slice(0, 3)).toEqual([1, 1, 1]);
  });

  it('refuses an empty list, two textures in one body, too many targets and a target of the wrong length', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => pixi.createCharacterBody([])).toThrow(AnimationError);
    expect(() => pixi.createCharacterBody([fox.meshes[0]!, meshes[0]!])).toThrow(/base colour texture and none.*body per texture/);
    const head = meshes.find((m) => m.name === 'Head#0')!;
    const many = { ...head, morphTargets: Array.from({ length: 9 }, (_, i) => ({ ...head.morphTargets[0]!, name: `Head.${i}` })) };
    expect(() => pixi.createCharacterBody(many)).toThrow(/9 morph targets.*at most 8/);
    const short = { ...head, morphTargets: [{ ...head.morphTargets[0]!, positions: new Float32Array(3) }] };
    expect(() => pixi.createCharacterBody([meshes[0]!, short])).toThrow(/meshes\[1\]\.morphTargets\[0\]\.positions/);
  });
});

describe('morph weights in the crowd\'s slots', () => {
  function robotWorld() {
    const world = createAnimationWorld({ maxEntities: 63, maxJoints: 64 });
    const crowd = pixi.createCrowdRenderer(world);
    Object.assign(crowd.camera, { halfHeight: 10, width: 400, height: 400 });
    return { world, crowd };
  }

  it('setMorphWeights: each target\'s weight (by curve name) after the root and tint; bodies without targets keep 8 floats a slot', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { world, crowd } = robotWorld();
    const body = pixi.createCharacterBody(meshes);
    const foxBody = pixi.createCharacterBody(fox.meshes[0]!);
    const a = spawnCharacter(world, robot.skeletons[0]!);
    const b = spawnCharacter(world, robot.skeletons[0]!);
    const f = spawnCharacter(world, fox.skeletons[0]!);
    crowd.setBody(a, body);
    crowd.setBody(b, body);
    crowd.setBody(f, foxBody);
    crowd.setMorphWeights(a, [0.25, 0, 1]);
    crowd.update();
    const [robots, foxes] = batchesOf(crowd);
    expect([robots!.slotFloats, robots!.targets, foxes!.slotFloats, foxes!.targets]).toEqual([12, 3, 8, 0]);
    expect(Array.from(robots!.slots.subarray(0, 12))).toEqual([0, 0, 0, 0, a, 1, 1, 1, 0.25, 0, 1, 0]);
    expect(Array.from(robots!.slots.subarray(12, 24))).toEqual([0, 0, 0, 0, b, 1, 1, 1, 0, 0, 0, 0]); // no weights: the curves' 0
    expect(crowd.morphWeightsOf(a)).toEqual(Float32Array.of(0.25, 0, 1));
    // Cleared: back to 0 the next frame.
    crowd.setMorphWeights(a, null);
    crowd.update();
    expect(Array.from(robots!.slots.subarray(8, 12))).toEqual([0, 0, 0, 0]);
    expect(crowd.morphWeightsOf(a)).toBeNull();
  });

  it('without an override, the weights are the world\'s blended curve values (getCurves), as a played clip drives them', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { world, crowd } = robotWorld();
    const body = pixi.createCharacterBody(meshes);
    const skeleton = robot.skeletons[0]!;
    const a = spawnCharacter(world, skeleton);
    crowd.setBody(a, body);
    // A two-frame clip of the rest pose whose Head.Angry goes 0 → 1 and Head.Sad holds 0.25.
    const rest = Array.from(skeleton.rest);
    const faces = createClip({
      skeleton, frameRate: 1, frames: [...rest, ...rest], loop: false,
      curves: [{ name: 'Head.Angry', values: [0, 1] }, { name: 'Head.Sad', values: [0.25, 0.25] }],
    });
    play(world, a, faces);
    step(world, 0.5);
    const curves = getCurves(world, a);
    const angry = curveIndex(skeleton, 'Head.Angry'), surprised = curveIndex(skeleton, 'Head.Surprised'), sad = curveIndex(skeleton, 'Head.Sad');
    expect([curves[angry], curves[surprised], curves[sad]]).toEqual([0.5, 0, 0.25]);
    crowd.update();
    // The slot holds the body's targets in its own order (Angry, Surprised, Sad).
    expect(Array.from(batchesOf(crowd)[0]!.slots.subarray(8, 12))).toEqual([0.5, 0, 0.25, 0]);
    crowd.setMorphWeights(a, [1, 0, 0]); // the override wins
    crowd.update();
    expect(Array.from(batchesOf(crowd)[0]!.slots.subarray(8, 12))).toEqual([1, 0, 0, 0]);
    crowd.setMorphWeights(a, null); // and goes
    crowd.update();
    expect(Array.from(batchesOf(crowd)[0]!.slots.subarray(8, 12))).toEqual([0.5, 0, 0.25, 0]);
  });

  it('a target whose curve the skeleton lacks stays 0; bad weights or a non-character are AnimationErrors', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { world, crowd } = robotWorld();
    const head = meshes.find((m) => m.name === 'Head#0')!;
    const renamed = pixi.createCharacterBody({ ...head, morphTargets: [{ ...head.morphTargets[0]!, name: 'Face.Smile' }, head.morphTargets[2]!] });
    const a = spawnCharacter(world, robot.skeletons[0]!);
    crowd.setBody(a, renamed);
    crowd.setMorphWeights(a, [0.3, 0.6, 0.9]);
    crowd.update();
    expect(Array.from(batchesOf(crowd)[0]!.slots.subarray(8, 12))).toEqual([0, Math.fround(0.9), 0, 0]);
    expect(() => crowd.setMorphWeights(a, [1, 2])).toThrow(/3 numbers.*Head\.Angry, Head\.Surprised, Head\.Sad/);
    expect(() => crowd.setMorphWeights(a, [1, Number.NaN, 0])).toThrow(/weights\[1\] is NaN/);
    expect(() => crowd.setMorphWeights(99, [0, 0, 0])).toThrow(AnimationError);
  });
});

describe('examples/pixiRobot.ts (docs/pixi.md)', () => {
  it('draws the whole Robot in one body, its Surprised weight in the slot', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { surprisedRobot } = await import('../../examples/pixiRobot.js');
    const { crowd, body, robot } = await surprisedRobot(readAsset('RobotExpressive.glb'));
    Object.assign(crowd.camera, { halfHeight: 2, width: 400, height: 400 });
    crowd.update();
    expect(crowd.stats).toMatchObject({ drawn: 1, drawCalls: 1 });
    expect(body.arrays.vertexCount).toBe(7214);
    const [batch] = batchesOf(crowd);
    expect(Array.from(batch!.slots.subarray(4, 5))).toEqual([robot]);
    expect(Array.from(batch!.slots.subarray(8, 12))).toEqual([0, 1, 0, 0]);
  });
});
