/**
 * Difference clips (GEA additive workflow, seeds/blending-and-skinning.txt): D = S·R⁻¹ per
 * joint per frame, played additively as D·T, partially as lerp(T, D·T, β). Checked on
 * RobotExpressive.glb (assets/): D and T are computed here from poses sampled off the
 * clips, with this file's own quaternion math, and compared with what the runtime poses.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createBlendSpace,
  createClip,
  createDifferenceClip,
  createSkeleton,
  getLocalPose,
  loadGltf,
  play,
  spawnCharacter,
  step,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { POSE_STRIDE, sampleClipInto } from '../../src/kernels.js';
import { reduceClip } from '../../src/lod.js';
import { refused } from '../fixtures/errors.js';
import { ASSETS_URL } from '../support/assets.js';

const ASSETS = ASSETS_URL;
const TOLERANCE = 1e-5;

let skeleton: Skeleton;
const clips = new Map<string, Clip>();
const clip = (name: string): Clip => clips.get(name)!;

beforeAll(async () => {
  const result = await loadGltf(new Uint8Array(readFileSync(new URL('RobotExpressive.glb', ASSETS))));
  skeleton = result.skeletons[0]!;
  for (const c of result.clips) clips.set(c.name, c);
});

// ---- this file's own SQT math (doubles) ----------------------------------------------------

interface Joint { t: number[]; q: number[]; s: number[] }

function joint(pose: ArrayLike<number>, j: number): Joint {
  const o = j * POSE_STRIDE;
  return { t: [pose[o]!, pose[o + 1]!, pose[o + 2]!], q: [pose[o + 3]!, pose[o + 4]!, pose[o + 5]!, pose[o + 6]!], s: [pose[o + 7]!, pose[o + 8]!, pose[o + 9]!] };
}

/** Hamilton product a·b (b first, then a), quaternions as [x, y, z, w]. */
function qmul(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a as [number, number, number, number];
  const [bx, by, bz, bw] = b as [number, number, number, number];
  return [
    aw * bx + bw * ax + (ay * bz - az * by),
    aw * by + bw * ay + (az * bx - ax * bz),
    aw * bz + bw * az + (ax * by - ay * bx),
    aw * bw - (ax * bx + ay * by + az * bz),
  ];
}
const qinv = (q: number[]): number[] => [-q[0]!, -q[1]!, -q[2]!, q[3]!]; // unit: the conjugate
const dot = (a: number[], b: number[]): number => a.reduce((sum, v, i) => sum + v * b[i]!, 0);
const normalize = (q: number[]): number[] => q.map((v) => v / Math.sqrt(dot(q, q)));

/** GEA: D = S·R⁻¹ (T subtracts, Q multiplies by the inverse, S divides). */
function difference(s: Joint, r: Joint): Joint {
  return { t: s.t.map((v, i) => v - r.t[i]!), q: qmul(s.q, qinv(r.q)), s: s.s.map((v, i) => v / r.s[i]!) };
}
/** GEA: A = D·T. */
function applyDifference(d: Joint, t: Joint): Joint {
  return { t: d.t.map((v, i) => v + t.t[i]!), q: qmul(d.q, t.q), s: d.s.map((v, i) => v * t.s[i]!) };
}
/** The blend system's lerp: T and S linear, Q nlerp with b brought to a's hemisphere. */
function lerp(a: Joint, b: Joint, beta: number): Joint {
  const bq = dot(a.q, b.q) < 0 ? b.q.map((v) => -v) : b.q;
  return {
    t: a.t.map((v, i) => v + (b.t[i]! - v) * beta),
    q: normalize(a.q.map((v, i) => v * (1 - beta) + bq[i]! * beta)),
    s: a.s.map((v, i) => v + (b.s[i]! - v) * beta),
  };
}

function sample(c: Clip, time: number): Float32Array {
  const out = new Float32Array(c.skeleton.jointCount * POSE_STRIDE);
  sampleClipInto(out, 0, c, Float64Array.of(time), 0);
  return out;
}

