/**
 * The guides' examples (docs/*.md), run: each examples/*.ts file a guide shows (checked verbatim
 * by test/docs/examples.test.ts) does what its guide says, on the real assets or on data small
 * enough to compute by hand.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createAnimationWorld,
  createClip,
  createSkeleton,
  disposeAnimationWorld,
  getFollowPosition,
  getLod,
  getRootTransform,
  loadGltf,
  play,
  setBlendSpace,
  spawnCharacter,
  step,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { MATRIX_STRIDE, MATRIX_T, DEFAULT_MAX_LAYERS, POSE_Q, POSE_STRIDE, POSE_T } from '../../src/kernels.js';
import { walkRunSpace } from '../../examples/blendSpacePhase.js';
import { halfTiredWalk } from '../../examples/differenceClips.js';
import { whoIsWatching } from '../../examples/ecsComponents.js';
import { catchBall, watchAndReach, type Ball } from '../../examples/followers.js';
import { clipRates } from '../../examples/gltfUnits.js';
import { foxTexture, importFoxAndWalk } from '../../examples/importingFiles.js';
import { walkingFox } from '../../examples/inPlaceClips.js';
import { loadThreeWays } from '../../examples/loadingGltfFiles.js';
import { walkWithLod } from '../../examples/motionLod.js';
import { playRetargeted } from '../../examples/retargeting.js';
import { oneFrameOnEveryCore, runOnEveryCore } from '../../examples/threads.js';
import { startFrameLoop } from '../../examples/threadsBrowser.js';
import threadsViteConfig from '../../examples/threadsViteConfig.js';
import { autoKernels } from '../../examples/wasmKernels.js';
import { readAsset, REPO_ROOT } from '../support/assets.js';
import { syntheticClip, syntheticSkeleton } from '../fixtures/synthetic.js';

const fox = readAsset('Fox.glb');
const robot = readAsset('RobotExpressive.glb');

/** One joint pose: translation, rotation (x y z w), unit scale. */
const joint = (t: number[], q = [0, 0, 0, 1]): number[] => [...t, ...q, 1, 1, 1];
/** A rotation of `angle` about X, Z. */
const rotX = (angle: number): number[] => [Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)];
const rotZ = (angle: number): number[] => [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
/** A 2 s clip of three frames, every frame the same pose. */
const still = (skeleton: Skeleton, pose: number[]): Clip => createClip({ skeleton, frameRate: 1, frames: [...pose, ...pose, ...pose] });

describe('examples/differenceClips.ts (docs/difference-clips.md)', () => {
  it('half the tiredness a run gets from a 0.6 rad spine bend bends the walking spine by 0.3 rad; the lean is the leaning idle', () => {
    const skeleton = createSkeleton({ names: ['hips', 'spine'], parents: [-1, 0], rest: [...joint([0, 1, 0]), ...joint([0, 0.5, 0])] });
    const upright = [...joint([0, 1, 0]), ...joint([0, 0.5, 0])];
    const bent = [...joint([0, 1, 0]), ...joint([0, 0.5, 0], rotX(0.6))];
    const leaning = [...joint([0, 1, 0]), ...joint([0, 0.5, 0], rotZ(0.2))];
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2, kernels: 'js' });
    const eid = spawnCharacter(world, skeleton);
    const { lean } = halfTiredWalk(world, eid, {
      walk: still(skeleton, upright), run: still(skeleton, upright), tiredRun: still(skeleton, bent),
      idle: still(skeleton, upright), leanIdle: still(skeleton, leaning),
    });
    step(world, 0.5);
    // lerp(T, D·T, ½) with T the identity and D 0.6 rad about X: 0.3 rad about X.
    const spine = (eid * world.maxJoints + 1) * POSE_STRIDE + POSE_Q;
    rotX(0.3).forEach((v, i) => expect(world.components.LocalPose.data[spine + i]).toBeCloseTo(v, 6));
    // The lean against the upright idle is the lean itself: 0.2 rad about Z, at every frame.
    for (let f = 0; f < lean.frameCount; f++) rotZ(0.2).forEach((v, i) => expect(lean.frames[(f * 2 + 1) * POSE_STRIDE + POSE_Q + i]).toBeCloseTo(v, 6));
  });
});

