/** Clips and crowds for the LOD tests: walking bipeds with events, a turning walk, coarser levels. */
import { createClip, type Clip, type Skeleton } from '../../src/index.js';
import { axisAngle } from '../fixtures/synthetic.js';

/**
 * A looping walk of the `biped` skeleton at 30 fps: the hips travel `distance` per cycle along
 * (dirX, dirZ) — at constant speed unless `surge` (a fraction of the distance, default 0) —
 * turning `turn` radians about +Y per cycle, with a bob and a swinging leg.
 */
export function walkClip(
  skeleton: Skeleton,
  shape: {
    distance: number; duration: number; dirX?: number; dirZ?: number; surge?: number; turn?: number;
    events?: { time: number; name: string }[]; name?: string; frameRate?: number;
  },
): Clip {
  const dirX = shape.dirX ?? 0, dirZ = shape.dirZ ?? 1;
  const length = Math.hypot(dirX, dirZ);
  const ux = dirX / length, uz = dirZ / length;
  const frameRate = shape.frameRate ?? 30;
  const count = Math.round(shape.duration * frameRate);
  const hip = skeleton.rest[1]!;
  const frames: number[] = [];
  for (let f = 0; f <= count; f++) {
    const u = f / count;
    const along = shape.distance * (u + (shape.surge ?? 0) * Math.sin(4 * Math.PI * u));
    const q = axisAngle(0, 1, 0, (shape.turn ?? 0) * u);
    const swing = 0.3 * Math.sin(2 * Math.PI * u);
    frames.push(ux * along, hip + 0.03 * Math.cos(4 * Math.PI * u), uz * along, ...q, 1, 1, 1);
    frames.push(0, -hip / 2, 0, Math.sin(swing / 2), 0, 0, Math.cos(swing / 2), 1, 1, 1);
  }
  return createClip({ skeleton, frameRate: count / shape.duration, frames, loop: true, events: shape.events ?? [], name: shape.name ?? 'walk' });
}

/**
 * A coarser version of `clip` for the level registry (what `bakeLod` will make): every
 * `step`-th frame kept, held until the next kept one, so it has the same skeleton, duration
 * and frame rate but visibly different poses between kept frames.
 */
export function steppedClip(clip: Clip, step: number, name = `${clip.name}/${step}`): Clip {
  const size = clip.skeleton.jointCount * 10;
  const frames = new Float32Array(clip.frames.length);
  for (let f = 0; f < clip.frameCount; f++) {
    const kept = f === clip.frameCount - 1 ? f : f - (f % step);
    frames.set(clip.frames.subarray(kept * size, (kept + 1) * size), f * size);
  }
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: clip.loop, events: clip.events, name });
}
