/**
 * Foot-lock test rigs: a clip made in place (its root's horizontal travel taken out of the
 * frames), played without root motion while the test moves the character by setRootTransform
 * at a multiple of the capture's own travel, the feet's world positions recorded per frame, and
 * the skate measured over the contacts the travelling capture shows (detectFootContacts on it,
 * where planted feet stand still).
 */
import {
  createAnimationWorld, createClip, getJointWorldMatrix, getModelMatrices, measureFootSkate, play, setFootLock, setRootTransform,
  spawnCharacter, step, type Binding, type Clip, type FootLockOptions, type FootSkate, type Skeleton,
} from '../../src/index.js';
import { getRootTrack } from '../../src/assets/rootTrack.js';

/** A copy of `clip` whose root-motion joint keeps its frame-0 x and z (and `events`), and that travel per frame (x, z). */
export function inPlace(clip: Clip, events: Clip['events'] = clip.events): { clip: Clip; travel: Float64Array } {
  const track = getRootTrack(clip);
  const joint = track.joint;
  const J = clip.skeleton.jointCount, N = clip.frameCount;
  const frames = Float32Array.from(clip.frames);
  const travel = new Float64Array(N * 2);
  // The root-motion joint's own translation carries the travel when its parents do not move
  // horizontally (CMU's Hips is the root; the Fox's root is static): take it out there.
  for (let f = 0; f < N; f++) {
    const dx = track.positions[f * 3] - track.positions[0], dz = track.positions[f * 3 + 2] - track.positions[2];
    travel[f * 2] = dx;
    travel[f * 2 + 1] = dz;
    if (clip.skeleton.parents[joint] < 0) {
      frames[(f * J + joint) * 10] = clip.frames[joint * 10];
      frames[(f * J + joint) * 10 + 2] = clip.frames[joint * 10 + 2];
    }
  }
  const out = createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: clip.loop, events, name: `${clip.name} in place` });
  return { clip: out, travel };
}

/**
 * The horizontal travel (x, z per frame, from frame 0) of `joint` of a character of `skeleton`
 * playing `clip` (through `binding`) without root motion: a retargeted capture's own travel on
 * the target, in the target's model space.
 */
export function playedTravel(skeleton: Skeleton, clip: Clip, joint: number, binding?: Binding): Float64Array {
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount, kernels: 'js' });
  const eid = spawnCharacter(world, skeleton);
  play(world, eid, clip, binding === undefined ? { loop: false } : { loop: false, binding });
  const travel = new Float64Array(clip.frameCount * 2);
  let x0 = 0, z0 = 0;
  for (let f = 0; f < clip.frameCount; f++) {
    step(world, f === 0 ? 0 : 1 / clip.frameRate);
    const m = getModelMatrices(world, eid);
    const x = m[joint * 12 + 9]!, z = m[joint * 12 + 11]!;
    if (f === 0) { x0 = x; z0 = z; }
    travel[f * 2] = x - x0;
    travel[f * 2 + 1] = z - z0;
  }
  return travel;
}

/**
 * The knee's bend direction: the part of knee − hip across the hip → foot line, unit (model
 * space), and the sine of the bend (that part's length over the thigh's).
 */
export function bendDirection(m: Float32Array, upper: number, lower: number, foot: number): [number, number, number, number] {
  const p = (j: number, c: number): number => m[j * 12 + 9 + c]!;
  const axis = [0, 1, 2].map((c) => p(foot, c) - p(upper, c));
  const knee = [0, 1, 2].map((c) => p(lower, c) - p(upper, c));
  const along = (knee[0]! * axis[0]! + knee[1]! * axis[1]! + knee[2]! * axis[2]!) / (axis[0]! ** 2 + axis[1]! ** 2 + axis[2]! ** 2);
  const b = [0, 1, 2].map((c) => knee[c]! - axis[c]! * along);
  const l = Math.hypot(b[0]!, b[1]!, b[2]!);
  return [b[0]! / l, b[1]! / l, b[2]! / l, l / Math.hypot(knee[0]!, knee[1]!, knee[2]!)];
}

