/**
 * The parts of footLockSystem (src/systems/footLockSystem.ts) its WebAssembly path
 * (src/wasm/footLockWasm.ts) shares: the scratch and its params block's layout, and the contact
 * verdicts (`plantContacts`), which both paths take in JavaScript from the clips' contact tables.
 */
import { FOOT_LEGS } from '../components/FootLock.js';
import { isOverride } from '../components/layerRules.js';
import { IK_PARAMS } from '../math/twoBoneIk.js';
import { heapAllocator, type PoolAllocator } from '../memory/poolAllocator.js';
import { FRAME_CHUNK, type AnimationWorld } from '../world.js';

/** The IK target is kept within this share of the leg's length (l1 + l2) from the hip, unless the animation stretches it farther. */
export const FOOT_MAX_EXTENSION = 0.999;
/** Floats per joint in `FootLockScratch.model`: a 3×4 model matrix (12), then the model rotation (4). */
export const FOOT_JOINT_STRIDE = 16;
/** Offset of the model rotation inside a joint's `FootLockScratch.model` record. */
export const FOOT_JOINT_Q = 12;
/** `FootLockScratch.params`: the IK kernel's params block. */
export const P_IK = 0;
/** `FootLockScratch.params`: the kernel's output deltas D1, D2 (8). */
export const P_DELTA = P_IK + IK_PARAMS;
/** `FootLockScratch.params`: the inverse of a detached foot's parent's model matrix (12). */
export const P_INVERSE = P_DELTA + 8;
/** `FootLockScratch.params`: a detached foot's move, model space, then in its parent's space (3). */
export const P_MOVE = P_INVERSE + 12;
/** `FootLockScratch.params`: a foot's offset from the hip and the reach limit, for `liftToReach` (4). */
export const P_REACH = P_MOVE + 3;
/** `FootLockScratch.params`: `liftToReach`'s answer (1). */
export const P_LIFT = P_REACH + 4;
/** `FootLockScratch.params`: a corrected local rotation before it is normalized (4). */
export const P_QA = P_LIFT + 1;
/** `FootLockScratch.params`: per leg, the weight of the layers that count and of those in contact (2 × FOOT_LEGS). */
export const P_SHARE = P_QA + 4;
/** `FootLockScratch.params`: the seconds of the character's update, for the WebAssembly kernel (1). */
export const P_SECONDS = P_SHARE + 2 * FOOT_LEGS;
/**
 * `FootLockScratch.params`: for the WebAssembly kernel, per leg the IK's inputs staged until both
 * legs of a pair are solved together (16 each, assembly/footLockPair.ts `S_*`).
 */
export const P_STAGE = P_SECONDS + 1;
/** `FootLockScratch.params`: the WebAssembly kernel's deltas of a pair of legs (2 × 8). */
export const P_PAIR = P_STAGE + 16 * FOOT_LEGS;
/** Floats in `FootLockScratch.params`. */
export const FOOT_PARAMS = P_PAIR + 16;
/** `FootLockScratch.planted` of a leg whose joints are no chain of the character's skeleton. */
export const NOT_A_LEG = 3;
/** `FootLockScratch.planted` of a leg neither planted nor locked, whose offset is 0: it keeps the animated pose. */
export const IDLE = 2;

/**
 * `FootLockScratch.block`: slots of the WebAssembly kernel's pointer block (assembly/footLock.ts
 * `B_*`: the pools and this thread's scratch, as byte offsets into the kernels' memory).
 */
export const FOOT_BLOCK_SLOTS = 46;

/**
 * World-owned temporaries of footLockSystem (`world.scratch.footLock`): `model`, one record
 * per joint (only the busy legs' joints and their ancestors are written); `list`, those joints,
 * each after its parent; `slot`, 1 per joint in `list` while a character is composed (0
 * between characters); `params`, the IK kernel's block, its outputs and the contact shares;
 * `planted`, the current character's legs' contact verdicts; `block`, the WebAssembly kernel's
 * pointers, `batchEids` and `batchSeconds` its batch (src/wasm/footLockWasm.ts; unused on JavaScript). All from the world's allocator, so on
 * the WebAssembly kernels they are in their memory.
 */
export interface FootLockScratch {
  readonly model: Float64Array;
  readonly list: Int32Array;
  readonly slot: Int32Array;
  readonly params: Float64Array;
  /** Per leg of the current character: 1 planted this frame, 0 not, 2 idle (free, o = 0), 3 not a chain of its skeleton. */
  readonly planted: Uint8Array;
  /** The WebAssembly kernel's pointer block (`FOOT_BLOCK_SLOTS` i32). */
  readonly block: Int32Array;
  /** The WebAssembly kernel's batch: up to `FRAME_CHUNK` update-list entries' eids and seconds. */
  readonly batchEids: Int32Array;
  readonly batchSeconds: Float64Array;
}