/** Largest deviation of `actual` from `expected` over every channel, quaternions up to sign. */
function deviation(actual: Joint, expected: Joint): number {
  const sign = dot(actual.q, expected.q) < 0 ? -1 : 1;
  let worst = 0;
  for (let i = 0; i < 3; i++) worst = Math.max(worst, Math.abs(actual.t[i]! - expected.t[i]!), Math.abs(actual.s[i]! - expected.s[i]!));
  for (let i = 0; i < 4; i++) worst = Math.max(worst, Math.abs(sign * actual.q[i]! - expected.q[i]!));
  return worst;
}

function expectPose(actual: ArrayLike<number>, expected: (j: number) => Joint, jointCount: number, tolerance: number): number {
  let worst = 0;
  for (let j = 0; j < jointCount; j++) {
    const e = expected(j);
    const d = deviation(joint(actual, j), e);
    if (!(d <= tolerance)) throw new Error(`joint ${j} (${skeleton.names[j]}) is off by ${d}`);
    worst = Math.max(worst, d);
  }
  return worst;
}

/** A robot posed by `target` at `targetTime` (frozen) with `diff` on layer 1 at `diffTime`. */
function posed(target: Clip, targetTime: number, diff: Clip, diffTime: number, beta = 1, on: Skeleton = skeleton, translation?: 'animation'): Float32Array {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: on.jointCount });
  const eid = spawnCharacter(world, on);
  const modes = translation === undefined ? {} : { translation };
  play(world, eid, target, { time: targetTime, speed: 0, ...modes });
  play(world, eid, diff, { layer: 1, additive: true, weight: beta, time: diffTime, speed: 0, ...modes });
  step(world, 0);
  return getLocalPose(world, eid).slice();
}

// ---------------------------------------------------------------------------------------------

describe('createDifferenceClip: the clip D = S·R⁻¹', () => {
  it('keeps the source timing and events, says it is a difference, and is frozen', () => {
    const running = clip('Running');
    const d = createDifferenceClip(running, clip('Walking'));
    expect(d.difference).toBe(true);
    expect(Object.isFrozen(d)).toBe(true);
    expect([d.frameRate, d.frameCount, d.duration, d.loop]).toEqual([running.frameRate, running.frameCount, running.duration, running.loop]);
    expect(d.skeleton).toBe(running.skeleton);
    expect(d.name).toBe('Running − Walking');
    expect(createDifferenceClip(running, clip('Walking'), { name: 'fast' }).name).toBe('fast');
    expect(running.difference).toBeUndefined();
  });

  it('frame f is S_f · R(phase of f)⁻¹, the reference time-normalized to the source', () => {
    // Wave (1.83 s) minus Idle (3.33 s): frame f of Wave meets Idle at f/D_wave × D_idle.
    const wave = clip('Wave'), idle = clip('Idle');
    const d = createDifferenceClip(wave, idle);
    const poseSize = skeleton.jointCount * POSE_STRIDE;
    for (const f of [0, 1, 17, 30, wave.frameCount - 1]) {
      const s = wave.frames.subarray(f * poseSize, (f + 1) * poseSize);
      const r = sample(idle, (f / wave.frameRate / wave.duration) * idle.duration);
      expectPose(d.frames.subarray(f * poseSize), (j) => difference(joint(s, j), joint(r, j)), skeleton.jointCount, 1e-6);
    }
  });
});

