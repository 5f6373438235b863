/**
 * Palette-only worlds (`createAnimationWorld({ modelPose: false })`): no ModelPose pool, the
 * same skinning palettes bit for bit as the default world's on either kernel path and on
 * worker threads, 48 bytes a joint less, the API that reads model matrices composing them
 * from the local pose (or refusing where it hands out the pool).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AnimationError,
  createAnimationWorld,
  disposeAnimationWorld,
  getJointWorldMatrix,
  getModelMatrices,
  loadGltf,
  play,
  setLookAt,
  spawnCharacter,
  step,
  stepParallel,
  transition,
  worldBytes,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { createRandom } from '../fixtures/synthetic.js';
import { readAsset } from '../support/assets.js';

const COUNT = 120;
const FRAMES = 40;
const DT = 1 / 60;
let robot: Skeleton, clips: Clip[];

beforeAll(async () => {
  const gltf = await loadGltf(readAsset('RobotExpressive.glb'));
  robot = gltf.skeletons[0]!;
  clips = ['Walking', 'Running', 'Idle', 'Wave'].map((name) => gltf.clips.find((c) => c.name === name)!);
}, 60_000);

/** A crowd of two layers a character, a look-at on every fifth, transitions every 12 frames; its palettes after FRAMES frames. */
async function run(kernels: 'js' | 'wasm', modelPose: boolean, threads = 1): Promise<{ world: AnimationWorld; palette: Float32Array }> {
  const world = createAnimationWorld({ maxEntities: COUNT, maxJoints: robot.jointCount, kernels, modelPose, threads, maxTransitions: COUNT });
  expect(world.kernels).toBe(kernels);
  const random = createRandom(5);
  const eids: number[] = [];
  for (let n = 0; n < COUNT; n++) {
    const eid = spawnCharacter(world, robot, { x: n % 12, z: Math.floor(n / 12) });
    play(world, eid, clips[n % 3]!, { time: random() * 0.8 });
    play(world, eid, clips[3]!, { layer: 1, weight: 0.2 + 0.6 * random() });
    eids.push(eid);
  }
  for (let f = 0; f < FRAMES; f++) {
    if (f === 3) for (let n = 0; n < COUNT; n += 5) setLookAt(world, eids[n]!, { joint: 'Head' });
    if (f % 12 === 6) for (let n = f % 4; n < COUNT; n += 4) transition(world, eids[n]!, clips[(n + f) % 3]!, { duration: 0.2 });
    if (threads > 1) await stepParallel(world, DT);
    else step(world, DT);
  }
  return { world, palette: Float32Array.from(world.components.SkinPalette.data) };
}

describe('palette-only worlds (modelPose: false)', () => {
  for (const kernels of ['js', 'wasm'] as const) {
    it(`give the default world's palettes bit for bit, with no ModelPose pool (kernels: ${kernels})`, async () => {
      const full = await run(kernels, true), lean = await run(kernels, false);
      expect(lean.world.components.ModelPose.data.length).toBe(0);
      expect(full.world.components.ModelPose.data.length).toBeGreaterThan(0);
      let differing = 0, nonzero = 0;
      for (let i = 0; i < full.palette.length; i++) {
        if (full.palette[i] !== lean.palette[i]) differing++;
        if (full.palette[i] !== 0) nonzero++;
      }
      expect(nonzero).toBeGreaterThan(COUNT * robot.jointCount * 6);
      expect(differing).toBe(0);
      // A joint's world matrix, composed from the local pose when called with the kernels the
      // world skins with: the bits the default world's ModelPose holds.
      const a = new Float64Array(12), b = new Float64Array(12);
      let apart = 0;
      for (const eid of [1, 37, COUNT]) {
        for (const joint of ['Head', 'UpperArm.R', 'Torso']) {
          getJointWorldMatrix(full.world, eid, joint, a);
          getJointWorldMatrix(lean.world, eid, joint, b);
          for (let i = 0; i < 12; i++) apart = Math.max(apart, Math.abs(a[i]! - b[i]!));
        }
      }
      expect(apart).toBe(0);
      expect(() => getModelMatrices(lean.world, 1)).toThrow(AnimationError);
      expect(() => getModelMatrices(lean.world, 1)).toThrow(/modelPose: false/);
      expect(getModelMatrices(full.world, 1).length).toBe(robot.jointCount * 12);
    }, 60_000);

    it(`stepParallel on two threads gives step's palettes (kernels: ${kernels})`, async () => {
      const alone = await run(kernels, false);
      const threaded = await run(kernels, false, 2);
      try {
        expect(threaded.palette).toEqual(alone.palette);
      } finally {
        disposeAnimationWorld(threaded.world);
      }
    }, 60_000);

    it(`take 48 bytes a joint less of every row (kernels: ${kernels})`, () => {
      for (const maxEntities of [1, 1_000, 10_000]) {
        const options = { maxEntities, maxJoints: 64, kernels };
        expect(worldBytes(options) - worldBytes({ ...options, modelPose: false })).toBe((maxEntities + 1) * 64 * 12 * 4);
      }
      const world = createAnimationWorld({ maxEntities: 1_000, maxJoints: 64, kernels, modelPose: false });
      expect(world.poolBuffer.byteLength / 1_000).toBeLessThan(9 * 1024);
    });
  }

  it('refuse a modelPose that is not a boolean, naming the option', () => {
    expect(() => createAnimationWorld({ maxEntities: 4, maxJoints: 8, modelPose: 'no' as unknown as boolean })).toThrow(/modelPose/);
    expect(() => worldBytes({ maxEntities: 4, maxJoints: 8, modelPose: 0 as unknown as boolean })).toThrow(AnimationError);
  });
});