describe('examples/ecsComponents.ts (docs/ecs-components.md)', () => {
  it('the enemy query finds the watcher only, hasComponent sees the friend\'s LOD, the observer sees the idler\'s first follower', () => {
    const { watcher, idler, watching, followed, lodded } = whoIsWatching();
    expect(watching).toEqual([watcher]);
    expect(lodded).toBe(true);
    expect(followed).toEqual([idler]);
  });
});

describe('examples/followers.ts (docs/followers.md)', () => {
  async function robotWorld(): Promise<{ world: AnimationWorld; eid: number; skeleton: Skeleton }> {
    const { skeletons, clips } = await loadGltf(robot);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeletons[0]!.jointCount });
    const eid = spawnCharacter(world, skeletons[0]!);
    play(world, eid, clips.find((clip) => clip.name === 'Idle')!);
    return { world, eid, skeleton: skeletons[0]! };
  }
  /** The model-space position of joint `name` (the robot stands at the origin facing +Z: model space is world space). */
  const jointAt = (world: AnimationWorld, eid: number, skeleton: Skeleton, name: string): number[] => {
    const o = (eid * world.maxJoints + skeleton.names.indexOf(name)) * MATRIX_STRIDE + MATRIX_T;
    return Array.from(world.components.ModelPose.data.subarray(o, o + 3));
  };

  it('the follower reaches a still ball; the reaching hand ends nearer it than the idle hand, and the head turns', async () => {
    const ball: Ball = { x: -1.2, y: 2.4, z: 1.6, vx: 0, vy: 0, vz: 0 };
    const aimed = await robotWorld(), idle = await robotWorld();
    watchAndReach(aimed.world, aimed.eid, ball, 1 / 60);
    step(idle.world, 1 / 60);
    for (let f = 1; f < 90; f++) for (const w of [aimed, idle]) step(w.world, 1 / 60);
    const p = getFollowPosition(aimed.world, aimed.eid);
    expect(Math.hypot(p.x - ball.x, p.y - ball.y, p.z - ball.z)).toBeLessThan(0.01);
    const distance = (w: typeof aimed): number => { const h = jointAt(w.world, w.eid, w.skeleton, 'Palm2.R'); return Math.hypot(h[0]! - ball.x, h[1]! - ball.y, h[2]! - ball.z); };
    expect(distance(aimed)).toBeLessThan(distance(idle) - 0.2);
    const head = (w: typeof aimed): number => (w.eid * w.world.maxJoints + w.skeleton.names.indexOf('Head')) * POSE_STRIDE + POSE_Q;
    const dot = [0, 1, 2, 3].reduce((s, i) => s + aimed.world.components.LocalPose.data[head(aimed) + i]! * idle.world.components.LocalPose.data[head(idle) + i]!, 0);
    expect(2 * Math.acos(Math.min(1, Math.abs(dot)))).toBeGreaterThan(0.1); // > 5.7° from the idle head
  });

  it('predicting, the follower is nearer a thrown ball after 0.8 s than without prediction', async () => {
    const gaps: number[] = [];
    for (const predict of [true, false]) {
      const { world, eid } = await robotWorld();
      const ball: Ball = { x: -2, y: 1, z: 2, vx: 2.5, vy: 4, vz: 0 };
      const frame = catchBall(world, eid, ball);
      if (!predict) world.components.Follower.predict.fill(0);
      for (let f = 0; f < 48; f++) frame(1 / 60);
      const p = getFollowPosition(world, eid);
      gaps.push(Math.hypot(p.x - ball.x, p.y - ball.y, p.z - ball.z));
    }
    expect(gaps[0]).toBeLessThan(gaps[1]! / 2);
  });
});