/** What {@link runWalk} measured. */
export interface WalkRun {
  /** Skate over the contacts, world space (metres). */
  readonly skate: FootSkate;
  /** The largest angle (degrees) between a locked knee's bend direction and the animated one, over the frames where both knees bend by 6° or more. */
  readonly kneeDegrees: number;
  /** Whether every pose value stayed finite. */
  readonly finite: boolean;
  /** Per frame, per foot, its world x y z. */
  readonly positions: Float64Array[];
}

/** How {@link runWalk} plays. */
export interface WalkSetup {
  readonly skeleton: Skeleton;
  /** The clip played (in place, with contact events), from time 0, clamped unless it loops. */
  readonly clip: Clip;
  /** The character's world x, z at frame f (the test's steering). */
  readonly at: (f: number) => [number, number];
  /** Frames to run (frame f at f / clip.frameRate s). */
  readonly frames: number;
  /** The measured feet (joint indices of the character's skeleton), their legs' upper and lower joints, and their contacts (seconds). */
  readonly legs: readonly { upper: number; lower: number; foot: number; intervals: [number, number][] }[];
  /** setFootLock's options, or null for the run without locking. */
  readonly lock: FootLockOptions | null;
  readonly binding?: Binding;
  /** The character's heading (radians, default 0). */
  readonly yaw?: number;
  /** The world's kernels (default 'js'). */
  readonly kernels?: 'js' | 'wasm';
}

/**
 * Plays `setup.clip` on a fresh character, moved each frame to `setup.at(f)` before the step, and
 * records the feet; a second character without a lock, stepped alongside, gives the animated
 * knees to compare.
 */
export function runWalk(setup: WalkSetup): WalkRun {
  const { skeleton, clip, legs } = setup;
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: skeleton.jointCount, kernels: setup.kernels ?? 'js' });
  const eid = spawnCharacter(world, skeleton);
  const free = spawnCharacter(world, skeleton);
  const options = setup.binding === undefined ? { loop: clip.loop } : { loop: clip.loop, binding: setup.binding };
  play(world, eid, clip, options);
  play(world, free, clip, options);
  if (setup.lock !== null) setFootLock(world, eid, setup.lock);
  const rate = clip.frameRate;
  const m = new Float64Array(12);
  const positions: Float64Array[] = [];
  const paths = legs.map(() => new Float64Array(setup.frames * 3));
  let kneeDegrees = 0, finite = true;
  for (let f = 0; f < setup.frames; f++) {
    const [x, z] = setup.at(f);
    setRootTransform(world, eid, { x, z, yaw: setup.yaw ?? 0 });
    setRootTransform(world, free, { x, z, yaw: setup.yaw ?? 0 });
    step(world, f === 0 ? 0 : 1 / rate);
    const row = new Float64Array(legs.length * 3);
    legs.forEach((leg, k) => {
      getJointWorldMatrix(world, eid, leg.foot, m);
      for (let c = 0; c < 3; c++) {
        row[k * 3 + c] = m[9 + c]!;
        paths[k]![f * 3 + c] = m[9 + c]!;
      }
      const a = bendDirection(getModelMatrices(world, free), leg.upper, leg.lower, leg.foot);
      const b = bendDirection(getModelMatrices(world, eid), leg.upper, leg.lower, leg.foot);
      // A knee bent less than ~6° (sine 0.1) has no bend direction to keep.
      const cos = a[3] < 0.1 || b[3] < 0.1 ? 1 : a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
      kneeDegrees = Math.max(kneeDegrees, (Math.acos(Math.min(1, cos)) * 180) / Math.PI);
    });
    positions.push(row);
    if (!getModelMatrices(world, eid).every(Number.isFinite)) finite = false;
  }
  const skate = measureFootSkate({ frameRate: rate, positions: paths }, legs.map((leg) => ({ joint: leg.foot, intervals: leg.intervals.filter(([, e]) => Math.round(e * rate) < setup.frames) })));
  return { skate, kneeDegrees, finite, positions };
}
