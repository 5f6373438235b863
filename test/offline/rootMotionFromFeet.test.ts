import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createAnimationWorld,
  createClip,
  createDifferenceClip,
  createSkeleton,
  getModelMatrices,
  getRootTransform,
  loadGltf,
  play,
  rootMotionFromFeet,
  setTargetSpeed,
  spawnCharacter,
  step,
  type Clip,
  type Skeleton,
} from '../../src/index.js';
import { affine, getRootTrack } from '../../src/kernels.js';
import { reduceClip } from '../../src/lod.js';
import { refused } from '../fixtures/errors.js';
import { assetPath } from '../support/assets.js';

// ---- a synthetic biped whose planted foot slides back at a known speed ----------------------

/** hips (root, 1 m up) with two feet hanging straight below it, 0.1 m to each side. */
function biped(): Skeleton {
  return createSkeleton({
    names: ['hips', 'footL', 'footR'],
    parents: [-1, 0, 0],
    rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0.1, -1, 0, 0, 0, 0, 1, 1, 1, 1, -0.1, -1, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

const HALF = 15; // frames per stance; 30 distinct frames per 1 s cycle at 30 fps

/**
 * An in-place 1 s walk at 30 fps: each foot is on the ground (model y = 0) for half the cycle,
 * sliding from z = +a to z = −a along `stance(s)` (s = 0 … 1 over the stance, from +a at s = 0
 * to −a at s = 1), then lifted 0.3 m and carried forward; the right foot half a cycle later.
 * The hips stay put.
 */
function inPlaceWalk(a: number, stance: (s: number) => number = (s) => a - 2 * a * s, loop = true): Clip {
  const footAt = (f: number): [number, number] => {
    const g = ((f % (2 * HALF)) + 2 * HALF) % (2 * HALF);
    if (g <= HALF) return [0, stance(g / HALF)];
    return [0.3, -a + (2 * a * (g - HALF)) / HALF];
  };
  const frames: number[] = [];
  for (let f = 0; f <= 2 * HALF; f++) {
    const [yl, zl] = footAt(f), [yr, zr] = footAt(f + HALF);
    frames.push(0, 1, 0, 0, 0, 0, 1, 1, 1, 1);
    frames.push(0.1, yl - 1, zl, 0, 0, 0, 1, 1, 1, 1);
    frames.push(-0.1, yr - 1, zr, 0, 0, 0, 1, 1, 1, 1);
  }
  return createClip({ skeleton: biped(), frameRate: 30, frames, loop, name: 'walk' });
}

/** The hips' model z per frame: the travel the function wrote (the source's hips stay at 0). */
const hipZ = (clip: Clip): number[] => Array.from({ length: clip.frameCount }, (_, f) => getRootTrack(clip).positions[f * 3 + 2]!);

describe('rootMotionFromFeet on a synthetic biped', () => {
  it('a planted foot sliding back at 4a m/s gives the root 4a m/s, constant, and 4a per cycle', () => {
    const a = 0.3; // stance slides 2a = 0.6 m in 0.5 s: 1.2 m/s
    const clip = rootMotionFromFeet(inPlaceWalk(a), { feet: ['footL', 'footR'] });
    const z = hipZ(clip);
    for (let f = 0; f < z.length; f++) expect(z[f]).toBeCloseTo((4 * a * f) / 30, 5);
    const track = getRootTrack(clip);
    expect(track.cycle[2]).toBeCloseTo(4 * a, 5);
    expect(track.cycle[0]).toBeCloseTo(0, 6);
    expect(track.positions[(clip.frameCount - 1) * 3 + 1]).toBeCloseTo(1, 6); // no vertical travel
    // Everything but the hips' z is the source's.
    const source = inPlaceWalk(a);
    for (let o = 0; o < clip.frames.length; o++) if (o % 30 !== 2) expect(clip.frames[o]).toBe(source.frames[o]);
    expect(clip.name).toBe('walk');
    expect(clip.loop).toBe(true);
  });

  it('follows a planted foot whose slide speeds up, interval by interval (smoothing 0): the foot stands still', () => {
    const a = 0.25;
    const stance = (s: number): number => a - 2 * a * s * s; // accelerating back, −4a·s / 0.5 s
    const clip = rootMotionFromFeet(inPlaceWalk(a, stance), { feet: ['footL', 'footR'], smoothing: 0 });
    const z = hipZ(clip);
    // Left stance (frames 0 … 15): travel(f) = z_L(0) − z_L(f) = 2a·(f/15)²; the right foot's
    // stance (frames 15 … 30) adds the same again.
    for (let f = 0; f <= 2 * HALF; f++) {
      const s = f <= HALF ? f / HALF : (f - HALF) / HALF;
      const expected = (f <= HALF ? 0 : 2 * a) + 2 * a * s * s;
      expect(z[f]).toBeCloseTo(expected, 5);
    }
  });

  it('takes the mean of two feet planted at once, weighted by how planted each is', () => {
    // Both feet down for the whole cycle, the left sliding back at 1 m/s, the right at 0.5 m/s:
    // with a speed threshold that weighs them equally (huge), the body moves at 0.75 m/s.
    const frames: number[] = [];
    for (let f = 0; f <= 30; f++) {
      frames.push(0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0.1, -1, -f / 30, 0, 0, 0, 1, 1, 1, 1, -0.1, -1, -0.5 * f / 30, 0, 0, 0, 1, 1, 1, 1);
    }
    const clip = createClip({ skeleton: biped(), frameRate: 30, frames, loop: false });
    const result = rootMotionFromFeet(clip, { feet: [1, 2], speedThreshold: 1e9 });
    expect(getRootTrack(result).cycle[2]).toBeCloseTo(0.75, 5);
  });

  it('is loop-consistent: the track ends one cycle on, and its velocity runs on across the seam', () => {
    const a = 0.3;
    // Uneven stances (the left foot faster than the right), smoothed: the velocity varies.
    const source = inPlaceWalk(a, (s) => a - 2 * a * (s + 0.3 * Math.sin(Math.PI * s)));
    const clip = rootMotionFromFeet(source, { feet: ['footL', 'footR'] });
    const z = hipZ(clip);
    const v = z.slice(1).map((zf, i) => zf - z[i]!);
    // The end is the cycle's displacement: the sum of the per-interval travel.
    expect(z[z.length - 1]! - z[0]!).toBeCloseTo(v.reduce((s, x) => s + x, 0), 9);
    expect(z[0]).toBe(0);
    // The seam (last interval → first) is where the right stance hands over to the left: it
    // changes the velocity exactly as the mid-cycle handover (interval 14 → 15) does, no more.
    expect(v[0]! - v[v.length - 1]!).toBeCloseTo(v[HALF]! - v[HALF - 1]!, 7);
    expect(Math.abs(v[HALF]! - v[HALF - 1]!)).toBeGreaterThan(0.01); // (the stances are uneven)
    // The planted feet's own cycle: each stance slides 2a, so the body covers 4a per cycle.
    expect(getRootTrack(clip).cycle[2]).toBeCloseTo(4 * a, 5);
    // Played with root motion over 3 cycles, the character is 3 cycles on.
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 3 });
    const eid = spawnCharacter(world, clip.skeleton, { rootMotion: true });
    play(world, eid, clip);
    for (let n = 0; n < 90; n++) step(world, 1 / 30);
    expect(getRootTransform(world, eid).z).toBeCloseTo(3 * 4 * a, 4);
  });

  it('keeps a planted foot still in the world when played with root motion and setTargetSpeed', () => {
    const clip = rootMotionFromFeet(inPlaceWalk(0.3), { feet: ['footL', 'footR'] });
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 3 });
    const eid = spawnCharacter(world, clip.skeleton, { rootMotion: true });
    play(world, eid, clip);
    setTargetSpeed(world, eid, 2.4); // 1.2 m/s at rate 1: rate 2
    // Stance of the left foot: clip time 0 … 0.5 s = 0 … 0.25 s of world time at rate 2.
    const worldZ = (): number => getModelMatrices(world, eid)[1 * 12 + 11]! + getRootTransform(world, eid).z;
    step(world, 1 / 60); // the pose is the clip's from the first step on
    const start = worldZ();
    for (let n = 1; n < 15; n++) {
      step(world, 1 / 60);
      expect(worldZ()).toBeCloseTo(start, 5);
    }
    expect(getRootTransform(world, eid).z).toBeCloseTo(2.4 * 0.25, 5);
  });

  it('works on a clip that does not loop (no wrap-around smoothing), with the same constant travel', () => {
    const clip = rootMotionFromFeet(inPlaceWalk(0.3, undefined, false), { feet: ['footL', 'footR'] });
    const z = hipZ(clip);
    for (let f = 0; f < z.length; f++) expect(z[f]).toBeCloseTo((1.2 * f) / 30, 5);
    expect(clip.loop).toBe(false);
  });
});

