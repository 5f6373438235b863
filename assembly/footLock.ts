/**
 * Foot locking's per-character work on WebAssembly (src/systems/footLockSystem.ts, its header's
 * steps 1–4 after the contact verdicts): the legs that are idle, the model records of the busy
 * legs' joints and their ancestors, the lock state machine per leg (lock, release, hold,
 * lift-to-reach, ease), the IK toward the target (`solveLegIk`'s construction), the rotation
 * corrections (`turnLeg`) and a detached foot's translation. The same statements in the same
 * order as the JavaScript system, in doubles (f64, scalar): every product and sum is the
 * JavaScript path's, the pools' float32 values promoted on load and rounded once on store, so the
 * two paths differ only where `Math.cos` / `Math.sin` of the yaw (AssemblyScript's, from musl,
 * against V8's fdlibm port) differ in a last bit (docs/wasm.md). The lock decisions are scalar; once
 * a character's legs are decided, their IK and rotation corrections run two legs at a time, one per
 * lane of `f64x2` (assembly/footLockPair.ts), which rounds each lane as the scalar code does.
 *
 * The contact verdicts are taken here from the clips' contact tables (`plantContacts`). The
 * JavaScript side hands the kernels a **block** of i32 pointers (`B_*` below, written per chunk:
 * src/wasm/footLockWasm.ts), so a call takes only the block, the character and its skeleton's
 * parents (i32, the kernel area's copy). The per-leg solve's special cases (target on the hip, a
 * zero bone, a straight or folded knee, an aim arc of 180°) go back to JavaScript's
 * `solveTwoBoneIk`: {@link footLockLegs} returns the leg with the IK block written in the
 * thread's `params`, JavaScript solves it, and {@link footLockTurn} applies the result before
 * {@link footLockLegs} goes on with the next leg.
 */

import { PAIR_DELTA, S_END, S_MID, S_PENDING, S_POLE, S_ROOT, S_TARGET, STAGE, solvePair, turnPair } from './footLockPair';

// The block: i32 pointers (byte offsets into the memory) and one byte count, at these byte offsets.
const B_LOCAL: usize = 0; // LocalPose.data (f32)
const B_POSE_ROW: usize = 4; // bytes per character of LocalPose: maxJoints × 40
const B_X: usize = 8; // RootMotion.x, y, z, yaw (f64)
const B_Y: usize = 12;
const B_Z: usize = 16;
const B_YAW: usize = 20;
const B_WEIGHT: usize = 24; // FootLock.weight (f64)
const B_LEGS: usize = 28; // FootLock.legs (u8)
const B_BLEND_TIME: usize = 32; // FootLock.blendTime (f64)
const B_EASE_IN: usize = 36; // FootLock.easeIn (f64)
const B_UPPER: usize = 40; // FootLock.upper, lower, foot (i16)
const B_LOWER: usize = 44;
const B_FOOT: usize = 48;
const B_DETACHED: usize = 52; // FootLock.detached, locked, hold, contact (u8)
const B_LOCKED: usize = 56;
const B_HOLD: usize = 60;
const B_CONTACT: usize = 64;
const B_LOCK: usize = 68; // FootLock.lock, offset, release (f32 × 3), releaseClock, lockClock (f32), bend (f32 × 3)
const B_OFFSET: usize = 72;
const B_RELEASE: usize = 76;
const B_RELEASE_CLOCK: usize = 80;
const B_LOCK_CLOCK: usize = 84;
const B_BEND: usize = 88;
const B_MODEL: usize = 92; // the thread's scratch: model records (f64 × 16 a joint), list, slot (i32), params (f64), planted (u8)
const B_LIST: usize = 96;
const B_SLOT: usize = 100;
const B_PARAMS: usize = 104;
const B_PLANTED: usize = 108;
const B_ENABLED: usize = 112; // FootLock.enabled (u8), key (i32)
const B_KEY: usize = 116;
const B_SKELETON: usize = 120; // Character.skeleton, jointCount (i32)
const B_JOINT_COUNT: usize = 124;
const B_LAYER_CLIP: usize = 128; // Layers.clip (i32), time (f64), weight (f32), flags (u8), mask (i32)
const B_LAYER_TIME: usize = 132;
const B_LAYER_WEIGHT: usize = 136;
const B_LAYER_FLAGS: usize = 140;
const B_LAYER_MASK: usize = 144;
const B_MAX_LAYERS: usize = 148; // Layers.maxLayers (a count)
const B_SKIN_TABLE: usize = 152; // the kernel area's tables: skeletons (parents, bind pairs), masks, contact tables (i32 pointers)
const B_MASK_TABLE: usize = 156;
const B_CONTACT_TABLE: usize = 160;
const B_BATCH_EIDS: usize = 164; // this thread's batch: the entries' eids (i32) and seconds (f64)
const B_BATCH_SECONDS: usize = 168;
const B_SKIN_IDS: usize = 172; // the ids the skeleton, mask and contact tables cover (i32 counts: the tables grow)
const B_MASK_IDS: usize = 176;
const B_CONTACT_IDS: usize = 180;
/** Layers.flags: an additive layer (src/components/Layers.ts LAYER_ADDITIVE). */
const LAYER_ADDITIVE: u8 = 2;
/** A contact table's copy (src/wasm/kernels.ts `copyContacts`): frame rate (f64), distinct frames, rows, loop (i32), then keys (i32 per row), then flags (u8, row-major). */
const CT_FRAMES: usize = 8;
const CT_ROWS: usize = 12;
const CT_LOOP: usize = 16;
const CT_KEYS: usize = 24;
/** What {@link footLockEntries} returns for an entry it leaves to JavaScript (in the low 3 bits; legs are 0–3). */
const LEAVE: i32 = 4;

