/**
 * Difference clips (Jason Gregory, Game Engine Architecture, "additive blending"): the clip
 * D = S·R⁻¹ of a source S and a reference R, frame by frame, so that what makes "tired run"
 * differ from "run" can be added onto "walk" (A = D·T, or lerp(T, D·T, β) at β < 1).
 * An offline tool: it builds an asset once; playback is the blend system's additive path.
 */
import { shownString } from '../assets/limits.js';
import { IssueList } from '../assets/AnimationError.js';
import { bindSkeletons, sameJointOrder } from '../assets/Binding.js';
import { curveFrames, sampleCurvesInto } from '../assets/sampleCurves.js';
import { createClip, isClip, type Clip } from '../assets/Clip.js';
import { expandFrames } from '../assets/reducedClip.js';
import { sampleClipInto } from '../assets/sampleClip.js';
import { POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../math/layout.js';

/** Options of {@link createDifferenceClip}. */
export interface DifferenceClipOptions {
  /**
   * Take the reference as one pose: `reference` at this time, in seconds (wrapped into
   * [0, D) when the reference loops, clamped to [0, D] otherwise — as `play`'s
   * `referenceTime`). Default: none, the reference clip is time-normalized to the source.
   */
  referenceTime?: number;
  /** Display name (default `"<source> − <reference>"`). */
  name?: string;
}

/** Joint names listed in an error before "and N more". */
const LISTED_JOINTS = 5;

/**
 * Builds the difference clip D = S·R⁻¹ of `source` (S) and `reference` (R), per joint and
 * per frame, with the operators the blend system's additive path uses (its header):
 *
 * | channel | D = S·R⁻¹ | applied on a target T: D·T |
 * | --- | --- | --- |
 * | rotation | Q_D = Q_S · Q_R⁻¹ (conjugate), sign chosen so w ≥ 0 | Q_D · Q_T |
 * | translation | T_D = T_S − T_R | T_D + T_T |
 * | scale | S_D = S_S / S_R (1 where S_R = 0) | S_D · S_T |
 *
 * **Timing.** D has the source's frame rate, frame count, duration and loop flag; frame f is
 * taken at the source's frame f (its stored pose, exactly). The reference is time-normalized
 * to the source: for the source time t it is sampled at t / D_S × D_R (same phase; the
 * sampler's lerp/nlerp between the reference's frames), so clips of different lengths — a run
 * of 0.7 s and a walk of 1.0 s — are compared stride for stride. With `referenceTime` the
 * reference is one pose instead (the reference clip at that time), the same pose `play`'s
 * `{ additive: true, reference, referenceTime }` subtracts.
 *
 * **Curves.** D has one float curve per curve of the source, S − R at each frame, R the
 * reference's curve of that name sampled where its pose is, or — the reference lacking it —
 * the skeleton's default for the curve (else 0): what an additive layer adds (× β).
 *
 * **Playing it.** The clip says `difference: true`; `play(world, eid, d, { additive: true,
 * weight: β })` applies it against the identity (no second subtraction), so the layer gives
 * lerp(T, D·T, β) over the override blend T. It cannot be played as an override layer (it is
 * not a pose) and takes no `reference`. Between frames the sampler interpolates D's frames,
 * which differs slightly from the difference of the interpolated S and R (see
 * docs/difference-clips.md for the size of it on real clips).
 *
 * **Skeletons.** D is made for the source's skeleton (its joint order). The reference must be
 * on the same skeleton, on one with the same joint names in the same order, or on any
 * skeleton that has every joint of the source's by name (name binding, `bindSkeletons`):
 * a joint the reference lacks would otherwise be subtracted from the rest pose, which is
 * not a difference of the two motions, so it is refused.
 *
 * **Root motion, events.** Root travel is not special-cased: the root-motion joint's D is
 * T_S − T_R like any joint's. Additive layers carry no root motion (rootMotionSystem reads
 * override layers only), so a difference clip never moves a character; in-place cycles (the
 * usual input) give a clean difference, while a source and reference with travel baked into
 * the hips give a hip offset that drifts over the cycle (make them in place first, or play
 * on characters with root motion, which re-places that joint horizontally). The source's
 * events are kept (D runs on the source's time axis), so a layer playing D fires them.
 *
 * Allocates the frames (`frameCount × jointCount × 10` floats). Sources may be reduced (LOD)
 * clips: their frames are their curves at the frame times.
 *
 * @throws AnimationError (`createDifferenceClip`) when `source` or `reference` is not a clip,
 * either is a difference clip already, the reference's skeleton lacks joints of the source's
 * (listed by name), `referenceTime` is not a finite number, or `name` is not a string.
 * @example
 * const tired = createDifferenceClip(tiredRun, run);       // "tired", stride by stride
 * play(world, eid, walk);                                  // T
 * play(world, eid, tired, { layer: 1, additive: true, weight: 0.5 }); // half-tired walk
 */
export function createDifferenceClip(source: Clip, reference: Clip, options: DifferenceClipOptions = {}): Clip {
  const issues = new IssueList('createDifferenceClip');
  if (!isClip(source)) issues.add('source', 'must be a Clip from createClip or an importer');
  else if (source.difference === true) issues.add('source', `"${source.name}" is a difference clip already: a difference is taken between two pose clips`);
  if (!isClip(reference)) issues.add('reference', 'must be a Clip from createClip or an importer');
  else if (reference.difference === true) issues.add('reference', `"${reference.name}" is a difference clip already: a difference is taken between two pose clips`);
  if (typeof options !== 'object' || options === null) {
    issues.add('options', 'must be an object { referenceTime?, name? }');
    issues.throwIfAny();
  }
  const referenceTime = options.referenceTime;
  if (referenceTime !== undefined && (typeof referenceTime !== 'number' || !Number.isFinite(referenceTime))) {
    issues.add('referenceTime', `is ${shownString(referenceTime)}: must be a finite number of seconds (or left out to time-normalize the reference clip)`);
  }
  if (options.name !== undefined && typeof options.name !== 'string') issues.add('name', `is ${typeof options.name}: must be a string`);
  issues.throwIfAny();

  const skeleton = source.skeleton;
  // The reference's own translations are compared (bound as 'animation', not retargeted to the
  // source's proportions): a difference compares two motions, it does not retarget one.
  const binding = sameJointOrder(reference.skeleton, skeleton) ? null : bindSkeletons(reference.skeleton, skeleton, { translation: 'animation' });
  if (binding !== null && binding.matched < skeleton.jointCount) {
    const missing: string[] = [];
    binding.sourceJoint.forEach((from, joint) => {
      if (from < 0) missing.push(`"${skeleton.names[joint]}"`);
    });
    const listed = missing.slice(0, LISTED_JOINTS).join(', ') + (missing.length > LISTED_JOINTS ? ` and ${missing.length - LISTED_JOINTS} more` : '');
    issues.add(
      'reference.skeleton',
      `of "${reference.name}" lacks ${missing.length} of the ${skeleton.jointCount} joints of the skeleton of "${source.name}" (${listed}): ` +
        'a difference needs the reference pose of every joint of the source',
    );
    issues.throwIfAny();
  }

  const jointCount = skeleton.jointCount;
  const poseSize = jointCount * POSE_STRIDE;
  const frameCount = source.frameCount;
  const frames = new Float32Array(frameCount * poseSize);
  const sourceFrames = expandFrames(source); // a reduced source: its curves at the frame times
  const r = new Float32Array(poseSize);
  const at = new Float64Array(1);
  const single = referenceTime !== undefined;
  // Curves: S − R by name (R: the reference's curve, else the skeleton's default, else 0).
  const curveSource = source.curves.map((c) => curveFrames(c, frameCount));
  const curveOut = source.curves.map(() => new Float32Array(frameCount));
  const referenceCurve = source.curves.map((c) => reference.curves.findIndex((rc) => rc.name === c.name));
  const curveDefault = source.curves.map((c) => skeleton.curves.find((sc) => sc.name === c.name)?.default ?? 0);
  const rc = new Float32Array(reference.curves.length);
  if (single) {
    at[0] = reference.loop ? wrapTime(referenceTime, reference.duration) : Math.min(Math.max(referenceTime, 0), reference.duration);
    sampleClipInto(r, 0, reference, at, 0, binding);
    sampleCurvesInto(rc, 0, reference, at, 0);
  }
  for (let f = 0; f < frameCount; f++) {
    if (!single) {
      // Same phase: source time t = f / rate is phase t / D_S; a one-frame source is phase 0.
      const phase = source.duration > 0 ? f / source.frameRate / source.duration : 0;
      at[0] = Math.min(phase, 1) * reference.duration;
      sampleClipInto(r, 0, reference, at, 0, binding);
      sampleCurvesInto(rc, 0, reference, at, 0);
    }
    subtractPose(frames, f * poseSize, sourceFrames, f * poseSize, r, 0, jointCount);
    for (let c = 0; c < curveOut.length; c++) {
      curveOut[c][f] = curveSource[c][f] - (referenceCurve[c] >= 0 ? rc[referenceCurve[c]] : curveDefault[c]);
    }
  }

  const name = options.name ?? `${source.name} − ${reference.name}`;
  // createClip validates and packs (the products are unit quaternions and finite numbers).
  const clip = createClip({ skeleton, frameRate: source.frameRate, frames, loop: source.loop, events: source.events, name,
    curves: source.curves.map((c, i) => ({ name: c.name, values: curveOut[i] })),
  });
  return Object.freeze({ ...clip, difference: true });
}

/**
 * Writes D = S·R⁻¹ for `jointCount` joints (operators: {@link createDifferenceClip}'s table)
 * to `out` at `outOff`, from the poses `s` at `sOff` and `r` at `rOff`, computed in doubles.
 * `out` may alias `s` (each joint's inputs are read before it is written).
 */
export function subtractPose(
  out: Float32Array, outOff: number, s: Float32Array, sOff: number, r: Float32Array, rOff: number, jointCount: number,
): void {
  for (let j = 0; j < jointCount; j++) {
    const a = sOff + j * POSE_STRIDE, b = rOff + j * POSE_STRIDE, o = outOff + j * POSE_STRIDE;
    // Q_S · conj(Q_R): Hamilton product with the reference's vector part negated.
    const sx = s[a + POSE_Q], sy = s[a + POSE_Q + 1], sz = s[a + POSE_Q + 2], sw = s[a + POSE_Q + 3];
    const rx = -r[b + POSE_Q], ry = -r[b + POSE_Q + 1], rz = -r[b + POSE_Q + 2], rw = r[b + POSE_Q + 3];
    let dx = sw * rx + sx * rw + sy * rz - sz * ry;
    let dy = sw * ry - sx * rz + sy * rw + sz * rx;
    let dz = sw * rz + sx * ry - sy * rx + sz * rw;
    let dw = sw * rw - sx * rx - sy * ry - sz * rz;
    const sign = dw < 0 ? -1 : 1; // the shorter arc, so neighbouring frames rarely change sign
    const inv = sign / Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw);
    dx *= inv; dy *= inv; dz *= inv; dw *= inv;
    const t0 = s[a + POSE_T] - r[b + POSE_T], t1 = s[a + POSE_T + 1] - r[b + POSE_T + 1], t2 = s[a + POSE_T + 2] - r[b + POSE_T + 2];
    const s0 = r[b + POSE_S] !== 0 ? s[a + POSE_S] / r[b + POSE_S] : 1;
    const s1 = r[b + POSE_S + 1] !== 0 ? s[a + POSE_S + 1] / r[b + POSE_S + 1] : 1;
    const s2 = r[b + POSE_S + 2] !== 0 ? s[a + POSE_S + 2] / r[b + POSE_S + 2] : 1;
    out[o + POSE_T] = t0; out[o + POSE_T + 1] = t1; out[o + POSE_T + 2] = t2;
    out[o + POSE_Q] = dx; out[o + POSE_Q + 1] = dy; out[o + POSE_Q + 2] = dz; out[o + POSE_Q + 3] = dw;
    out[o + POSE_S] = s0; out[o + POSE_S + 1] = s1; out[o + POSE_S + 2] = s2;
  }
}


/** `time` wrapped into [0, duration) (0 for a zero duration), as play's reference times. */
function wrapTime(time: number, duration: number): number {
  if (!(duration > 0)) return 0;
  const t = time - Math.floor(time / duration) * duration;
  return t >= duration ? 0 : t;
}