describe('examples/importingFiles.ts, gltfUnits.ts, loadingGltfFiles.ts (docs/importing.md)', () => {
  it('reads the Fox and the CMU walk from assets/ (run from the repository root)', async () => {
    expect(process.cwd()).toBe(REPO_ROOT);
    const { skeletons, clips, meshes, skeleton, clip } = await importFoxAndWalk();
    expect([skeletons.length, skeletons[0]!.jointCount, clips.map((c) => c.name), meshes.length]).toEqual([1, 24, ['Survey', 'Walk', 'Run'], 1]);
    expect(skeleton.names[0]).toBe('Hips');
    expect(clip.frameRate).toBeCloseTo(120, 2); // the file's frame time, 0.008333 s
  });

  it('the Fox\'s UVs, white factor and PNG texture (Materials and UVs)', async () => {
    const { uvs, colour, texture, blob } = await foxTexture();
    expect(uvs!.length).toBe(1728 * 2);
    expect(colour).toEqual([1, 1, 1, 1]);
    expect([texture!.mimeType, texture!.sampler.wrapS, blob!.type, blob!.size]).toEqual(['image/png', 10497, 'image/png', texture!.image.length]);
  });

  it('each Fox clip at its keys\' rate, with the import errors the comment shows', async () => {
    const rates = await clipRates(fox);
    expect(rates.map(([name, rate]) => [name, rate])).toEqual([['Survey', 24], ['Walk', 48], ['Run', 120]]);
    [1.2e-7, 7.6e-5, 3.1e-6].forEach((e, i) => expect(Number((rates[i]![2] as number).toPrecision(2))).toBe(e));
  });

  describe('a .glb in memory, a .gltf + .bin on disk, the same over HTTP', () => {
    const models = mkdtempSync(join(tmpdir(), 'bitanim-models-'));
    let server: Server | undefined;
    afterAll(() => {
      server?.close();
      vi.unstubAllGlobals();
      rmSync(models, { recursive: true, force: true });
    });

    it('load the same Fox three ways', async () => {
      mkdirSync(join(models, 'fox'));
      await new NodeIO().write(join(models, 'fox', 'Fox.gltf'), await new NodeIO().readBinary(fox));
      const asked: string[] = [];
      server = createServer((request, response) => {
        asked.push(request.url!);
        try {
          response.end(readFileSync(join(models, request.url!.replace(/^\/models\//, ''))));
        } catch {
          response.statusCode = 404;
          response.end();
        }
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      vi.stubGlobal('location', { href: `http://127.0.0.1:${port}/game/` }); // the page
      const { a, b, c } = await loadThreeWays(fox, models);
      expect(asked).toEqual(['/models/fox/Fox.gltf', '/models/fox/Fox.bin', '/models/fox/baseColor.png']);
      for (const other of [b, c]) {
        expect(other.skeletons[0]!.rest).toEqual(a.skeletons[0]!.rest);
        expect(other.clips.map((clip) => clip.frames)).toEqual(a.clips.map((clip) => clip.frames));
        expect(other.meshes[0]!.positions).toEqual(a.meshes[0]!.positions);
        expect(other.meshes[0]!.material).toEqual(a.meshes[0]!.material); // the texture read beside the .gltf
      }
    });
  });
});

describe('examples/inPlaceClips.ts (docs/in-place-clips.md)', () => {
  it('the in-place Walk, given its paws\' travel, carries the fox 1.2 m/s toward +X', async () => {
    const { world, fox: eid, walk } = await walkingFox(fox);
    // Eight whole cycles, 32 frames each: the sway within a cycle cancels.
    const dt = walk.duration / 32, seconds = 8 * walk.duration;
    for (let f = 0; f < 8 * 32; f++) step(world, dt);
    const { x, z, yaw } = getRootTransform(world, eid);
    expect(yaw).toBeCloseTo(Math.PI / 2, 9);
    expect(Math.abs(x - 1.2 * seconds)).toBeLessThan(0.02 * 1.2 * seconds); // measured 1.3 % short (6.711 m of 6.8)
    expect(Math.abs(z)).toBeLessThan(0.01 * x);
  });
});

describe('examples/motionLod.ts (docs/motion-lod.md)', () => {
  it('the 5 mm reduction keeps fewer keys within 5 mm; a camera 30 m away puts the fox at level 1, animated every 2nd frame', async () => {
    const { skeletons, clips } = await loadGltf(fox, { scale: 'cm' });
    const walk = clips.find((clip) => clip.name === 'Walk')!;
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 24 });
    const eid = spawnCharacter(world, skeletons[0]!);
    play(world, eid, walk);
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const walk5mm = walkWithLod(world, eid, walk, { x: 0, y: 1.6, z: 30 });
    vi.restoreAllMocks();
    expect(walk5mm.stats!.keysAfter).toBeLessThan(walk5mm.stats!.keysBefore / 2);
    expect(walk5mm.stats!.maxError).toBeLessThanOrEqual(0.005);
    const updated: boolean[] = [];
    for (let f = 0; f < 6; f++) {
      step(world, 1 / 60);
      updated.push(getLod(world, eid).updated);
    }
    expect(getLod(world, eid).level).toBe(1);
    expect(updated.filter(Boolean)).toHaveLength(3);
  });
});

describe('examples/retargeting.ts (docs/retargeting.md)', () => {
  it('on a half-size character: hips scaled by ½, feet at the character\'s bone lengths; \'animation\' keeps the clip\'s; the map only the feet', () => {
    const names = ['Hips', 'Foot.L', 'Foot.R'], parents = [-1, 0, 0];
    const big = createSkeleton({ names, parents, hipJoint: 'Hips', rest: [...joint([0, 1, 0]), ...joint([0.1, -1, 0]), ...joint([-0.1, -1, 0])] });
    const small = createSkeleton({ names, parents, hipJoint: 'Hips', rest: [...joint([0, 0.5, 0]), ...joint([0.05, -0.5, 0]), ...joint([-0.05, -0.5, 0])] });
    // The clip's hips sway 0.2 m in x; its feet step 0.3 m forward.
    const pose = [...joint([0.2, 1, 0]), ...joint([0.1, -1, 0.3]), ...joint([-0.1, -1, -0.3])];
    const walk = still(big, pose);
    const world = createAnimationWorld({ maxEntities: 4, maxJoints: 3 });
    const eids = [0, 1, 2].map(() => spawnCharacter(world, small));
    const binding = playRetargeted(world, eids, walk, small);
    step(world, 0.25);
    const t = (eid: number, j: number): number[] => Array.from(world.components.LocalPose.data.subarray((eid * 3 + j) * POSE_STRIDE + POSE_T, (eid * 3 + j) * POSE_STRIDE + POSE_T + 3));
    const [a, b, c] = eids as [number, number, number];
    const close = (actual: number[], expected: number[]): void => expected.forEach((v, i) => expect(actual[i]).toBeCloseTo(v, 6));
    close(t(a, 0), [0.1, 0.5, 0]); close(t(a, 1), [0.05, -0.5, 0]); close(t(a, 2), [-0.05, -0.5, 0]);
    close(t(b, 0), [0.2, 1, 0]); close(t(b, 1), [0.1, -1, 0.3]); close(t(b, 2), [-0.1, -1, -0.3]);
    close(t(c, 0), [0.1, 0.5, 0]); close(t(c, 1), [0.1, -1, 0.3]); close(t(c, 2), [-0.1, -1, -0.3]);
    expect(Array.from(binding.translationScale)).toEqual([0.5, 0.5, 0.5]);
  });
});

describe('examples/blendSpacePhase.ts (docs/root-motion-and-blend-spaces.md)', () => {
  it('the run enters the blend half a cycle after the walk\'s phase', () => {
    const skeleton = syntheticSkeleton(4);
    const walk = syntheticClip(skeleton, { seed: 1, frameCount: 33 }), run = syntheticClip(skeleton, { seed: 2, frameCount: 25 });
    const space = walkRunSpace(walk, run);
    expect(Array.from(space.phaseOffsets)).toEqual([0, 0.5]);
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 4 });
    const eid = spawnCharacter(world, skeleton);
    setBlendSpace(world, eid, space, 0);
    for (let f = 0; f < 7; f++) step(world, 1 / 30);
    const times = (): Map<Clip, number> => {
      const map = new Map<Clip, number>();
      for (let layer = 0; layer < DEFAULT_MAX_LAYERS; layer++) {
        const li = eid * DEFAULT_MAX_LAYERS + layer, id = world.components.Layers.clip[li]!;
        if (id >= 0 && world.components.Layers.weight[li]! > 0) map.set(world.assets.clips[id]!, world.components.Layers.time[li]!);
      }
      return map;
    };
    const phase = times().get(walk)! / walk.duration;
    expect(phase).toBeGreaterThan(0.1);
    setBlendSpace(world, eid, space, 0.5);
    expect(times().get(run)).toBeCloseTo(((phase + 0.5) % 1) * run.duration, 9);
  });
});

describe('examples/threads.ts, threadsBrowser.ts, threadsViteConfig.ts (docs/threads.md, README)', () => {
  const skeleton = syntheticSkeleton(12);
  const clip = syntheticClip(skeleton, { seed: 5 });
  const populate = (world: AnimationWorld): void => {
    for (let n = 0; n < 300; n++) play(world, spawnCharacter(world, skeleton), clip, { time: n * 0.01, speed: 0.8 + n / 1000 });
  };

  it('stepParallel between frames gives step\'s palettes, bit for bit', async () => {
    const threaded = await runOnEveryCore(populate, 300, 20);
    const world = createAnimationWorld({ maxEntities: 300, maxJoints: 64 });
    populate(world);
    for (let f = 0; f < 20; f++) step(world, 1 / 60);
    expect(threaded.components.SkinPalette.data).toEqual(world.components.SkinPalette.data);
    expect(threaded.time).toBe(world.time);
  });

  it('the README\'s three lines step one frame', async () => {
    expect((await oneFrameOnEveryCore()).time).toBe(1 / 60);
  });

  it('in a page that is not cross-origin isolated: one thread, one frame per animation frame', async () => {
    const callbacks: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => callbacks.push(callback));
    try {
      const world = startFrameLoop();
      expect(world.threads).toBe(1);
      for (let f = 0; f < 3; f++) {
        callbacks.shift()!();
        await vi.waitFor(() => expect(callbacks).toHaveLength(1));
      }
      expect(world.time).toBeCloseTo(3 / 60, 12);
      disposeAnimationWorld(world);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('the vite config serves the headers the sandbox is served with (cross-origin isolated in Chromium: test:e2e)', async () => {
    const sandbox = (await import('../../sandbox/vite.config.js')).default as { server?: { headers?: object }; preview?: { headers?: object } };
    const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
    expect(threadsViteConfig.server?.headers).toEqual(isolation);
    expect(threadsViteConfig.preview?.headers).toEqual(isolation);
    expect(sandbox.server?.headers).toMatchObject(isolation);
    expect(threadsViteConfig.optimizeDeps?.exclude).toEqual(['bitanim']);
  });
});

describe('examples/wasmKernels.ts (docs/wasm.md)', () => {
  it('\'auto\' picks the WebAssembly kernels in Node (SIMD, built for the tests)', () => {
    const { world, kernels } = autoKernels();
    expect(kernels).toBe('wasm');
    expect(world.wasm).not.toBeNull();
  });
});
