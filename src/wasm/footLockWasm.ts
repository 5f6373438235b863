/**
 * footLockSystem's work on WebAssembly kernels (`world.kernels === 'wasm'`): the update list's
 * entries go to the kernel `footLockEntries` (assembly/footLock.ts) in batches of up to
 * `FRAME_CHUNK` (their eids and seconds copied into this thread's scratch), which does per
 * character all of `footLockEntities`'s body — the checks, the contact verdicts from the clips'
 * contact tables (copied into the kernel area by clip id), the idle legs, the busy legs' model
 * records, the lock state machine, the IK, the rotation corrections, a detached foot's move —
 * in doubles, the JavaScript path's statements in its order (docs/wasm.md: precision). A leg
 * whose IK meets one of `solveLegIk`'s special cases (a straight or folded knee, a zero bone,
 * the target on the hip, an aim arc of 180°) comes back here for `solveTwoBoneIk`, whose deltas
 * `footLockTurn` applies before `footLockLegs` goes on with the character's next leg. A character
 * whose skeleton, clips' contact tables or masks have no copy in the kernel area is returned to
 * footLockSystem, which runs it on JavaScript.
 *
 * The kernels read the pools, the kernel area's tables and this thread's scratch through a block
 * of pointers (`world.scratch.footLock.block`, {@link writeFootLockBlock}), written per call.
 */
import { solveTwoBoneIk } from '../math/twoBoneIk.js';
import { P_DELTA, P_IK, type FootLockScratch } from '../systems/footLockParts.js';
import { FRAME_CHUNK, type AnimationWorld } from '../world.js';
import { skeletonCopyAt, type WasmKernels } from './kernels.js';
import { POSE_STRIDE } from '../math/layout.js';

/** The low bits of `footLockEntries`' answer: a leg (0–3), or `LEAVE`, an entry left to JavaScript. */
const CODE_BITS = 3, CODE_MASK = 7, LEAVE = 4;

/**
 * The update-list entries `[first, last)` of a chunk on `kernels` (this thread's); returns the
 * first entry it left — a character whose skeleton, clips' contact tables or masks have no copy
 * in the kernel area, untouched, which the caller runs on the JavaScript path before calling
 * again after it — or `last`.
 */
export function footLockEntriesWasm(world: AnimationWorld, kernels: WasmKernels, first: number, last: number): number {
  const { Character } = world.components;
  const scratch = world.scratch.footLock;
  const { params, batchEids, batchSeconds } = scratch;
  const updated = world.updates.eids;
  const dts = world.updates.dt;
  const { footLockEntries, footLockLegs, footLockTurn, area } = kernels;
  writeFootLockBlock(world, kernels, scratch);
  const block = scratch.block.byteOffset;

  for (let start = first; start < last; start += FRAME_CHUNK) {
    const count = last - start < FRAME_CHUNK ? last - start : FRAME_CHUNK;
    for (let k = 0; k < count; k++) {
      batchEids[k] = updated[start + k];
      batchSeconds[k] = dts[start + k];
    }
    let k = 0;
    while (k < count) {
      const answer = footLockEntries(block, k, count);
      if (answer < 0) break;
      k = answer >> CODE_BITS;
      let leg = answer & CODE_MASK;
      if (leg === LEAVE) return start + k;
      const eid = batchEids[k];
      const parents = skeletonCopyAt(area, Character.skeleton[eid]);
      while (leg >= 0) {
        solveTwoBoneIk(params, P_DELTA, params, P_IK);
        footLockTurn(block, eid, parents, leg);
        leg = footLockLegs(block, eid, parents, leg + 1);
      }
      k++;
    }
  }
  return last;
}

/**
 * Writes the kernels' pointer block (assembly/footLock.ts `B_*`, in that order): LocalPose and
 * its bytes per character, RootMotion x y z yaw, FootLock's settings and leg state, this thread's
 * scratch (model records, list, slot, params, planted), FootLock's enabled and key, Character's
 * skeleton and joint count, the Layers fields the contact verdicts read and the slots per
 * character, the kernel area's skeleton, mask and contact tables, this thread's batch.
 */
export function writeFootLockBlock(world: AnimationWorld, kernels: WasmKernels, scratch: FootLockScratch): void {
  const { Character, FootLock, Layers, RootMotion, LocalPose } = world.components;
  const b = scratch.block;
  let n = 0;
  b[n++] = LocalPose.data.byteOffset;
  b[n++] = world.maxJoints * POSE_STRIDE * LocalPose.data.BYTES_PER_ELEMENT;
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
  b[n++] = FootLock.enabled.byteOffset;
  b[n++] = FootLock.key.byteOffset;
  b[n++] = Character.skeleton.byteOffset;
  b[n++] = Character.jointCount.byteOffset;
  b[n++] = Layers.clip.byteOffset;
  b[n++] = Layers.time.byteOffset;
  b[n++] = Layers.weight.byteOffset;
  b[n++] = Layers.flags.byteOffset;
  b[n++] = Layers.mask.byteOffset;
  b[n++] = Layers.maxLayers;
  b[n++] = kernels.area.skinTable.byteOffset;
  b[n++] = kernels.area.maskTable.byteOffset;
  b[n++] = kernels.area.contactTable.byteOffset;
  b[n++] = scratch.batchEids.byteOffset;
  b[n++] = scratch.batchSeconds.byteOffset;
  b[n++] = kernels.area.skinTable.length >> 1; // the ids each table covers (they grow: src/wasm/areaLayout.ts)
  b[n++] = kernels.area.maskTable.length;
  b[n++] = kernels.area.contactTable.length;
}