describe('a difference clip played additively', () => {
  it('Running − Walking on Idle equals D·T per joint within 1e-5 at several times', () => {
    const running = clip('Running'), walking = clip('Walking'), idle = clip('Idle');
    const d = createDifferenceClip(running, walking);
    let worst = 0;
    // Frame times of the source (where D is exactly S·R⁻¹) against assorted Idle times.
    for (const [f, idleTime] of [[0, 0.4], [5, 1.7], [13, 0.05], [22, 3.1], [28, 2.2]] as const) {
      const t = f / running.frameRate;
      const s = sample(running, t), r = sample(walking, (t / running.duration) * walking.duration), base = sample(idle, idleTime);
      const pose = posed(idle, idleTime, d, t);
      worst = Math.max(worst, expectPose(pose, (j) => applyDifference(difference(joint(s, j), joint(r, j)), joint(base, j)), skeleton.jointCount, TOLERANCE));
    }
    expect(worst).toBeLessThan(TOLERANCE);
  });

  it('between frames D is interpolated like any clip (lerp T and S, nlerp Q of D_f and D_f+1)', () => {
    const running = clip('Running'), walking = clip('Walking'), idle = clip('Idle');
    const d = createDifferenceClip(running, walking);
    for (const [f, alpha, idleTime] of [[3, 0.5, 0.9], [19, 0.25, 2.6]] as const) {
      const t0 = f / running.frameRate, t1 = (f + 1) / running.frameRate;
      const d0 = (j: number) => difference(joint(sample(running, t0), j), joint(sample(walking, t0), j));
      const d1 = (j: number) => difference(joint(sample(running, t1), j), joint(sample(walking, t1), j));
      const base = sample(idle, idleTime);
      const pose = posed(idle, idleTime, d, (f + alpha) / running.frameRate);
      expectPose(pose, (j) => applyDifference(lerp(d0(j), d1(j), alpha), joint(base, j)), skeleton.jointCount, TOLERANCE);
    }
  });

  it('GEA partial add: weight β gives lerp(T, D·T, β)', () => {
    const wave = clip('Wave'), idle = clip('Idle'), walking = clip('Walking');
    const d = createDifferenceClip(wave, idle);
    for (const [beta, f, walkTime] of [[0.4, 20, 0.3], [0.75, 41, 0.8], [0.1, 7, 0]] as const) {
      const t = f / wave.frameRate;
      const s = sample(wave, t), r = sample(idle, (t / wave.duration) * idle.duration), base = sample(walking, walkTime);
      const pose = posed(walking, walkTime, d, t, beta);
      expectPose(pose, (j) => {
        const target = joint(base, j);
        return lerp(target, applyDifference(difference(joint(s, j), joint(r, j)), target), beta);
      }, skeleton.jointCount, TOLERANCE);
    }
  });

  it('with referenceTime it equals play’s { additive, reference, referenceTime } path', () => {
    const running = clip('Running'), walking = clip('Walking'), idle = clip('Idle');
    // 1.3 s wraps into the looping Walking clip (0.958 s) the way play wraps referenceTime.
    for (const referenceTime of [0, 0.3, 1.3]) {
      const d = createDifferenceClip(running, walking, { referenceTime });
      for (const [time, beta] of [[0.2, 1], [0.61, 0.5]] as const) {
        const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
        const eid = spawnCharacter(world, skeleton);
        play(world, eid, idle, { time: 1.2, speed: 0 });
        play(world, eid, running, { layer: 1, additive: true, weight: beta, time, speed: 0, reference: walking, referenceTime });
        step(world, 0);
        const viaPlay = getLocalPose(world, eid).slice();
        const viaClip = posed(idle, 1.2, d, time, beta);
        // Same operators; D passes through float32 once more, hence not bit for bit.
        expectPose(viaClip, (j) => joint(viaPlay, j), skeleton.jointCount, 2e-6);
      }
    }
  });

  it('a joint the clip does not drive stays as the target has it (identity reference through the binding)', () => {
    // The character's skeleton: the robot's joints plus one more (bound by name).
    const names = [...skeleton.names, 'Antenna'];
    const parents = [...skeleton.parents, skeleton.names.indexOf('Head')];
    const rest = new Float32Array(names.length * POSE_STRIDE);
    rest.set(skeleton.rest);
    rest.set([0, 0.3, 0, 0.2, 0, 0, Math.sqrt(1 - 0.04), 1, 2, 1], skeleton.jointCount * POSE_STRIDE);
    const taller = createSkeleton({ names, parents, rest });
    const running = clip('Running'), walking = clip('Walking'), idle = clip('Idle');
    const d = createDifferenceClip(running, walking);
    const t = 9 / running.frameRate;
    // 'animation': every joint takes the clips' translations, as the hand computation below
    // does (by default a bound clip's non-hip joints take the character's rest translations —
    // docs/retargeting.md — and the identity reference gets the same, so D adds none there).
    const pose = posed(idle, 0.7, d, t, 1, taller, 'animation');
    const s = sample(running, t), r = sample(walking, t), base = sample(idle, 0.7);
    const expected = (j: number): Joint =>
      j < skeleton.jointCount ? applyDifference(difference(joint(s, j), joint(r, j)), joint(base, j)) : joint(rest, j);
    expectPose(pose, expected, names.length, TOLERANCE);
  });
});

