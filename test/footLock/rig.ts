/**
 * A small two-legged rig for foot-lock unit tests: hips (root, 0.9 m up) with two legs
 * thigh (0.45 m) → shin (0.42 m) → foot, each swinging about X in the sagittal plane, the knee
 * bent forward. The clip (30 fps, 31 frames, clamped) plants the left foot on frames 0–14 and the
 * right foot on frames 15–30, sliding each planted foot backward in model space by `slide` metres
 * (an in-place cycle, whose ground moves back under the body); events mark both contacts.
 */
import { createClip, createSkeleton, type Clip, type Skeleton } from '../../src/index.js';

export const RATE = 30;
export const FRAMES = 31;
const L1 = 0.45, L2 = 0.42, HIP = 0.84;

/** Rotation about +X by `a` radians, x y z w. */
function aboutX(a: number): number[] {
  return [Math.sin(a / 2), 0, 0, Math.cos(a / 2)];
}

export function legRig(): Skeleton {
  const names = ['hips', 'thighL', 'shinL', 'footL', 'thighR', 'shinR', 'footR'];
  const parents = [-1, 0, 1, 2, 0, 4, 5];
  const id = [0, 0, 0, 1, 1, 1, 1];
  const rest = [
    0, HIP, 0, ...id,
    0.1, 0, 0, ...id, 0, -L1, 0, ...id, 0, -L2, 0, ...id,
    -0.1, 0, 0, ...id, 0, -L1, 0, ...id, 0, -L2, 0, ...id,
  ];
  return createSkeleton({ names, parents, rest, hipJoint: 'hips' });
}

/**
 * The angles (thigh about X, knee about X) that put a foot at model z (forward) and height y
 * below a hip at HIP, by the law of cosines; the knee bends forward (negative knee angle about X
 * turns the shin back, so the knee points to +Z).
 */
function legAngles(z: number, y: number): [number, number] {
  const dy = HIP - y, d = Math.hypot(z, dy);
  const knee = Math.acos(Math.min(1, (L1 * L1 + L2 * L2 - d * d) / (2 * L1 * L2)));
  const toFoot = Math.atan2(z, dy);
  const hipOffset = Math.asin(Math.min(1, (L2 * Math.sin(knee)) / d));
  // Angles of the leg turned toward +Z (applied about −X: rotation about +X turns −Y toward −Z).
  return [toFoot + hipOffset, -(Math.PI - knee)];
}

/** The foot of a leg at phase u ∈ [0, 1): planted (sliding back) for u < ½, swinging forward above. */
function footAt(u: number, slide: number): [number, number] {
  if (u < 0.5) return [slide / 2 - (u / 0.5) * slide, 0.02];
  const s = (u - 0.5) / 0.5;
  return [-slide / 2 + s * slide, 0.02 + 0.12 * Math.sin(Math.PI * s)];
}

/** The rig's clip; `slide` metres of backward slide per stance (default 0.2). */
export function legClip(skeleton: Skeleton, slide = 0.2): Clip {
  const frames: number[] = [];
  for (let f = 0; f < FRAMES; f++) {
    const u = f / (FRAMES - 1);
    const pose: number[] = [0, HIP, 0, 0, 0, 0, 1, 1, 1, 1];
    for (const [side, phase] of [[0.1, u], [-0.1, (u + 0.5) % 1]] as const) {
      const [z, y] = footAt(phase, slide);
      const [hip, knee] = legAngles(z, y);
      pose.push(side, 0, 0, ...aboutX(-hip), 1, 1, 1, 0, -L1, 0, ...aboutX(-knee), 1, 1, 1, 0, -L2, 0, ...aboutX(hip + knee), 1, 1, 1);
    }
    frames.push(...pose);
  }
  return createClip({
    skeleton, frameRate: RATE, frames, loop: false, name: 'legs',
    events: [
      { time: 0, name: 'footDown:footL' }, { time: 14 / RATE, name: 'footUp:footL' },
      { time: 15 / RATE, name: 'footDown:footR' }, { time: 30 / RATE, name: 'footUp:footR' },
    ],
  });
}