/** Creates the foot-lock scratch for skeletons of up to `maxJoints` joints. */
export function createFootLockScratch(maxJoints: number, alloc: PoolAllocator = heapAllocator): FootLockScratch {
  return {
    model: alloc.array(Float64Array, maxJoints * FOOT_JOINT_STRIDE),
    list: alloc.array(Int32Array, maxJoints),
    slot: alloc.array(Int32Array, maxJoints),
    params: alloc.array(Float64Array, FOOT_PARAMS),
    planted: alloc.array(Uint8Array, FOOT_LEGS),
    block: alloc.array(Int32Array, FOOT_BLOCK_SLOTS),
    batchEids: alloc.array(Int32Array, FRAME_CHUNK),
    batchSeconds: alloc.array(Float64Array, FRAME_CHUNK),
  };
}

/** Whether a leg's joints are a usable chain of a skeleton of `jointCount` joints. */
function legValid(upper: number, lower: number, foot: number, jointCount: number): boolean {
  return upper >= 0 && lower > upper && lower < jointCount && foot >= 0 && foot < jointCount && foot !== upper && foot !== lower;
}

/**
 * The contact verdicts of character `eid`'s legs (`FootLock.legs[eid]` of them) into `out[leg]`: 1
 * when the leg's foot is planted, 0 when not, `NOT_A_LEG` when its joints are no chain of a
 * skeleton of `jointCount` joints. Planted: the contact share c = Σ w·contact / Σ w over the
 * character's override layers (`isOverride`), w = the layer's weight, counting
 * only the layers whose mask (if any) weighs the foot (an upper-body layer does not count), is at
 * least ½ (the file header, step 1); not planted when no layer weighs. One pass over the layers
 * for all legs (each layer's clip, table and frame read once), the shares summed per leg in
 * `sums[P_SHARE ..]` in layer order, as a pass per leg would.
 */
export function plantContacts(world: AnimationWorld, eid: number, jointCount: number, out: Uint8Array, sums: Float64Array): void {
  const layers = world.components.Layers, footLock = world.components.FootLock;
  const { clips, masks } = world.assets;
  const maxLayers = layers.maxLayers, base = eid * maxLayers;
  const row = eid * FOOT_LEGS, legs = footLock.legs[eid];
  const feet = footLock.foot, keys = footLock.key;
  for (let leg = 0; leg < legs; leg++) {
    const r = row + leg;
    out[leg] = legValid(footLock.upper[r], footLock.lower[r], feet[r], jointCount) ? 0 : NOT_A_LEG;
    sums[P_SHARE + 2 * leg] = 0;
    sums[P_SHARE + 2 * leg + 1] = 0;
  }
  for (let li = base; li < base + maxLayers; li++) {
    const id = layers.clip[li];
    const w = layers.weight[li];
    if (!isOverride(layers, li)) continue;
    const mask = layers.mask[li];
    const clip = clips[id];
    const table = clip.contacts;
    let F = 0, frame = 0;
    if (table !== null && table !== undefined) {
      F = table.frames;
      frame = Math.floor(layers.time[li] * table.frameRate + 0.5);
      if (frame < 0) frame = 0;
      if (frame >= F) frame = clip.loop ? frame % F : F - 1;
    }
    for (let leg = 0; leg < legs; leg++) {
      if (out[leg] === NOT_A_LEG) continue;
      const r = row + leg;
      if (mask >= 0 && !(masks[mask][feet[r]] > 0)) continue; // a layer masked off the foot (an upper-body layer)
      sums[P_SHARE + 2 * leg] += w;
      if (table === null || table === undefined) continue;
      // The table's row for the leg's marker; a clip with none counts as not in contact.
      const rows = table.keys, key = keys[r];
      for (let n = 0; n < rows.length; n++) {
        if (rows[n] !== key) continue;
        if (table.flags[n * F + frame] === 1) sums[P_SHARE + 2 * leg + 1] += w;
        break;
      }
    }
  }
  for (let leg = 0; leg < legs; leg++) {
    if (out[leg] === NOT_A_LEG) continue;
    const total = sums[P_SHARE + 2 * leg], inContact = sums[P_SHARE + 2 * leg + 1];
    out[leg] = total > 0 && inContact * 2 >= total ? 1 : 0;
  }
}