// footLockSystem's constants (test/wasm/footLock.test.ts checks they match src/systems/footLockSystem.ts).
const FOOT_LEGS: i32 = 4;
const FOOT_UNLOCK_RADIUS: f64 = 0.3;
const FOOT_REPLANT_RADIUS: f64 = 0.1;
const FOOT_MAX_EXTENSION: f64 = 0.999;
const FOOT_MAX_LIFT: f64 = 0.25;
const STRAIGHT_SINE: f64 = 1e-4;
const NOT_A_LEG: u8 = 3;
const IDLE: u8 = 2;
/** affine.invert's singular threshold (src/math/affine.ts). */
const SINGULAR_DET: f64 = 1e-12;

/** Bytes of a joint's model record in the scratch: a 3×4 matrix (12 f64), then the model rotation (4 f64). */
const RECORD: usize = 128;
/** Byte offset of the translation column in a model record (the rotation follows at 96). */
const REC_T: usize = 72;
/** Bytes of a joint pose: 10 f32 (T at 0, Q at 12, S at 28). */
const POSE: usize = 40;
const POSE_Q: usize = 12;
const POSE_S: usize = 28;

// Byte offsets in the thread's params block (f64; src/systems/footLockParts.ts names them by index).
const P_IK: usize = 0; // the IK block: root 0, mid 3, end 6, target 9, pole 12, weight 15
const P_DELTA: usize = 128; // D1 (4), D2 (4)
const P_SHARE: usize = 384; // per leg the weight of the layers that count and of those in contact (2 × 4)
const P_SECONDS: usize = 448; // this update's seconds for the character
const P_STAGE: usize = 456; // per leg the IK's inputs until its pair is solved (assembly/footLockPair.ts STAGE bytes each)
const P_PAIR: usize = 968; // a pair's deltas (2 × PAIR_DELTA bytes)

// @ts-ignore: decorator
@inline function ptr(block: usize, at: usize): usize {
  return <usize>load<i32>(block + at);
}

/**
 * One character's foot lock from leg `fromLeg` on (src/systems/footLockSystem.ts
 * `footLockEntities`'s body after `plantContacts`): with `fromLeg` 0, first the idle legs (their
 * clocks run, nothing else) and the model records of the others' joints and ancestors, then per
 * leg the state machine, staging the IK's inputs of each leg that turns; then the staged legs'
 * IK and corrections, a pair at a time. A `fromLeg` above 0 resumes those from that leg (the
 * state machine ran already). `eid`'s contact verdicts are in the
 * block's `planted` (1 planted, 0 not, `NOT_A_LEG`), its seconds at `params + P_SECONDS`;
 * `parents` points at its skeleton's parents (i32). Returns −1 when the character is done, or
 * the leg whose solve needs `solveTwoBoneIk` (its IK block written at `params + P_IK`): the
 * caller solves it into `params + P_DELTA`, calls {@link footLockTurn}, then this again from the
 * next leg.
 */
export function footLockLegs(block: usize, eid: i32, parents: usize, fromLeg: i32): i32 {
  return legsOf(block, eid, parents, fromLeg, load<f64>(ptr(block, B_PARAMS) + P_SECONDS));
}

/**
 * The characters of this thread's batch from entry `from` to `count` (their eids and seconds in
 * the block's batch arrays; src/wasm/footLockWasm.ts fills them from the update list): per
 * entry, the checks of footLockSystem (enabled, weight > 0), the contact verdicts
 * (`plantContacts`, from the clips' contact tables copied into the kernel area), then
 * {@link footLockLegs}. Returns −1 when it did them all; else `k × 8 + code` for the entry k it
 * stopped at: code 0–3, the leg whose IK needs `solveTwoBoneIk` (as {@link footLockLegs}: the
 * caller solves it, calls {@link footLockTurn}, then {@link footLockLegs} from the next leg, and
 * this from k + 1), or `LEAVE` (4) for a character the kernel leaves to JavaScript, untouched:
 * its feet plant on the ground (`FootLock.enabled` 2), its skeleton, one of its clips' contact tables or one of its layers' masks has no copy in the
 * kernel area.
 */