describe('refusals', () => {
  it('play refuses a difference clip as an override layer, or with a reference, leaving the layer as it was', () => {
    const d = createDifferenceClip(clip('Running'), clip('Walking'));
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
    const eid = spawnCharacter(world, skeleton);
    play(world, eid, clip('Idle'), { time: 0.5 });
    const layers = world.components.Layers;
    const before = [layers.clip.slice(), layers.flags.slice(), layers.reference.slice(), layers.time.slice()];
    expect(refused(() => play(world, eid, d)).message).toMatch(
      /^play: additive must be true to play "Running − Walking": a difference clip holds differences D = S·R⁻¹, not poses, so it plays only as an additive layer$/,
    );
    expect(refused(() => play(world, eid, d, { layer: 1, additive: true, reference: clip('Walking') })).message).toMatch(
      /reference must be left out for the difference clip "Running − Walking"/,
    );
    expect(refused(() => play(world, eid, d, { layer: 1, additive: true, referenceTime: 0 })).message).toMatch(/reference must be left out/);
    expect([layers.clip, layers.flags, layers.reference, layers.time]).toEqual(before);
  });

  it('createDifferenceClip names the clip and the fault', () => {
    const running = clip('Running'), walking = clip('Walking');
    const d = createDifferenceClip(running, walking);
    expect(refused(() => createDifferenceClip({} as Clip, walking)).message).toBe('createDifferenceClip: source must be a Clip from createClip or an importer');
    expect(refused(() => createDifferenceClip(running, null as unknown as Clip)).message).toBe('createDifferenceClip: reference must be a Clip from createClip or an importer');
    expect(refused(() => createDifferenceClip(d, walking)).message).toBe(
      'createDifferenceClip: source "Running − Walking" is a difference clip already: a difference is taken between two pose clips',
    );
    expect(refused(() => createDifferenceClip(running, d)).message).toMatch(/reference "Running − Walking" is a difference clip already/);
    expect(refused(() => createDifferenceClip(running, walking, { referenceTime: Number.NaN })).message).toMatch(/referenceTime is NaN: must be a finite number of seconds/);
    expect(refused(() => createDifferenceClip(running, walking, null as never)).message).toMatch(/options must be an object/);

    // A reference on a skeleton with only the robot's first 3 joints lacks the other 40.
    const few = createSkeleton({ names: skeleton.names.slice(0, 3), parents: skeleton.parents.slice(0, 3), rest: skeleton.rest.slice(0, 3 * POSE_STRIDE) });
    const partial = createClip({ skeleton: few, frameRate: 1, frames: few.rest, name: 'partial' });
    const error = refused(() => createDifferenceClip(running, partial));
    expect(error.message).toBe(
      'createDifferenceClip: reference.skeleton of "partial" lacks 40 of the 43 joints of the skeleton of "Running" ' +
        `("${skeleton.names[3]}", "${skeleton.names[4]}", "${skeleton.names[5]}", "${skeleton.names[6]}", "${skeleton.names[7]}" and 35 more): ` +
        'a difference needs the reference pose of every joint of the source',
    );
  });

  it('a reference on another skeleton with every joint of the source binds by name', () => {
    // The robot's joints plus one: same joints, so D is the same as against Walking itself.
    const names = [...skeleton.names, 'Extra'];
    const rest = new Float32Array(names.length * POSE_STRIDE);
    rest.set(skeleton.rest);
    rest.set([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], skeleton.jointCount * POSE_STRIDE);
    const wider = createSkeleton({ names, parents: [...skeleton.parents, 0], rest });
    const walking = clip('Walking');
    const poseSize = skeleton.jointCount * POSE_STRIDE, widerSize = wider.jointCount * POSE_STRIDE;
    const frames = new Float32Array(walking.frameCount * widerSize);
    for (let f = 0; f < walking.frameCount; f++) {
      frames.set(walking.frames.subarray(f * poseSize, (f + 1) * poseSize), f * widerSize);
      frames.set([0.5, 0, 0, 0, 0.6, 0, 0.8, 3, 3, 3], f * widerSize + poseSize);
    }
    const walkingWider = createClip({ skeleton: wider, frameRate: walking.frameRate, frames, loop: true, name: 'Walking+' });
    const a = createDifferenceClip(clip('Running'), walking);
    const b = createDifferenceClip(clip('Running'), walkingWider);
    expect(b.skeleton).toBe(skeleton);
    // createClip re-normalizes the copied quaternions, so the two agree to float32 rounding.
    for (let f = 0; f < a.frameCount; f++) {
      expectPose(b.frames.subarray(f * poseSize), (j) => joint(a.frames.subarray(f * poseSize), j), skeleton.jointCount, 1e-6);
    }
  });
});

