/**
 * examples/recoilSystem.ts (docs/design.md "Adding a system", docs/testing.md): a game's own
 * system in bitanim's frame. When a character fires, the game sets `Recoil.kick[eid]` (radians)
 * and `Recoil.joint[eid]`; after blending and inertialization, the system turns that joint back
 * by the kick about its local X, and the kick halves every 0.1 s of the character's own time.
 * examples/testingASystem.test.ts tests it alone and inside the frame.
 */
import { createAnimationWorld, defaultFrame, insertSystem, step, type AnimationWorld, type FrameSystem } from 'bitanim';
import { POSE_Q, POSE_STRIDE, updateRange } from 'bitanim/kernels';

/** The game's component: each character's kick (radians) and the joint it turns. */
export const Recoil = { kick: new Float32Array(1001), joint: new Uint8Array(1001) };

// #region entities
export function recoilEntities(world: AnimationWorld, dt: number, first: number, end: number): void {
  const { eids, dt: seconds } = world.updates;
  const last = updateRange(world.updates, world.characters.dense, dt, first, end);
  const pose = world.components.LocalPose.data;
  for (let k = first; k < last; k++) {
    const eid = eids[k], characterDt = seconds[k];
    const kick = Recoil.kick[eid];
    if (kick === 0) continue;
    // q ← q · (sin(kick/2), 0, 0, cos(kick/2)): the joint turns by `kick` about its own X.
    const o = (eid * world.maxJoints + Recoil.joint[eid]) * POSE_STRIDE + POSE_Q;
    const s = Math.sin(kick / 2), c = Math.cos(kick / 2);
    const x = pose[o], y = pose[o + 1], z = pose[o + 2], w = pose[o + 3];
    pose[o] = x * c + w * s;
    pose[o + 1] = y * c + z * s;
    pose[o + 2] = z * c - y * s;
    pose[o + 3] = w * c - x * s;
    Recoil.kick[eid] = kick * 0.5 ** (characterDt / 0.1);
  }
}
// #endregion

// #region frame
export const recoil: FrameSystem = {
  name: 'recoil',
  entities: recoilEntities,              // (world, dt, first, end), as above
  reads: ['world.updates', 'LocalPose', 'Recoil'],
  writes: ['LocalPose', 'Recoil'],
};
export const world = createAnimationWorld({
  maxEntities: 1000, maxJoints: 64,
  frame: insertSystem(defaultFrame, recoil, { after: 'inertialize' }),   // or { before: 'rootMotion' }
});
export function frame(dt: number): void {
  step(world, dt); // … lod, sample, blend, inertialize, recoil, rootMotion, follow, aim, skin
}
// #endregion