export function footLockEntries(block: usize, from: i32, count: i32): i32 {
  const eids = ptr(block, B_BATCH_EIDS), secondsAt = ptr(block, B_BATCH_SECONDS);
  const enabled = ptr(block, B_ENABLED), weights = ptr(block, B_WEIGHT);
  const skeletonOf = ptr(block, B_SKELETON), skinTable = ptr(block, B_SKIN_TABLE);
  const params = ptr(block, B_PARAMS);
  for (let k = from; k < count; k++) {
    const eid = load<i32>(eids + (<usize>k << 2));
    const mode = load<u8>(enabled + <usize>eid);
    if (mode === 0) continue;
    if (mode !== 1) return k * 8 + LEAVE; // feet on the ground: footLockSystem's JavaScript path
    if (!(load<f64>(weights + (<usize>eid << 3)) > 0)) continue;
    const id = load<i32>(skeletonOf + (<usize>eid << 2));
    if (<u32>id >= <u32>load<i32>(block + B_SKIN_IDS)) return k * 8 + LEAVE;
    const parents = <usize>load<i32>(skinTable + (<usize>id << 3));
    if (parents === 0) return k * 8 + LEAVE;
    if (!plantContacts(block, eid)) return k * 8 + LEAVE;
    const seconds = load<f64>(secondsAt + (<usize>k << 3));
    store<f64>(params + P_SECONDS, seconds);
    const leg = legsOf(block, eid, parents, 0, seconds);
    if (leg >= 0) return k * 8 + leg;
  }
  return -1;
}

/**
 * footLockSystem's `plantContacts` for character `eid` into the block's `planted` (the same
 * decisions, the shares summed in doubles in layer order at `params + P_SHARE`); false, having
 * decided nothing, when a layer that counts has a clip without a contact table copy or a mask
 * without a copy.
 */
function plantContacts(block: usize, eid: i32): bool {
  const planted = ptr(block, B_PLANTED), sums = ptr(block, B_PARAMS) + P_SHARE;
  const legs = <i32>load<u8>(ptr(block, B_LEGS) + <usize>eid);
  const jointCount = load<i32>(ptr(block, B_JOINT_COUNT) + (<usize>eid << 2));
  const uppers = ptr(block, B_UPPER), lowers = ptr(block, B_LOWER), feet = ptr(block, B_FOOT), keys = ptr(block, B_KEY);
  const row = <usize>(eid * FOOT_LEGS);
  for (let leg = 0; leg < legs; leg++) {
    const r = row + <usize>leg;
    const upper = <i32>load<i16>(uppers + (r << 1)), lower = <i32>load<i16>(lowers + (r << 1)), foot = <i32>load<i16>(feet + (r << 1));
    const valid = upper >= 0 && lower > upper && lower < jointCount && foot >= 0 && foot < jointCount && foot !== upper && foot !== lower;
    store<u8>(planted + <usize>leg, valid ? 0 : NOT_A_LEG);
    store<f64>(sums + (<usize>leg << 4), 0);
    store<f64>(sums + (<usize>leg << 4), 0, 8);
  }
  const maxLayers = load<i32>(block + B_MAX_LAYERS);
  const clipOf = ptr(block, B_LAYER_CLIP), timeOf = ptr(block, B_LAYER_TIME), weightOf = ptr(block, B_LAYER_WEIGHT);
  const flagsOf = ptr(block, B_LAYER_FLAGS), maskOf = ptr(block, B_LAYER_MASK);
  const maskTable = ptr(block, B_MASK_TABLE), contactTable = ptr(block, B_CONTACT_TABLE);
  const base = eid * maxLayers;
  for (let li = base; li < base + maxLayers; li++) {
    const l = <usize>li;
    const id = load<i32>(clipOf + (l << 2));
    const w = <f64>load<f32>(weightOf + (l << 2));
    if (id < 0 || !(w > 0) || (load<u8>(flagsOf + l) & LAYER_ADDITIVE) !== 0) continue;
    const mask = load<i32>(maskOf + (l << 2));
    let maskAt: usize = 0;
    if (mask >= 0) {
      maskAt = <u32>mask < <u32>load<i32>(block + B_MASK_IDS) ? <usize>load<i32>(maskTable + (<usize>mask << 2)) : 0;
      if (maskAt === 0) return false;
    }
    const table = <u32>id < <u32>load<i32>(block + B_CONTACT_IDS) ? <usize>load<i32>(contactTable + (<usize>id << 2)) : 0;
    if (table === 0) return false;
    const rows = load<i32>(table, CT_ROWS);
    const F = load<i32>(table, CT_FRAMES);
    let frame: i32 = 0;
    if (rows > 0) {
      // Math.floor(time · rate + ½), clamped at 0, looped or held at the end (the JavaScript path's f64 steps).
      let f = Math.floor(load<f64>(timeOf + (l << 3)) * load<f64>(table) + 0.5);
      if (f < 0) f = 0;
      if (f >= <f64>F) f = load<i32>(table, CT_LOOP) !== 0 ? f % <f64>F : <f64>(F - 1);
      frame = <i32>f;
    }
    for (let leg = 0; leg < legs; leg++) {
      if (load<u8>(planted + <usize>leg) === NOT_A_LEG) continue;
      const r = row + <usize>leg;
      const foot = <usize>load<i16>(feet + (r << 1));
      if (mask >= 0 && !(load<f32>(maskAt + (foot << 2)) > 0)) continue; // a layer masked off the foot
      const s = sums + (<usize>leg << 4);
      store<f64>(s, load<f64>(s) + w);
      const key = load<i32>(keys + (r << 2));
      for (let n = 0; n < rows; n++) {
        if (load<i32>(table + CT_KEYS + (<usize>n << 2)) !== key) continue;
        if (load<u8>(table + CT_KEYS + (<usize>rows << 2) + <usize>(n * F + frame)) === 1) store<f64>(s, load<f64>(s, 8) + w, 8);
        break;
      }
    }
  }
  for (let leg = 0; leg < legs; leg++) {
    if (load<u8>(planted + <usize>leg) === NOT_A_LEG) continue;
    const s = sums + (<usize>leg << 4);
    const total = load<f64>(s), inContact = load<f64>(s, 8);
    store<u8>(planted + <usize>leg, total > 0 && inContact * 2 >= total ? 1 : 0);
  }
  return true;
}