describe('rootMotionFromFeet refuses', () => {
  const walk = inPlaceWalk(0.3);

  it('a foot the skeleton does not have, by name or index, and a foot given twice', () => {
    const e = refused(() => rootMotionFromFeet(walk, { feet: ['footL', 'b_LeftFoot02_018'] }));
    expect(e.issues[0]!.path).toBe('feet[1]');
    expect(e.message).toContain('"b_LeftFoot02_018" is not a joint of the skeleton of "walk" (its joints: hips, footL, footR)');
    expect(refused(() => rootMotionFromFeet(walk, { feet: [3] })).message).toContain('feet[0] is 3: must be a joint name or an index below 3');
    expect(refused(() => rootMotionFromFeet(walk, { feet: [1.5] })).issues[0]!.path).toBe('feet[0]');
    expect(refused(() => rootMotionFromFeet(walk, { feet: ['footL', 1] })).message).toContain('feet[1] "footL" is given twice');
  });

  it('no feet, and the root-motion joint (or an ancestor) as a foot', () => {
    expect(refused(() => rootMotionFromFeet(walk, { feet: [] })).message).toMatch(/^rootMotionFromFeet: feet is empty: give the joints that touch the ground/);
    expect(refused(() => rootMotionFromFeet(walk, undefined as never)).issues[0]!.path).toBe('feet');
    expect(refused(() => rootMotionFromFeet(walk, { feet: ['hips'] })).message).toContain('"hips" is the root-motion joint "hips" or one of its ancestors');
  });

  it('a clip that is not one, has one frame, or is reduced; bad thresholds', () => {
    expect(refused(() => rootMotionFromFeet({} as Clip, { feet: [1] })).issues[0]!.path).toBe('clip');
    const still = createClip({ skeleton: walk.skeleton, frameRate: 30, frames: walk.frames.subarray(0, 30), loop: false });
    expect(refused(() => rootMotionFromFeet(still, { feet: [1] })).message).toContain('has 1 frame: a foot\'s slide needs at least two');
    const reduced = reduceClip(walk, { tolerance: 0.001 });
    expect(refused(() => rootMotionFromFeet(reduced, { feet: [1] })).message).toContain('is a reduced (LOD) clip');
    // A difference clip's frames are differences: its "feet" are not on any ground, and the
    // result (a new pose clip) would drop its difference flag.
    const difference = createDifferenceClip(walk, walk, { referenceTime: 0 });
    expect(refused(() => rootMotionFromFeet(difference, { feet: [1] })).message).toBe(
      'rootMotionFromFeet: clip "walk − walk" is a difference clip (createDifferenceClip): its frames are differences, not poses with feet on the ground; derive the travel from its source clip',
    );
    for (const [field, value] of [['heightThreshold', 0], ['speedThreshold', Number.NaN], ['smoothing', -1]] as const) {
      const e = refused(() => rootMotionFromFeet(walk, { feet: [1, 2], [field]: value }));
      expect(e.issues[0]!.path).toBe(field);
    }
  });
});

