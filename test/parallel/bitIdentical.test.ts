/**
 * Issue 17 acceptance: `stepParallel` at 1, 2, 3 and 4 threads gives the pools and events of
 * `step`, bit for bit. A mixed crowd of 1,000 characters on both shared glTF skeletons (Robot
 * and Fox): clips with events, 1-D blend spaces, transitions in all three modes, an additive
 * masked layer, root motion, followers, look-at and reach, distance LOD with update-rate
 * levels 1/2/4 and reduced clips per level, a few characters at 1,000× speed on a clip of 100 events (the event queue's
 * bounded work), spawns and removals between frames, and assets first used after the workers
 * started. Every 100 frames: SHA-256 of every pool of every component and of the events
 * drained since the last checkpoint (the queue of 1,024 records overflows in between).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  createClip,
  createMask,
  disposeAnimationWorld,
  drainEvents,
  loadGltf,
  play,
  registerLodLevels,
  removeCharacter,
  setBlendSpace,
  setFollower,
  setFollowTarget,
  setLod,
  setLodCamera,
  setLookAt,
  setReach,
  spawnCharacter,
  step,
  stepParallel,
  transition,
  type AnimationWorld,
  type BlendSpace,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { reduceClip } from '../../src/lod.js';
import { CHUNK_LOG_STRIDE } from '../../src/components/ThreadControl.js';
import { createRandom } from '../fixtures/synthetic.js';
import { ASSETS_URL } from '../support/assets.js';

const ASSETS = ASSETS_URL;
const COUNT = 1000;
const FRAMES = 1000;
const DT = 1 / 60;

interface Kind {
  readonly skeleton: Skeleton;
  readonly clips: Clip[];
  readonly space: BlendSpace;
  readonly wave: Clip;
  readonly upper: ReturnType<typeof createMask>;
  readonly head: string;
  readonly neck: string;
  readonly arm: readonly [string, string, string];
  readonly lod: readonly Clip[][];
}

let kinds: Kind[];
let late: Clip, burst: Clip;

const withEvents = (clip: Clip, times: number[]): Clip =>
  createClip({ ...clip, events: times.map((t, i) => ({ time: t * clip.duration, name: `${clip.name}${i}` })) } as Parameters<typeof createClip>[0]);

beforeAll(async () => {
  const robot = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS))));
  const fox = await loadGltf(new Uint8Array(readFileSync(new URL('Fox.glb', ASSETS))), { scale: 'cm' });
  const named = (clips: readonly Clip[], name: string): Clip => clips.find((c) => c.name === name)!;
  const make = (skeleton: Skeleton, walk: Clip, run: Clip, idle: Clip, wave: Clip, upper: string, head: string, neck: string, arm: [string, string, string]): Kind => {
    const w = withEvents(walk, [0.25, 0.75]), r = withEvents(run, [0.5]), i = withEvents(idle, [0.1]);
    const levels = (clip: Clip): Clip[] => [clip, reduceClip(clip, { tolerance: 0.005 }), reduceClip(clip, { tolerance: 0.02 })];
    return {
      skeleton,
      clips: [w, r, i],
      space: createBlendSpace({ type: '1d', samples: [{ clip: w, x: 0 }, { clip: r, x: 1, phaseOffset: 0.1 }] }),
      wave,
      upper: createMask(skeleton, { [upper]: 1 }),
      head,
      neck,
      arm,
      lod: [levels(w), levels(r)],
    };
  };
  kinds = [
    make(robot.skeletons[0]!, named(robot.clips, 'Walking'), named(robot.clips, 'Running'), named(robot.clips, 'Idle'), named(robot.clips, 'Wave'),
      'Torso', 'Head', 'Neck', ['UpperArm.R', 'LowerArm.R', 'Palm2.R']),
    make(fox.skeletons[0]!, named(fox.clips, 'Walk'), named(fox.clips, 'Run'), named(fox.clips, 'Survey'), named(fox.clips, 'Survey'),
      'b_Spine02_03', 'b_Head_05', 'b_Neck_04', ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08']),
  ];
  late = withEvents(named(robot.clips, 'Dance'), [0.3]);
  burst = withEvents(named(fox.clips, 'Walk'), Array.from({ length: 100 }, (_, i) => i / 100));
}, 120_000);

/** SHA-256 of every typed array of every component (the per-thread `Follower.scratch` aside), plus the clock and the dropped count. */
function poolHash(world: AnimationWorld): string {
  const hash = createHash('sha256');
  const components = world.components as unknown as Record<string, Record<string, unknown>>;
  for (const name of Object.keys(components).sort()) {
    for (const field of Object.keys(components[name]!).sort()) {
      const value = components[name]![field];
      if (name === 'Follower' && field === 'scratch') continue; // a per-thread temporary, not state
      if (ArrayBuffer.isView(value)) hash.update(`${name}.${field}`).update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    }
  }
  hash.update(`time ${world.time} dropped ${world.events.dropped}`);
  return hash.digest('hex');
}

interface Run {
  readonly checkpoints: string[];
  /** Chunks run by threads other than the caller, over the whole run. */
  readonly workerChunks: number;
  readonly events: number;
}