/** {@link footLockLegs} with the character's seconds. */
function legsOf(block: usize, eid: i32, parents: usize, fromLeg: i32, seconds: f64): i32 {
  const planted = ptr(block, B_PLANTED);
  const params = ptr(block, B_PARAMS);
  const model = ptr(block, B_MODEL);
  const legs = <i32>load<u8>(ptr(block, B_LEGS) + <usize>eid);
  const blendTime = load<f64>(ptr(block, B_BLEND_TIME) + (<usize>eid << 3));
  const locked = ptr(block, B_LOCKED), hold = ptr(block, B_HOLD), contacts = ptr(block, B_CONTACT);
  const lockAt = ptr(block, B_LOCK), offsetAt = ptr(block, B_OFFSET), releaseAt = ptr(block, B_RELEASE);
  const releaseClock = ptr(block, B_RELEASE_CLOCK), lockClock = ptr(block, B_LOCK_CLOCK), bendAt = ptr(block, B_BEND);
  const uppers = ptr(block, B_UPPER), lowers = ptr(block, B_LOWER), feet = ptr(block, B_FOOT), detachedAt = ptr(block, B_DETACHED);
  const localOff = ptr(block, B_LOCAL) + <usize>eid * ptr(block, B_POSE_ROW);
  const row = eid * FOOT_LEGS;

  if (fromLeg === 0) {
    // 1. A leg neither planted, held nor easing back keeps the animated pose: only its clocks run.
    const list = ptr(block, B_LIST), slot = ptr(block, B_SLOT);
    let count = 0;
    for (let leg = 0; leg < legs; leg++) {
      const r = <usize>(row + leg);
      const p = load<u8>(planted + <usize>leg);
      if (p === NOT_A_LEG) continue;
      const o = offsetAt + r * 12;
      if (p === 0 && load<u8>(locked + r) === 0 && load<f32>(o) === 0 && load<f32>(o, 4) === 0 && load<f32>(o, 8) === 0) {
        store<u8>(planted + <usize>leg, IDLE);
        store<u8>(contacts + r, 0);
        const c = <f64>load<f32>(releaseClock + (r << 2));
        if (c < blendTime) store<f32>(releaseClock + (r << 2), <f32>(c + seconds));
        continue;
      }
      count = markPath(list, slot, parents, <i32>load<i16>(feet + (r << 1)), count);
      if (load<u8>(detachedAt + r) === 1) count = markPath(list, slot, parents, <i32>load<i16>(lowers + (r << 1)), count);
    }
    if (count === 0) return -1;
    composeList(model, localOff, parents, list, count);
    for (let pos = 0; pos < count; pos++) store<i32>(slot + (<usize>load<i32>(list + (<usize>pos << 2)) << 2), 0);
  }

  const tx = load<f64>(ptr(block, B_X) + (<usize>eid << 3)), ty = load<f64>(ptr(block, B_Y) + (<usize>eid << 3));
  const tz = load<f64>(ptr(block, B_Z) + (<usize>eid << 3));
  const yaw = load<f64>(ptr(block, B_YAW) + (<usize>eid << 3));
  const cos = Math.cos(yaw), sin = Math.sin(yaw);
  const weight = load<f64>(ptr(block, B_WEIGHT) + (<usize>eid << 3));
  const easeIn = load<f64>(ptr(block, B_EASE_IN) + (<usize>eid << 3));

  if (fromLeg > 0) return solveStaged(block, eid, parents, fromLeg);
  for (let leg = 0; leg < legs; leg++) {
    const stage = params + P_STAGE + <usize>leg * STAGE;
    store<f64>(stage, 0, S_PENDING);
    const p = load<u8>(planted + <usize>leg);
    if (p > 1) continue; // not a leg, or idle
    const r = <usize>(row + leg);
    const upper = <usize>load<i16>(uppers + (r << 1)), lower = <usize>load<i16>(lowers + (r << 1)), foot = <usize>load<i16>(feet + (r << 1));
    const lk = lockAt + r * 12, off = offsetAt + r * 12, rl = releaseAt + r * 12, bd = bendAt + r * 12;
    const rc = releaseClock + (r << 2), lc = lockClock + (r << 2);

    const inContact = p === 1;
    const contactStart = inContact && load<u8>(contacts + r) === 0;
    store<u8>(contacts + r, inContact ? 1 : 0);

    // 2. The animated leg (its model records stay the animated pose: legs are disjoint).
    const detached = load<u8>(detachedAt + r) === 1;
    const u = model + upper * RECORD + REC_T, k = model + lower * RECORD + REC_T, f = model + foot * RECORD + REC_T;
    const ux = load<f64>(u), uy = load<f64>(u, 8), uz = load<f64>(u, 16);
    const kx = load<f64>(k), ky = load<f64>(k, 8), kz = load<f64>(k, 16);
    const fx = load<f64>(f), fy = load<f64>(f, 8), fz = load<f64>(f, 16);
    const l1 = Math.sqrt((kx - ux) * (kx - ux) + (ky - uy) * (ky - uy) + (kz - uz) * (kz - uz));
    const l2 = Math.sqrt((fx - kx) * (fx - kx) + (fy - ky) * (fy - ky) + (fz - kz) * (fz - kz));
    const legLength = l1 + l2;
    const ax = fx * cos + fz * sin + tx, az = -fx * sin + fz * cos + tz;
    const hx = ux * cos + uz * sin + tx, hy = uy + ty, hz = -ux * sin + uz * cos + tz;
    const ay = fy + ty;
    if (!(ax - ax == 0 && az - az == 0 && hx - hx == 0 && hz - hz == 0 && legLength > 0 && legLength < Infinity)) {
      clearLeg(block, r);
      continue;
    }
    const animated = Math.sqrt((fx - ux) * (fx - ux) + (fy - uy) * (fy - uy) + (fz - uz) * (fz - uz));
    const limit: f64 = animated > FOOT_MAX_EXTENSION * legLength ? animated : FOOT_MAX_EXTENSION * legLength;
    const maxLift = FOOT_MAX_LIFT * legLength;

    // 3. Offset: the clocks advance, then the free offset decays from the last release.
    let isLocked = load<u8>(locked + r) === 1;
    const releaseNow = <f64>load<f32>(rc);
    if (releaseNow < blendTime) store<f32>(rc, <f32>(releaseNow + seconds));
    if (isLocked) {
      const lockNow = <f64>load<f32>(lc);
      if (lockNow < easeIn) store<f32>(lc, <f32>(lockNow + seconds));
    }
    const tr: f64 = blendTime > 0 ? <f64>load<f32>(rc) / blendTime : 1;
    const free: f64 = tr >= 1 ? 0 : tr <= 0 ? 1 : 1 - tr * tr * tr * (tr * (6 * tr - 15) + 10);
    let ofx = <f64>load<f32>(rl) * free, ofy = <f64>load<f32>(rl, 4) * free, ofz = <f64>load<f32>(rl, 8) * free;
    let lift: f64 = 0;
    if (isLocked) {
      const lockX = <f64>load<f32>(lk), lockZ = <f64>load<f32>(lk, 8);
      const dx = lockX - ax, dz = lockZ - az;
      const far = dx * dx + dz * dz > FOOT_UNLOCK_RADIUS * FOOT_UNLOCK_RADIUS * legLength * legLength;
      lift = liftToReach(lockX - hx, ay - hy, lockZ - hz, limit);
      const unreachable = !(lift <= maxLift);
      if (!inContact || far || unreachable) {
        isLocked = false;
        store<u8>(locked + r, 0);
        store<u8>(hold + r, far || unreachable ? 1 : 0);
        const o0 = load<f32>(off), o1 = load<f32>(off, 4), o2 = load<f32>(off, 8);
        store<f32>(rl, o0);
        store<f32>(rl, o1, 4);
        store<f32>(rl, o2, 8);
        store<f32>(rc, 0);
        ofx = <f64>o0;
        ofy = <f64>o1;
        ofz = <f64>o2;
      }
    }
    if (!isLocked && inContact) {
      if (contactStart) store<u8>(hold + r, 0);
      if (load<u8>(hold + r) === 1 && ofx * ofx + ofz * ofz <= FOOT_REPLANT_RADIUS * FOOT_REPLANT_RADIUS * legLength * legLength) store<u8>(hold + r, 0);
      const lx = ax + ofx, lz = az + ofz;
      lift = liftToReach(lx - hx, ay - hy, lz - hz, limit);
      if (load<u8>(hold + r) === 0 && lift <= maxLift) {
        isLocked = true;
        store<u8>(locked + r, 1);
        store<f32>(lk, <f32>lx);
        store<f32>(lk, <f32>(ay + ofy), 4);
        store<f32>(lk, <f32>lz, 8);
        store<f32>(lc, 0);
      }
    }
    let ox = ofx, oy = ofy, oz = ofz;
    if (isLocked) {
      const v: f64 = easeIn > 0 ? <f64>load<f32>(lc) / easeIn : 1;
      const e: f64 = v >= 1 ? 1 : v <= 0 ? 0 : v * v * v * (v * (6 * v - 15) + 10);
      const lockY: f64 = lift > ofy ? lift : ofy;
      ox = ofx + e * (<f64>load<f32>(lk) - ax - ofx);
      oy = ofy + e * (lockY - ofy);
      oz = ofz + e * (<f64>load<f32>(lk, 8) - az - ofz);
    }
    store<f32>(off, <f32>ox);
    store<f32>(off, <f32>oy, 4);
    store<f32>(off, <f32>oz, 8);
    if (ox == 0 && oy == 0 && oz == 0) continue; // free and settled: the animated pose, bit for bit

    // 4. IK toward the target, in model space: p' = R⁻¹·(a + w·o − t).
    const px = ax + weight * ox - tx, pz = az + weight * oz - tz;
    let qx = px * cos - pz * sin, qy = fy + weight * oy, qz = px * sin + pz * cos;
    const gx = qx - ux, gy = qy - uy, gz = qz - uz;
    const reach = Math.sqrt(gx * gx + gy * gy + gz * gz);
    if (reach > limit) {
      const scale = limit / reach;
      qx = ux + gx * scale; qy = uy + gy * scale; qz = uz + gz * scale;
    }
    if (!(qx - qx == 0 && qz - qz == 0)) {
      clearLeg(block, r);
      continue;
    }
    // The pole: the knee's bend direction, the part of k − u across the hip → foot line.
    const ax2 = fx - ux, ay2 = fy - uy, az2 = fz - uz;
    const along: f64 = animated > 0 ? ((kx - ux) * ax2 + (ky - uy) * ay2 + (kz - uz) * az2) / (animated * animated) : 0;
    let bx = kx - ux - ax2 * along, by = ky - uy - ay2 * along, bz = kz - uz - az2 * along;
    const bl = Math.sqrt(bx * bx + by * by + bz * bz);
    if (bl > STRAIGHT_SINE * l1) {
      bx /= bl; by /= bl; bz /= bl;
      store<f32>(bd, <f32>bx);
      store<f32>(bd, <f32>by, 4);
      store<f32>(bd, <f32>bz, 8);
    } else {
      bx = <f64>load<f32>(bd); by = <f64>load<f32>(bd, 4); bz = <f64>load<f32>(bd, 8);
    }
    // Staged: the IK and corrections run per pair of legs once every leg's lock is decided
    // (legs are disjoint, so no leg's decision reads another's corrections).
    store<f64>(stage, ux, S_ROOT); store<f64>(stage, uy, S_ROOT + 8); store<f64>(stage, uz, S_ROOT + 16);
    store<f64>(stage, kx, S_MID); store<f64>(stage, ky, S_MID + 8); store<f64>(stage, kz, S_MID + 16);
    store<f64>(stage, fx, S_END); store<f64>(stage, fy, S_END + 8); store<f64>(stage, fz, S_END + 16);
    store<f64>(stage, qx, S_TARGET); store<f64>(stage, qy, S_TARGET + 8); store<f64>(stage, qz, S_TARGET + 16);
    store<f64>(stage, kx + legLength * bx, S_POLE); store<f64>(stage, ky + legLength * by, S_POLE + 8); store<f64>(stage, kz + legLength * bz, S_POLE + 16);
    store<f64>(stage, 1, S_PENDING);
  }
  return solveStaged(block, eid, parents, 0);
}