// ---- the Fox --------------------------------------------------------------------------------

/** All four paws: the hind toes and the front wrists (the joints that reach the ground). */
const FOX_FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];

/**
 * The sandbox's code before issue 13 (sandbox/src/assets.ts `measureGroundSpeed` and
 * `withRootMotion`), kept here to compare with: one constant speed along +Z, the median
 * backward speed of the feet within 6 % of the hip height of the lowest any of them gets.
 */
function sandboxRootMotion(clip: Clip): Clip {
  const skeleton = clip.skeleton, J = skeleton.jointCount;
  const model = (pose: Float32Array, off: number, out: Float64Array): Float64Array => {
    const local = new Float64Array(12);
    for (let j = 0; j < J; j++) {
      affine.fromSQT(local, 0, pose, off + j * 10);
      const p = skeleton.parents[j]!;
      if (p < 0) out.set(local, j * 12);
      else affine.multiply(out, j * 12, out, p * 12, local, 0);
    }
    return out;
  };
  const rest = model(skeleton.rest, 0, new Float64Array(J * 12));
  const hipHeight = skeleton.hipHeight > 0 ? skeleton.hipHeight : 1;
  const isParent = new Set(Array.from(skeleton.parents));
  const feet: number[] = [];
  for (let j = 0; j < J; j++) if (!isParent.has(j) && rest[j * 12 + 10]! < 0.3 * hipHeight && !/pole|target/i.test(skeleton.names[j]!)) feet.push(j);
  const m = new Float64Array(J * 12);
  const ys: number[][] = [], zs: number[][] = [];
  for (let f = 0; f < clip.frameCount; f++) {
    model(clip.frames, f * J * 10, m);
    ys.push(feet.map((j) => m[j * 12 + 10]!));
    zs.push(feet.map((j) => m[j * 12 + 11]!));
  }
  const planted = Math.min(...ys.flat()) + 0.06 * hipHeight;
  const speeds: number[] = [];
  for (let f = 0; f + 1 < clip.frameCount; f++) {
    feet.forEach((_, k) => {
      if (ys[f]![k]! < planted && ys[f + 1]![k]! < planted) speeds.push(-(zs[f + 1]![k]! - zs[f]![k]!) * clip.frameRate);
    });
  }
  speeds.sort((x, y) => x - y);
  const median = speeds[speeds.length >> 1] ?? 0;
  const speed = median > 0.05 ? median : 1;
  const hip = skeleton.hipJoint >= 0 ? skeleton.hipJoint : 0;
  const parent = skeleton.parents[hip]!;
  const frames = Float32Array.from(clip.frames);
  const inverse = new Float64Array(12), travel = new Float64Array(3);
  for (let f = 0; f < clip.frameCount; f++) {
    const o = (f * J + hip) * 10;
    model(clip.frames, f * J * 10, m);
    affine.invert(inverse, 0, m, parent * 12);
    travel[0] = 0; travel[1] = 0; travel[2] = (speed * f) / clip.frameRate;
    affine.transformVector(travel, 0, inverse, 0, travel, 0);
    for (let c = 0; c < 3; c++) frames[o + c] = frames[o + c]! + travel[c]!;
  }
  return createClip({ skeleton, frameRate: clip.frameRate, frames, loop: true, events: clip.events, name: clip.name });
}

