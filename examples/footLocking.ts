/**
 * examples/footLocking.ts (docs/foot-locking.md): a motion capture made to walk faster than it
 * was captured, its planted feet held where they land. test/footLock/example.test.ts runs it.
 */
import {
  clearFootLock, createAnimationWorld, createClip, detectFootContacts, getJointWorldMatrix, measureFootSkate, parseBvh, play, setFootLock,
  setRootTransform, spawnCharacter, step, type Clip,
} from 'bitanim';

/**
 * The CMU 131_01 walk (BVH text) played on a character the game moves at `pace` × the capture's
 * own speed (its hips' travel taken out of the clip, as a game steering an in-place cycle does),
 * with or without foot locking; returns the world-space skate per contact of both ankles.
 */
export function fasterWalk(bvh: string, pace: number, lock: boolean) {
  // #region lock
  const { skeleton, clip } = parseBvh(bvh, { scale: 0.056444 }); // the CMU files' units → metres
  const { clip: marked, contacts } = detectFootContacts(clip, { feet: ['LeftAnkle', 'RightAnkle'] });
  const world = createAnimationWorld({ maxEntities: 1, maxJoints: skeleton.jointCount });
  const eid = spawnCharacter(world, skeleton);
  play(world, eid, inPlace(marked), { loop: false });
  setFootLock(world, eid); // the humanoid map's legs; the clip's footDown:/footUp: events say when
  // #endregion
  if (!lock) clearFootLock(world, eid);
  const rate = clip.frameRate;
  const hips = hipsPath(marked);
  const m = new Float64Array(12);
  const paths = [new Float64Array(clip.frameCount * 3), new Float64Array(clip.frameCount * 3)];
  for (let f = 0; f < clip.frameCount; f++) {
    // #region steer
    setRootTransform(world, eid, { x: pace * hips[f * 2]!, z: pace * hips[f * 2 + 1]! }); // the game's steering
    step(world, f === 0 ? 0 : 1 / rate);
    // #endregion
    ['LeftAnkle', 'RightAnkle'].forEach((ankle, k) => {
      getJointWorldMatrix(world, eid, ankle, m);
      paths[k]!.set([m[9]!, m[10]!, m[11]!], f * 3);
    });
  }
  // #region measure
  const skate = measureFootSkate({ frameRate: rate, positions: paths }, contacts);
  // skate.mean: metres an ankle slides per contact, in world space
  // #endregion
  return skate;
}

/** A copy of the clip (its events too) whose root joint keeps frame 0's horizontal translation. */
function inPlace(clip: Clip): Clip {
  const frames = Float32Array.from(clip.frames);
  const J = clip.skeleton.jointCount;
  for (let f = 0; f < clip.frameCount; f++) {
    frames[f * J * 10] = clip.frames[0]!;
    frames[f * J * 10 + 2] = clip.frames[2]!;
  }
  return createClip({ skeleton: clip.skeleton, frameRate: clip.frameRate, frames, loop: false, events: clip.events, name: clip.name });
}

/** The root joint's horizontal travel from frame 0, x z per frame. */
function hipsPath(clip: Clip): Float64Array {
  const J = clip.skeleton.jointCount;
  const out = new Float64Array(clip.frameCount * 2);
  for (let f = 0; f < clip.frameCount; f++) {
    out[f * 2] = clip.frames[f * J * 10]! - clip.frames[0]!;
    out[f * 2 + 1] = clip.frames[f * J * 10 + 2]! - clip.frames[2]!;
  }
  return out;
}