/** The first leg from `from` on whose IK is staged, or `legs`. */
function nextStaged(params: usize, from: i32, legs: i32): i32 {
  let leg = from;
  while (leg < legs && load<f64>(params + P_STAGE + <usize>leg * STAGE, S_PENDING) !== 1) leg++;
  return leg;
}

/**
 * The staged legs of `eid` from leg `from` on, two at a time (assembly/footLockPair.ts), in leg
 * order: each solved, turned and (if detached) its foot moved. Returns −1 when all are done, or
 * the first leg whose solve is one of the special cases, with its IK block written at
 * `params + P_IK` and nothing of it or a later leg applied: the caller solves it with
 * `solveTwoBoneIk`, calls {@link footLockTurn}, then {@link footLockLegs} from the next leg.
 */
function solveStaged(block: usize, eid: i32, parents: usize, from: i32): i32 {
  const params = ptr(block, B_PARAMS), model = ptr(block, B_MODEL);
  const legs = <i32>load<u8>(ptr(block, B_LEGS) + <usize>eid);
  const localOff = ptr(block, B_LOCAL) + <usize>eid * ptr(block, B_POSE_ROW);
  const uppers = ptr(block, B_UPPER), lowers = ptr(block, B_LOWER), feet = ptr(block, B_FOOT), detachedAt = ptr(block, B_DETACHED);
  const row = <usize>(eid * FOOT_LEGS);
  const pair = params + P_PAIR;
  let a = nextStaged(params, from, legs);
  while (a < legs) {
    const b = nextStaged(params, a + 1, legs);
    const alone = b >= legs;
    const sa = params + P_STAGE + <usize>a * STAGE, sb = alone ? sa : params + P_STAGE + <usize>b * STAGE;
    const special = solvePair(pair, sa, sb);
    if ((special & 1) !== 0) return handBack(params, sa, a);
    const writeB = !alone && (special & 2) === 0;
    const ra = row + <usize>a, rb = alone ? ra : row + <usize>b;
    const ua = <usize>load<i16>(uppers + (ra << 1)), ka = <usize>load<i16>(lowers + (ra << 1)), fa = <usize>load<i16>(feet + (ra << 1));
    const ub = <usize>load<i16>(uppers + (rb << 1)), kb = <usize>load<i16>(lowers + (rb << 1)), fb = <usize>load<i16>(feet + (rb << 1));
    const detachedA = load<u8>(detachedAt + ra) === 1, detachedB = load<u8>(detachedAt + rb) === 1;
    turnPair(localOff, model, parents, ua, ka, fa, detachedA, pair, ub, kb, fb, detachedB, pair + PAIR_DELTA, writeB);
    if (detachedA) moveFoot(localOff, parents, model, fa, sa);
    if (alone) return -1;
    if (!writeB) return handBack(params, sb, b);
    if (detachedB) moveFoot(localOff, parents, model, fb, sb);
    a = nextStaged(params, b + 1, legs);
  }
  return -1;
}