/** What a Fox does in 10 s of `step` at 60 Hz with root motion and setTargetSpeed(1.2). */
interface Walked {
  /** Root displacement after 10 s / 10 s, m/s. */
  readonly speed: number;
  /**
   * Foot skate: over the four paws, the mean horizontal path length (m) of a paw in the world
   * during each contact, a contact being a run of frames with the paw within 2 cm of the lowest
   * it gets (height only, so it is the same test for any root motion).
   */
  readonly skate: number;
  readonly contacts: number;
}

function walkFox(clip: Clip): Walked {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: 24 });
  const eid = spawnCharacter(world, clip.skeleton, { rootMotion: true });
  play(world, eid, clip);
  setTargetSpeed(world, eid, 1.2);
  const feet = FOX_FEET.map((name) => clip.skeleton.names.indexOf(name));
  const paths: number[][][] = feet.map(() => []);
  for (let n = 0; n <= 600; n++) {
    if (n > 0) step(world, 1 / 60);
    const m = getModelMatrices(world, eid), root = getRootTransform(world, eid); // yaw 0: world = model + root
    feet.forEach((j, k) => paths[k]!.push([m[j * 12 + 9]! + root.x, m[j * 12 + 10]!, m[j * 12 + 11]! + root.z]));
  }
  const root = getRootTransform(world, eid);
  let total = 0, contacts = 0;
  for (const path of paths) {
    const lowest = Math.min(...path.map((p) => p[1]!));
    let travel = 0, down = false;
    for (let n = 0; n < path.length; n++) {
      const now = path[n]![1]! <= lowest + 0.02;
      if (now && down) travel += Math.hypot(path[n]![0]! - path[n - 1]![0]!, path[n]![2]! - path[n - 1]![2]!);
      if (down && (!now || n === path.length - 1)) { total += travel; contacts++; travel = 0; }
      down = now;
    }
  }
  return { speed: Math.hypot(root.x, root.z) / 10, skate: total / contacts, contacts };
}