describe('a difference clip through the other ways a clip plays', () => {
  it('a blend space refuses it (a blend plays its clips as poses, not as additive layers)', () => {
    const d = createDifferenceClip(clip('Running'), clip('Walking'));
    const error = refused(() => createBlendSpace({ type: '1d', samples: [{ clip: clip('Walking'), x: 0 }, { clip: d, x: 1 }] }));
    expect(error.message).toMatch(/^createBlendSpace: samples\[1\]\.clip "Running − Walking" is a difference clip/);
  });

  it('reduced (reduceClip), it is still a difference clip: played additively it adds D, not D·D⁻¹', () => {
    const running = clip('Running'), walking = clip('Walking'), idle = clip('Idle');
    const d = createDifferenceClip(running, walking);
    const reduced = reduceClip(d, { tolerance: 1e-4 });
    expect(reduced.difference).toBe(true);
    const [world, eid] = robotWorld();
    expect(refused(() => play(world, eid, reduced)).message).toMatch(/additive must be true/);
    const t = 9 / running.frameRate;
    const pose = posed(idle, 0.7, reduced, t);
    const dr = sample(reduced, t), base = sample(idle, 0.7);
    // Against the identity: A = D_reduced·T, joint by joint.
    expectPose(pose, (j) => applyDifference(joint(dr, j), joint(base, j)), skeleton.jointCount, TOLERANCE);
  });

  it('on another skeleton, a difference clip made on a skeleton without rest hip height adds its hip difference at the skeletons’ ratio, not over the tiny mean of D', () => {
    // Source skeleton as BVH gives it: hips at the origin at rest (hipHeight 0); the clips
    // stand the hips at 1 m (S) and 0.98 m (R), so D's hip y is 0.02 m and its mean is 0.02.
    const names = ['Hips', 'LeftUpLeg', 'LeftLeg', 'RightUpLeg', 'RightLeg'];
    const parents = [-1, 0, 1, 0, 3];
    const rest = (hipY: number): Float32Array => Float32Array.from([
      0, hipY, 0, 0, 0, 0, 1, 1, 1, 1,
      0.1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1,
      -0.1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1,
    ]);
    const bvhLike = createSkeleton({ names, parents, rest: rest(0), hipJoint: 'Hips' });
    expect(bvhLike.hipHeight).toBe(0);
    const standing = (y: number): Clip => createClip({ skeleton: bvhLike, frameRate: 10, frames: [...rest(y), ...rest(y)], loop: true });
    const d = createDifferenceClip(standing(1), standing(0.98));
    // The character: the same joints, hips 1 m up at rest (its own hip height 1 m).
    const character = createSkeleton({ names, parents, rest: rest(1), hipJoint: 'Hips' });
    const still = createClip({ skeleton: character, frameRate: 10, frames: rest(1), loop: true });
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 5 });
    const eid = spawnCharacter(world, character);
    play(world, eid, still, { speed: 0 });
    play(world, eid, d, { layer: 1, additive: true, speed: 0 });
    step(world, 0);
    const hipY = getLocalPose(world, eid)[1]!;
    // The clip's own skeleton has no hip height to scale from: D's 2 cm is added as it is
    // (ratio 1), where the mean of D's hips (0.02 m) would make it 1 m / 0.02 m × 2 cm = 1 m.
    expect(hipY).toBeCloseTo(1.02, 5);
  });
});

function robotWorld(): [ReturnType<typeof createAnimationWorld>, number] {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
  return [world, spawnCharacter(world, skeleton)];
}