/** Copies stage `stage` into the IK block at `params + P_IK` (weight 1) for `solveTwoBoneIk`; returns `leg`. */
function handBack(params: usize, stage: usize, leg: i32): i32 {
  memory.copy(params + P_IK, stage, S_PENDING);
  store<f64>(params + P_IK, 1, S_PENDING);
  return leg;
}

/**
 * The corrections of leg `leg` of `eid` from the deltas at `params + P_DELTA` (written by
 * `solveTwoBoneIk` after {@link footLockLegs} returned the leg), toward the target in the IK
 * block at `params + P_IK`.
 */
export function footLockTurn(block: usize, eid: i32, parents: usize, leg: i32): void {
  const params = ptr(block, B_PARAMS);
  const model = ptr(block, B_MODEL);
  const r = <usize>(eid * FOOT_LEGS + leg);
  const upper = <usize>load<i16>(ptr(block, B_UPPER) + (r << 1)), lower = <usize>load<i16>(ptr(block, B_LOWER) + (r << 1));
  const foot = <usize>load<i16>(ptr(block, B_FOOT) + (r << 1));
  const detached = load<u8>(ptr(block, B_DETACHED) + r) === 1;
  const localOff = ptr(block, B_LOCAL) + <usize>eid * ptr(block, B_POSE_ROW);
  const delta = params + P_DELTA;
  turnPair(localOff, model, parents, upper, lower, foot, detached, delta, upper, lower, foot, detached, delta, false);
  if (detached) moveFoot(localOff, parents, model, foot, params + P_IK);
}

