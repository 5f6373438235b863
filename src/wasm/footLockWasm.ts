/**
 * footLockSystem's work on WebAssembly kernels (`world.kernels === 'wasm'`): per character of
 * the update list, the contact verdicts in JavaScript (`plantContacts`, from the clips' contact
 * tables, into this thread's `planted` scratch, in the kernels' memory), then the rest of
 * `footLockEntities`'s body — idle legs, the busy legs' model records, the lock state machine,
 * the IK, the rotation corrections, a detached foot's move — in one call of the kernel
 * `footLockLegs` (assembly/footLock.ts), in doubles, the JavaScript path's statements in its
 * order (docs/wasm.md: precision). A leg whose IK meets one of `solveLegIk`'s special cases
 * (a straight or folded knee, a zero bone, the target on the hip, an aim arc of 180°) comes back
 * here for `solveTwoBoneIk`, whose deltas `footLockTurn` applies before the kernel goes on.
 *
 * The kernel reads the pools and this thread's scratch through a block of pointers
 * (`world.scratch.footLock.block`, {@link writeFootLockBlock}), written once per chunk.
 */
import { FOOT_LEGS } from '../components/FootLock.js';
import { solveTwoBoneIk } from '../math/twoBoneIk.js';
import { P_DELTA, P_IK, P_SECONDS, plantContacts, type FootLockScratch } from '../systems/footLockParts.js';
import type { AnimationWorld } from '../world.js';
import { skeletonCopyAt, type WasmKernels } from './kernels.js';
import { POSE_STRIDE as POSE_FLOATS } from '../math/layout.js';

/**
 * The update-list entries `[first, last)` of a chunk on `kernels` (this thread's); returns the
 * first entry it could not do — a character whose skeleton has no copy in the kernel area, which
 * the caller runs on the JavaScript path before calling again after it — or `last`.
 */
export function footLockEntriesWasm(world: AnimationWorld, kernels: WasmKernels, first: number, last: number): number {
  const { Character, FootLock, Layers } = world.components;
  const clips = world.assets.clips;
  const masks = world.assets.masks;
  const scratch = world.scratch.footLock;
  const { params, planted } = scratch;
  const maxLayers = Layers.maxLayers;
  const updated = world.updates.eids;
  const dts = world.updates.dt;
  const { footLockLegs, footLockTurn, area } = kernels;
  writeFootLockBlock(world, scratch);
  const block = scratch.block.byteOffset;

  for (let entry = first; entry < last; entry++) {
    const eid = updated[entry];
    if (FootLock.enabled[eid] !== 1) continue;
    if (!(FootLock.weight[eid] > 0)) continue;
    const parents = skeletonCopyAt(area, Character.skeleton[eid]);
    if (parents === 0) return entry;
    plantContacts(Layers, clips, masks, eid * maxLayers, maxLayers, FootLock, eid * FOOT_LEGS, FootLock.legs[eid], Character.jointCount[eid], planted, params);
    params[P_SECONDS] = dts[entry];
    let leg = footLockLegs(block, eid, parents, 0);
    while (leg >= 0) {
      solveTwoBoneIk(params, P_DELTA, params, P_IK);
      footLockTurn(block, eid, parents, leg);
      leg = footLockLegs(block, eid, parents, leg + 1);
    }
  }
  return last;
}

/**
 * Writes the kernel's pointer block (assembly/footLock.ts `B_*`, in that order): LocalPose and
 * its bytes per character, RootMotion x y z yaw, FootLock's settings and leg state, then this
 * thread's scratch (model records, list, slot, params, planted).
 */
export function writeFootLockBlock(world: AnimationWorld, scratch: FootLockScratch): void {
  const { FootLock, RootMotion, LocalPose } = world.components;
  const b = scratch.block;
  let n = 0;
  b[n++] = LocalPose.data.byteOffset;
  b[n++] = world.maxJoints * LocalPose.data.BYTES_PER_ELEMENT * POSE_FLOATS;
  b[n++] = RootMotion.x.byteOffset;
  b[n++] = RootMotion.y.byteOffset;
  b[n++] = RootMotion.z.byteOffset;
  b[n++] = RootMotion.yaw.byteOffset;
  b[n++] = FootLock.weight.byteOffset;
  b[n++] = FootLock.legs.byteOffset;
  b[n++] = FootLock.blendTime.byteOffset;
  b[n++] = FootLock.easeIn.byteOffset;
  b[n++] = FootLock.upper.byteOffset;
  b[n++] = FootLock.lower.byteOffset;
  b[n++] = FootLock.foot.byteOffset;
  b[n++] = FootLock.detached.byteOffset;
  b[n++] = FootLock.locked.byteOffset;
  b[n++] = FootLock.hold.byteOffset;
  b[n++] = FootLock.contact.byteOffset;
  b[n++] = FootLock.lock.byteOffset;
  b[n++] = FootLock.offset.byteOffset;
  b[n++] = FootLock.release.byteOffset;
  b[n++] = FootLock.releaseClock.byteOffset;
  b[n++] = FootLock.lockClock.byteOffset;
  b[n++] = FootLock.bend.byteOffset;
  b[n++] = scratch.model.byteOffset;
  b[n++] = scratch.list.byteOffset;
  b[n++] = scratch.slot.byteOffset;
  b[n++] = scratch.params.byteOffset;
  b[n++] = scratch.planted.byteOffset;
}