describe('the Fox (loadGltf scale "cm", all four paws as feet)', () => {
  let clips: Clip[];
  beforeAll(async () => {
    ({ clips } = await loadGltf(new Uint8Array(readFileSync(assetPath('Fox.glb'))), { scale: 'cm' }));
  });

  it('refuses feet that are never planted (no interval with both ends near the lowest point)', () => {
    const walk = clips.find((c) => c.name === 'Walk')!;
    const e = refused(() => rootMotionFromFeet(walk, { feet: FOX_FEET, heightThreshold: 1e-9 }));
    expect(e.issues[0]!.path).toBe('feet');
    expect(e.message).toContain('"b_RightHand_08"] are never planted in "Walk"');
  });

  for (const name of ['Walk', 'Run']) {
    it(`${name}: setTargetSpeed(1.2) walks at 1.2 m/s ± 2% over 10 s, its paws sliding less per contact than the sandbox's old code`, () => {
      const source = clips.find((c) => c.name === name)!;
      expect(() => {
        const world = createAnimationWorld({ maxEntities: 1, maxJoints: 24 });
        const eid = spawnCharacter(world, source.skeleton, { rootMotion: true });
        play(world, eid, source);
        setTargetSpeed(world, eid, 1.2);
      }).toThrow(/no net travel per cycle/); // in place as shipped
      const clip = rootMotionFromFeet(source, { feet: FOX_FEET });
      const ours = walkFox(clip);
      const before = walkFox(sandboxRootMotion(source));
      const track = getRootTrack(clip);
      console.log(
        `Fox ${name}: rootMotionFromFeet ${(Math.hypot(track.cycle[0]!, track.cycle[2]!) / clip.duration).toFixed(3)} m/s at rate 1; ` +
          `setTargetSpeed(1.2) → ${ours.speed.toFixed(4)} m/s over 10 s; skate ${(ours.skate * 100).toFixed(1)} cm per contact (${ours.contacts} contacts) ` +
          `vs the sandbox's old code ${(before.skate * 100).toFixed(1)} cm (${before.contacts} contacts)`,
      );
      expect(Math.abs(ours.speed - 1.2)).toBeLessThanOrEqual(0.02 * 1.2);
      expect(ours.skate).toBeLessThan(before.skate);
      // Loop-consistent: the track's last frame is one cycle on, and the velocity across the
      // seam is no rougher than between the clip's other frames.
      const v: number[] = [];
      for (let f = 0; f + 1 < clip.frameCount; f++) v.push(track.positions[(f + 1) * 3 + 2]! - track.positions[f * 3 + 2]!);
      let roughest = 0;
      for (let i = 1; i < v.length; i++) roughest = Math.max(roughest, Math.abs(v[i]! - v[i - 1]!));
      expect(Math.abs(v[0]! - v[v.length - 1]!)).toBeLessThanOrEqual(roughest);
      expect(track.cycle[2]).toBeCloseTo(v.reduce((s, x) => s + x, 0), 5);
    });
  }
});