/**
 * A detached foot's move onto its leg's target q from its animated model position f (the
 * stage or IK block at `stage`: end f, target q).
 */
function moveFoot(localOff: usize, parents: usize, model: usize, foot: usize, stage: usize): void {
  let mx = load<f64>(stage, S_TARGET) - load<f64>(stage, S_END), my = load<f64>(stage, S_TARGET + 8) - load<f64>(stage, S_END + 8);
  let mz = load<f64>(stage, S_TARGET + 16) - load<f64>(stage, S_END + 16);
  // t' = t + M_p⁻¹·(p' − f): the foot's parent does not move, so its rotation stays the animated one.
  const parent = load<i32>(parents + (foot << 2));
  if (parent >= 0) {
    // affine.invert (identity when singular), then affine.transformVector.
    const a = model + <usize>parent * RECORD;
    const a00 = load<f64>(a), a10 = load<f64>(a, 8), a20 = load<f64>(a, 16);
    const a01 = load<f64>(a, 24), a11 = load<f64>(a, 32), a21 = load<f64>(a, 40);
    const a02 = load<f64>(a, 48), a12 = load<f64>(a, 56), a22 = load<f64>(a, 64);
    const r0x = a11 * a22 - a21 * a12, r0y = a21 * a02 - a01 * a22, r0z = a01 * a12 - a11 * a02;
    const r1x = a12 * a20 - a22 * a10, r1y = a22 * a00 - a02 * a20, r1z = a02 * a10 - a12 * a00;
    const r2x = a10 * a21 - a20 * a11, r2y = a20 * a01 - a00 * a21, r2z = a00 * a11 - a10 * a01;
    const det = a00 * r0x + a10 * r0y + a20 * r0z;
    if (Math.abs(det) >= SINGULAR_DET) {
      const inv = 1 / det;
      const i00 = r0x * inv, i10 = r1x * inv, i20 = r2x * inv;
      const i01 = r0y * inv, i11 = r1y * inv, i21 = r2y * inv;
      const i02 = r0z * inv, i12 = r1z * inv, i22 = r2z * inv;
      const x = mx, y = my, z = mz;
      mx = i00 * x + i01 * y + i02 * z;
      my = i10 * x + i11 * y + i12 * z;
      mz = i20 * x + i21 * y + i22 * z;
    }
  }
  const t = localOff + foot * POSE;
  const nx = <f64>load<f32>(t) + mx, ny = <f64>load<f32>(t, 4) + my, nz = <f64>load<f32>(t, 8) + mz;
  if (nx - nx == 0 && ny - ny == 0 && nz - nz == 0) {
    store<f32>(t, <f32>nx);
    store<f32>(t, <f32>ny, 4);
    store<f32>(t, <f32>nz, 8);
  }
}

/** A leg whose pose went non-finite: free, no offset (footLockSystem's `clearLeg`). */
function clearLeg(block: usize, r: usize): void {
  store<u8>(ptr(block, B_LOCKED) + r, 0);
  store<u8>(ptr(block, B_HOLD) + r, 0);
  const o = ptr(block, B_OFFSET) + r * 12, rl = ptr(block, B_RELEASE) + r * 12;
  store<f32>(o, 0); store<f32>(o, 0, 4); store<f32>(o, 0, 8);
  store<f32>(rl, 0); store<f32>(rl, 0, 4); store<f32>(rl, 0, 8);
}