async function run(threads: number | null): Promise<Run> {
  const world = createAnimationWorld({ maxEntities: COUNT + 8, maxJoints: 43, maxEvents: 1024, threads: threads ?? 1, maxTransitions: COUNT + 8 }); // every character may be mid-transition at once
  const random = createRandom(17);
  const alive: number[] = [];
  let spawned = 0;
  const modes = ['inertialize', 'spring', 'crossfade'] as const;
  for (const kind of kinds) for (const levels of kind.lod) registerLodLevels(world, levels[0]!, levels);
  const spawn = (): void => {
    const n = spawned++;
    const kind = kinds[n % 2]!;
    const x = (n % 32) * 2, z = Math.floor(n / 32) * 2;
    const eid = spawnCharacter(world, kind.skeleton, { x, z, yaw: random() * 6, rootMotion: n % 3 !== 2, rootYaw: n % 6 === 0 });
    if (n % 5 === 4) setBlendSpace(world, eid, kind.space, random());
    else play(world, eid, kind.clips[n % 3]!, { time: random(), weight: 0.5 + random() * 0.5, speed: 1 });
    if (n % 97 === 0 && n % 2 === 1) play(world, eid, burst, { layer: 3, weight: 0.1, speed: 1000, additive: true }); // > 1,024 records a frame: some counted, not visited
    if (n % 4 === 1) play(world, eid, kind.wave, { layer: 2, weight: random(), mask: kind.upper, additive: true });
    if (n % 3 === 0) setFollower(world, eid, { x: x + 1, y: 1.5, z: z + 1 });
    if (n % 6 === 0) setLookAt(world, eid, { joint: kind.head, neck: kind.neck, yawLimit: 1.4 });
    if (n % 9 === 0) setReach(world, eid, { upper: kind.arm[0], lower: kind.arm[1], end: kind.arm[2] });
    if (n % 2 === 0) setLod(world, eid, { levels: 3, distances: [15, 35], updateEvery: [1, 2, 4] });
    alive.push(eid);
  };
  for (let n = 0; n < COUNT; n++) spawn();
  setLodCamera(world, 30, 1.5, 30);

  const checkpoints: string[] = [];
  let workerChunks = 0, events = 0;
  let drained = createHash('sha256');
  for (let f = 1; f <= FRAMES; f++) {
    if (f % 25 === 0) {
      for (let k = f % 3; k < alive.length; k += 3) {
        const eid = alive[k]!;
        if (k % 5 === 4) continue;
        const kind = kinds[world.components.Character.jointCount[eid] === 43 ? 0 : 1]!;
        const clip = f >= 500 && k % 7 === 0 && kind === kinds[0] ? late : kind.clips[(k + f) % 3]!; // first used after the workers started
        transition(world, eid, clip, { duration: 0.1 + 0.3 * random(), mode: modes[(k + f / 25) % 3]! });
      }
    }
    if (f % 40 === 0) {
      const p = [random() * 64, 0.5 + random(), random() * 64] as const;
      for (let k = 0; k < alive.length; k += 3) setFollowTarget(world, alive[k]!, p[0], p[1], p[2]);
    }
    if (f % 10 === 0) setLodCamera(world, random() * 64, 1.5, random() * 64);
    if (f % 60 === 0) {
      for (let r = 0; r < 6; r++) removeCharacter(world, alive.splice(Math.floor(random() * alive.length), 1)[0]!);
      for (let r = 0; r < 6; r++) spawn();
    }
    if (threads === null) step(world, DT);
    else await stepParallel(world, DT);
    if (world.parallel !== null) {
      const chunks = Math.ceil(world.characters.dense.length / 128);
      for (let c = 0; c < chunks; c++) if (world.parallel.chunkLog[c * CHUNK_LOG_STRIDE] !== 0) workerChunks++;
    }
    if (f % 100 === 0) {
      for (const e of drainEvents(world)) events++, drained.update(`${e.eid} ${e.clip.name} ${e.name} ${e.time};`);
      checkpoints.push(`${poolHash(world)} events ${drained.digest('hex')}`);
      drained = createHash('sha256');
    }
  }
  disposeAnimationWorld(world);
  return { checkpoints, workerChunks, events };
}

describe('stepParallel equals step bit for bit', () => {
  let reference: Run;
  beforeAll(async () => {
    reference = await run(null);
  }, 300_000);

  it('the reference run fires events and drops some (the queue overflows between drains)', () => {
    expect(reference.checkpoints).toHaveLength(FRAMES / 100);
    expect(reference.events).toBeGreaterThan(10_000);
  });

  for (const threads of [1, 2, 3, 4]) {
    it(`threads: ${threads}`, async () => {
      const result = await run(threads);
      for (let c = 0; c < reference.checkpoints.length; c++) {
        expect(result.checkpoints[c], `frame ${(c + 1) * 100}`).toBe(reference.checkpoints[c]);
      }
      // The comparison means something only if the workers did part of the frames.
      if (threads > 1) expect(result.workerChunks).toBeGreaterThan(100);
      else expect(result.workerChunks).toBe(0);
    }, 300_000);
  }
});
