import { describe, expect, it } from 'vitest';
import { createClip, createSkeleton } from '../../../src/index.js';
import { createReducedClip } from '../../../src/assets/reducedClip.js';
import { createReducedTracks, type ReducedChannel } from '../../../src/assets/ReducedTracks.js';
import { defaultErrorDistance, jointReach, measureModelError } from '../../../src/offline/lod/modelError.js';

/** root → a (1 m along +X) → b (2 m further along +X). */
function chain() {
  return createSkeleton({
    names: ['root', 'a', 'b'],
    parents: [-1, 0, 1],
    rest: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 1, 1, 1, 1],
  });
}

/** The angle of nlerp(identity, q_θ about +Z, u), radians: 2·atan2(u·sin(θ/2), 1 − u + u·cos(θ/2)). */
function nlerpAngle(theta: number, u: number): number {
  return 2 * Math.atan2(u * Math.sin(theta / 2), 1 - u + u * Math.cos(theta / 2));
}

describe('measureModelError', () => {
  it('a root rotation error of θ on one frame moves the chain end by its chord 2·3·sin(θ/2), and by less between frames', () => {
    const skeleton = chain();
    const clip = createClip({ skeleton, frameRate: 10, frames: [...skeleton.rest, ...skeleton.rest, ...skeleton.rest], loop: false });
    const frames = Float32Array.from(clip.frames);
    const theta = 0.02;
    // Frame 1, root turned θ about +Z; played as frames, it turns in by nlerp from frame 0 and out to frame 2.
    frames[30 + 5] = Math.sin(theta / 2);
    frames[30 + 6] = Math.cos(theta / 2);
    const error = measureModelError(clip, frames);
    expect(error.maxError).toBeCloseTo(2 * 3 * Math.sin(theta / 2), 6);
    expect(error.worstJoint).toBe(2);
    expect(error.worstFrame).toBe(1);
    // Every joint's model rotation is off by θ at frame 1 (the root's turn carries down the chain).
    expect(error.maxRotationError).toBeCloseTo((theta * 180) / Math.PI, 4);
    // Instants: frames 0, 1, 2 and u = 0.2 … 0.8 in both intervals (11); a (1 m out) and b (3 m)
    // move by the chord of the nlerp angle there, the root not at all: mean over 3 joints × 11.
    let chords = 0;
    for (const u of [0.2, 0.4, 0.6, 0.8, 1, 0.8, 0.6, 0.4, 0.2]) chords += 2 * Math.sin(nlerpAngle(theta, u) / 2) * (1 + 3);
    expect(error.meanError).toBeCloseTo(chords / 33, 6);
    // At the frames only (the measure before issue 14): only frame 1 of 3 counts.
    const atFrames = measureModelError(clip, frames, { subdivisions: 0 });
    expect(atFrames.meanError).toBeCloseTo((2 * Math.sin(theta / 2) * (1 + 3)) / 9, 6);
    // Measured 0.5 m along each axis too: b's point 0.5 m along x is 3.5 m from the root.
    const far = measureModelError(clip, frames, { distance: 0.5 });
    expect(far.maxError).toBeCloseTo(2 * 3.5 * Math.sin(theta / 2), 6);
  });

  it('the shell lies `distance` from the joint in model units, whatever the joints\' scale', () => {
    // The chain under a root scaled ×2: b sits 6 m out; its shell point along x at 6.5 m (not 6 + 2·0.5).
    const base = chain();
    const rest = Array.from(base.rest);
    rest[7] = rest[8] = rest[9] = 2;
    const skeleton = createSkeleton({ names: [...base.names], parents: Array.from(base.parents), rest });
    const clip = createClip({ skeleton, frameRate: 10, frames: [...rest, ...rest], loop: false });
    const frames = Float32Array.from(clip.frames);
    const theta = 0.02;
    frames[30 + 5] = Math.sin(theta / 2);
    frames[30 + 6] = Math.cos(theta / 2);
    expect(measureModelError(clip, frames).maxError).toBeCloseTo(2 * 6 * Math.sin(theta / 2), 6);
    expect(measureModelError(clip, frames, { distance: 0.5 }).maxError).toBeCloseTo(2 * 6.5 * Math.sin(theta / 2), 6);
  });

  it('finds a curve that meets every frame but swings between them, which the frames alone miss', () => {
    // Three frames at 10 fps, all at rest; the reduction's root x is k·t(t − 0.1)(t − 0.2): zero
    // on every frame, k·0.04·0.06·0.16 at t = 0.04 and 0.16 (the largest of the instants u = 0.2 … 0.8).
    const skeleton = chain();
    const clip = createClip({ skeleton, frameRate: 10, frames: [...skeleton.rest, ...skeleton.rest, ...skeleton.rest], loop: false });
    const k = 1000;
    const channels: ReducedChannel[] = Array.from(skeleton.rest, (v) => ({ keyTimes: Float64Array.of(0, 0.2), coefficients: Float64Array.of(v, 0, 0, 0) }));
    channels[0] = { keyTimes: Float64Array.of(0, 0.2), coefficients: Float64Array.of(0, 0.02 * k, -0.3 * k, k) };
    const reduced = createReducedClip(clip, createReducedTracks(3, 0.2, channels), { keysBefore: 90, keysAfter: 60, maxError: 0, meanError: 0 });
    expect(measureModelError(clip, reduced, { subdivisions: 0 }).maxError).toBeLessThan(1e-6);
    const error = measureModelError(clip, reduced);
    expect(error.maxError).toBeCloseTo(k * 0.04 * 0.06 * 0.16, 5);
    expect([0.4, 1.6]).toContain(error.worstFrame);
    expect(error.maxRotationError).toBe(0);
  });

  it('an unnormalized but parallel quaternion is no error; identical frames give 0', () => {
    const skeleton = chain();
    const clip = createClip({ skeleton, frameRate: 10, frames: [...skeleton.rest, ...skeleton.rest], loop: false });
    const frames = Float32Array.from(clip.frames);
    frames[6] = 2; // root qw scaled: same rotation
    const error = measureModelError(clip, frames);
    expect(error.maxError).toBeLessThan(1e-7);
    expect(error.maxRotationError).toBeLessThan(1e-4);
  });

  it('jointReach: the farthest descendant at rest, plus the measuring distance', () => {
    expect(Array.from(jointReach(chain()))).toEqual([3, 2, 0]);
    const reach = jointReach(chain(), 0.1);
    [3.1, 2.1, 0.1].forEach((r, j) => expect(reach[j]).toBeCloseTo(r, 12));
  });

  it('defaultErrorDistance: a tenth of the hip height above the lowest joint, else of the rest extent', () => {
    // The chain lies along x: whatever joint stands for its hips is at the bottom (height 0),
    // so the extent counts, 3 m along x.
    expect(defaultErrorDistance(chain())).toBeCloseTo(0.3, 7);
    // Hips 0.2 m above the origin, legs 0.3 m and feet 0.4 m further down: the hips stand 0.7 m
    // above the lowest joints (the rest is float32: 7 digits).
    const rest = (x: number, y: number) => [x, y, 0, 0, 0, 0, 1, 1, 1, 1];
    const legs = createSkeleton({
      names: ['hips', 'leftLeg', 'leftFoot', 'rightLeg', 'rightFoot', 'head'],
      parents: [-1, 0, 1, 0, 3, 0],
      rest: [...rest(0, 0.2), ...rest(0.1, -0.3), ...rest(0, -0.4), ...rest(-0.1, -0.3), ...rest(0, -0.4), ...rest(0, 0.7)],
    });
    expect(legs.hipJoint).toBe(0);
    expect(defaultErrorDistance(legs)).toBeCloseTo(0.07, 7);
  });
});