/** How far (≥ 0) a foot (dx, dy, dz) from the hip must rise for the hip to reach it within `limit` (footLockSystem's `liftToReach`). */
// @ts-ignore: decorator
@inline function liftToReach(dx: f64, dy: f64, dz: f64, limit: f64): f64 {
  const h2 = dx * dx + dz * dz;
  let lift: f64 = 0;
  if (!(h2 <= limit * limit)) lift = Infinity;
  else if (h2 + dy * dy > limit * limit) {
    const y = -Math.sqrt(limit * limit - h2);
    lift = y > dy ? y - dy : 0;
  }
  return lift;
}

/** src/math/jointList.ts `markPath` on i32 lists and parents. */
function markPath(list: usize, slot: usize, parents: usize, joint: i32, count: i32): i32 {
  const first = count;
  let j = joint;
  while (j >= 0 && load<i32>(slot + (<usize>j << 2)) === 0) {
    store<i32>(slot + (<usize>j << 2), 1);
    store<i32>(list + (<usize>count << 2), j);
    count++;
    j = load<i32>(parents + (<usize>j << 2));
  }
  for (let a = first, b = count - 1; a < b; a++, b--) {
    const t = load<i32>(list + (<usize>a << 2));
    store<i32>(list + (<usize>a << 2), load<i32>(list + (<usize>b << 2)));
    store<i32>(list + (<usize>b << 2), t);
  }
  return count;
}

/**
 * src/math/composeModel.ts `composeFloat64` with rotations, over the joints `list[0 .. count)`:
 * the model matrix (3×4) and rotation of each into its record, the same products in the same order.
 */
function composeList(model: usize, local: usize, parents: usize, list: usize, count: i32): void {
  for (let k = 0; k < count; k++) {
    const j = <usize>load<i32>(list + (<usize>k << 2));
    const l = local + j * POSE;
    const o = model + j * RECORD;
    const x = <f64>load<f32>(l, POSE_Q), y = <f64>load<f32>(l, POSE_Q + 4), z = <f64>load<f32>(l, POSE_Q + 8), w = <f64>load<f32>(l, POSE_Q + 12);
    const sx = <f64>load<f32>(l, POSE_S), sy = <f64>load<f32>(l, POSE_S + 4), sz = <f64>load<f32>(l, POSE_S + 8);
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const l00 = (1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
    const l01 = (xy - wz) * sy, l11 = (1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
    const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (1 - (xx + yy)) * sz;
    const ltx = <f64>load<f32>(l), lty = <f64>load<f32>(l, 4), ltz = <f64>load<f32>(l, 8);
    const parent = load<i32>(parents + (j << 2));
    if (parent < 0) {
      store<f64>(o, l00); store<f64>(o, l10, 8); store<f64>(o, l20, 16);
      store<f64>(o, l01, 24); store<f64>(o, l11, 32); store<f64>(o, l21, 40);
      store<f64>(o, l02, 48); store<f64>(o, l12, 56); store<f64>(o, l22, 64);
      store<f64>(o, ltx, 72); store<f64>(o, lty, 80); store<f64>(o, ltz, 88);
      store<f64>(o, x, 96); store<f64>(o, y, 104); store<f64>(o, z, 112); store<f64>(o, w, 120);
      continue;
    }
    // C = C_parent · L, the (x, y) rows of each column two lanes at a time (f64x2), z on its own:
    // the same products and sums in the same order as the scalar form, so the same doubles.
    const p = model + <usize>parent * RECORD;
    const p0 = v128.load(p), p1 = v128.load(p, 24), p2 = v128.load(p, 48), pt = v128.load(p, 72);
    const p20 = load<f64>(p, 16), p21 = load<f64>(p, 40), p22 = load<f64>(p, 64);
    v128.store(o, f64x2.add(f64x2.add(f64x2.mul(p0, f64x2.splat(l00)), f64x2.mul(p1, f64x2.splat(l10))), f64x2.mul(p2, f64x2.splat(l20))));
    store<f64>(o, p20 * l00 + p21 * l10 + p22 * l20, 16);
    v128.store(o, f64x2.add(f64x2.add(f64x2.mul(p0, f64x2.splat(l01)), f64x2.mul(p1, f64x2.splat(l11))), f64x2.mul(p2, f64x2.splat(l21))), 24);
    store<f64>(o, p20 * l01 + p21 * l11 + p22 * l21, 40);
    v128.store(o, f64x2.add(f64x2.add(f64x2.mul(p0, f64x2.splat(l02)), f64x2.mul(p1, f64x2.splat(l12))), f64x2.mul(p2, f64x2.splat(l22))), 48);
    store<f64>(o, p20 * l02 + p21 * l12 + p22 * l22, 64);
    v128.store(o, f64x2.add(f64x2.add(f64x2.add(f64x2.mul(p0, f64x2.splat(ltx)), f64x2.mul(p1, f64x2.splat(lty))), f64x2.mul(p2, f64x2.splat(ltz))), pt), 72);
    store<f64>(o, p20 * ltx + p21 * lty + p22 * ltz + load<f64>(p, 88), 88);
    const ax = load<f64>(p, 96), ay = load<f64>(p, 104), az = load<f64>(p, 112), aw = load<f64>(p, 120);
    store<f64>(o, aw * x + ax * w + ay * z - az * y, 96);
    store<f64>(o, aw * y - ax * z + ay * w + az * x, 104);
    store<f64>(o, aw * z + ax * y - ay * x + az * w, 112);
    store<f64>(o, aw * w - ax * x - ay * y - az * z, 120);
  }
}
