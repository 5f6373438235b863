/**
 * bitanim's WebAssembly kernels (AssemblyScript, 128-bit SIMD), compiled by `npm run build:wasm`
 * (scripts/buildWasm.mjs) into `kernels.wasm` (imports a plain memory) and
 * `kernels-shared.wasm` (imports a shared memory, for threaded worlds). They run directly on
 * the world's pools: every pointer is a byte offset into the imported memory, the `byteOffset`
 * of a pool's typed array plus the entity's row. The JavaScript side is src/wasm/.
 *
 * Precision (docs/wasm.md): `skin`/`skinEntries`, `sampleClip` and `sampleBound` (between
 * frames), the two-layer case of `blendOverride`, `blendOverrideMasked`, `blendOverrideLayered` and `applyAdditive`
 * compute in float32 four lanes at a time (`f32x4`), within 1e-5 of the JavaScript path per
 * palette element (1e-6 × the pool's magnitude per local pose element), not its bits. The rest of `blendOverride` keeps the JavaScript path's numbers, bit for bit: every product and sum is an f64
 * operation in the same order as in src/math/composeModel.ts and src/systems/skinSystem.ts
 * (no fused multiply-add, no reassociation), two lanes at a time (`f64x2`), and each result
 * is rounded to float32 once when stored, as a Float32Array store rounds it. A sum padded
 * with a lane of its own adds −0, which leaves every value (−0 included) unchanged.
 *
 * Layouts (src/math/layout.ts): a joint pose is 10 float32 `tx ty tz qx qy qz qw sx sy sz`;
 * a matrix 12 float32 column-major `m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz`. A
 * skeleton's copy (src/wasm/kernels.ts `copySkeleton`): parents as i32, the inverse bind
 * matrices as in the skeleton (float32, 48 bytes a joint), the rest pose.
 */

import { sampleReduced } from './reduced';

// Byte offsets inside one record.
const POSE_BYTES: usize = 40;
const MATRIX_BYTES: usize = 48;

/** −0 in lane 0, for sums whose lane 0 has no term left to add. */
// @ts-ignore: decorator
@inline function zeroLow(t: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(-0.0), 1, t);
}

/** Two float32 at `ptr` as an f64x2. */
// @ts-ignore: decorator
@inline function load2(ptr: usize, offset: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(ptr + offset));
}

/** An f64x2 rounded to float32 and stored as two consecutive float32 at `ptr`. */
// @ts-ignore: decorator
@inline function store2(ptr: usize, offset: usize, v: v128): v128 {
  const f = f32x4.demote_f64x2_zero(v);
  v128.store64_lane(ptr + offset, f, 0);
  return f;
}

/**
 * A matrix's four columns (x y z in lanes 0–2, lane 3 not stored) as 12 consecutive float32 at
 * `ptr`: three whole-column stores, each lane 3 overwritten by the next, and the last column's
 * three lanes on their own (so nothing past the matrix is written).
 */
// @ts-ignore: decorator
@inline function storeMatrix(ptr: usize, c0: v128, c1: v128, c2: v128, ct: v128): void {
  v128.store(ptr, c0, 0);
  v128.store(ptr, c1, 12);
  v128.store(ptr, c2, 24);
  v128.store64_lane(ptr, ct, 0, 36);
  v128.store32_lane(ptr, ct, 2, 44);
}

/**
 * Skinning of one character (src/systems/skinSystem.ts `skinEntities` per character), in
 * float32 four lanes at a time (`f32x4`): `model` = local → model over `count` joints in parent
 * order (C = C_parent · L, each column of C three splat multiply-adds of the parent's columns),
 * then `palette` = model · inverse bind (likewise). Not the JavaScript path's bits (which
 * computes in doubles and rounds once on store): within float32 rounding of it (docs/wasm.md).
 * `local`, `model`, `palette` point at the character's rows of LocalPose, ModelPose and
 * SkinPalette; `parents` (i32) and `bind` (the inverse bind matrices, float32, column-major as
 * in the skeleton) at its skeleton's copy in the kernel area.
 */
export function skin(local: usize, model: usize, palette: usize, parents: usize, bind: usize, count: i32): void {
  let c0 = f32x4.splat(0), c1 = c0, c2 = c0, ct = c0;
  for (let j = 0; j < count; j++) {
    const l = local + <usize>j * POSE_BYTES;
    const o = model + <usize>j * MATRIX_BYTES;
    // L = T·R·S (affine.fromSQT)
    const t = v128.load(l, 0);
    const x = load<f32>(l, 12), y = load<f32>(l, 16), z = load<f32>(l, 20), w = load<f32>(l, 24);
    const sx = load<f32>(l, 28), sy = load<f32>(l, 32), sz = load<f32>(l, 36);
    const x2 = x + x, y2 = y + y, z2 = z + z;
    const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
    const wx = w * x2, wy = w * y2, wz = w * z2;
    const l00 = (<f32>1 - (yy + zz)) * sx, l10 = (xy + wz) * sx, l20 = (xz - wy) * sx;
    const l01 = (xy - wz) * sy, l11 = (<f32>1 - (xx + zz)) * sy, l21 = (yz + wx) * sy;
    const l02 = (xz + wy) * sz, l12 = (yz - wx) * sz, l22 = (<f32>1 - (xx + yy)) * sz;
    const parent = load<i32>(parents + (<usize>j << 2));

    if (parent < 0) {
      c0 = f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(l00), 1, l10), 2, l20);
      c1 = f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(l01), 1, l11), 2, l21);
      c2 = f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(l02), 1, l12), 2, l22);
      ct = t;
    } else {
      // The parent's columns: the last joint's still in registers when it is the parent (a
      // chain; loading them back would wait for the stores just issued), else from its matrix.
      let p0 = c0, p1 = c1, p2 = c2, pt = ct;
      if (parent != j - 1) {
        const p = model + <usize>parent * MATRIX_BYTES;
        // The parent's columns (lane 3: the next column's x, or the next matrix's: never stored)
        p0 = v128.load(p, 0); p1 = v128.load(p, 12); p2 = v128.load(p, 24); pt = v128.load(p, 36);
      }
      c0 = f32x4.add(f32x4.add(f32x4.mul(p0, f32x4.splat(l00)), f32x4.mul(p1, f32x4.splat(l10))), f32x4.mul(p2, f32x4.splat(l20)));
      c1 = f32x4.add(f32x4.add(f32x4.mul(p0, f32x4.splat(l01)), f32x4.mul(p1, f32x4.splat(l11))), f32x4.mul(p2, f32x4.splat(l21)));
      c2 = f32x4.add(f32x4.add(f32x4.mul(p0, f32x4.splat(l02)), f32x4.mul(p1, f32x4.splat(l12))), f32x4.mul(p2, f32x4.splat(l22)));
      ct = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(p0, v128.shuffle<f32>(t, t, 0, 0, 0, 0)), f32x4.mul(p1, v128.shuffle<f32>(t, t, 1, 1, 1, 1))), f32x4.mul(p2, v128.shuffle<f32>(t, t, 2, 2, 2, 2))), pt);
    }
    storeMatrix(o, c0, c1, c2, ct);

    // K = C · B⁻¹ (skinSystem's computeSkinPalette): column c of K = Σ_r C_r · B(r, c)
    const b = bind + <usize>j * MATRIX_BYTES;
    const k0 = f32x4.add(f32x4.add(f32x4.mul(c0, v128.load32_splat(b, 0)), f32x4.mul(c1, v128.load32_splat(b, 4))), f32x4.mul(c2, v128.load32_splat(b, 8)));
    const k1 = f32x4.add(f32x4.add(f32x4.mul(c0, v128.load32_splat(b, 12)), f32x4.mul(c1, v128.load32_splat(b, 16))), f32x4.mul(c2, v128.load32_splat(b, 20)));
    const k2 = f32x4.add(f32x4.add(f32x4.mul(c0, v128.load32_splat(b, 24)), f32x4.mul(c1, v128.load32_splat(b, 28))), f32x4.mul(c2, v128.load32_splat(b, 32)));
    const kt = f32x4.add(f32x4.add(f32x4.add(f32x4.mul(c0, v128.load32_splat(b, 36)), f32x4.mul(c1, v128.load32_splat(b, 40))), f32x4.mul(c2, v128.load32_splat(b, 44))), ct);
    storeMatrix(palette + <usize>j * MATRIX_BYTES, k0, k1, k2, kt);
  }
}

/**
 * Skinning of the update-list entries `[first, last)` of a chunk in one call: per entry, the
 * character `eid = eids[entry]` (i32), its skeleton id `skeletonOf[eid]` and joint count
 * `jointCountOf[eid]` (i32 rows of Character), and the skeleton's copy from this thread's
 * table of `tableIds` (parents, bind) i32 pointer pairs (0: not there) — then {@link skin} on
 * the character's rows (`poseRow` / `matrixRow` bytes per character; its model matrices at
 * `model + eid × modelRow`: `modelRow` 0 puts every character's in one scratch row, for a world
 * without ModelPose). Returns the first entry
 * it could not skin (an id out of the table or not in it), `last` when it did them all; the
 * caller handles that entry and calls again after it.
 */
export function skinEntries(
  eids: usize, first: i32, last: i32, skeletonOf: usize, jointCountOf: usize, table: usize, tableIds: i32,
  local: usize, model: usize, palette: usize, poseRow: usize, matrixRow: usize, modelRow: usize,
): i32 {
  for (let entry = first; entry < last; entry++) {
    const eid = <usize>load<i32>(eids + (<usize>entry << 2));
    const id = load<i32>(skeletonOf + (eid << 2));
    if (<u32>id >= <u32>tableIds) return entry;
    const row = table + (<usize>id << 3);
    const parents = <usize>load<i32>(row);
    if (parents == 0) return entry;
    skin(local + eid * poseRow, model + eid * modelRow, palette + eid * matrixRow, parents, <usize>load<i32>(row, 4), load<i32>(jointCountOf + (eid << 2)));
  }
  return last;
}

/** `bytes` bytes from `src` to `dst` (`memory.copy`, bulk memory): a pose into a history slot (inertializeSystem). */
export function copyBytes(dst: usize, src: usize, bytes: usize): void {
  memory.copy(dst, src, bytes);
}

/** Bytes before a clip's frames in its kernel-area record: f64 frame rate, i32 frame count, i32 joint count. */
const CLIP_HEADER: usize = 16;

/** f64x2 (lo, hi). */
// @ts-ignore: decorator
@inline function pair(lo: f64, hi: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(lo), 1, hi);
}

/** The dot product of two f32x4 in every lane. */
// @ts-ignore: decorator
@inline function dot4(a: v128, b: v128): v128 {
  const m = f32x4.mul(a, b);
  const h = f32x4.add(m, v128.shuffle<f32>(m, m, 2, 3, 0, 1));
  return f32x4.add(h, v128.shuffle<f32>(h, h, 1, 0, 3, 2));
}

/**
 * The lane sums of four vectors of products, lane n that of `mn`, each summed as {@link dot4}
 * sums its products, `(x + z) + (y + w)`: four dot products with dot4's bits.
 */
// @ts-ignore: decorator
@inline function sums4(m0: v128, m1: v128, m2: v128, m3: v128): v128 {
  const h01 = f32x4.add(v128.shuffle<f32>(m0, m1, 0, 1, 4, 5), v128.shuffle<f32>(m0, m1, 2, 3, 6, 7));
  const h23 = f32x4.add(v128.shuffle<f32>(m2, m3, 0, 1, 4, 5), v128.shuffle<f32>(m2, m3, 2, 3, 6, 7));
  return f32x4.add(v128.shuffle<f32>(h01, h23, 0, 2, 4, 6), v128.shuffle<f32>(h01, h23, 1, 3, 5, 7));
}

/** The weight past the frame {@link framesToLerp} returned. */
let frameAlpha: f64 = 0;

/**
 * The samplers' common start, at `load<f64>(time)` seconds of the clip at `clip`: a compressed
 * clip's record (its joint count negated) is sampled by {@link sampleCompressed}, a reduced
 * clip's (its frame count −1 too) by assembly/reduced.ts, a dense clip's frame copied when the
 * time is on it (`sampleClipInto`'s index: clamped to the first and last frames, NaN to the
 * first) — then 0, the sample is in `out`; else the frame before the time (`poseBytes` a
 * frame's bytes), its weight past it in {@link frameAlpha}, for the caller to lerp.
 */
// @ts-ignore: decorator
@inline function framesToLerp(out: usize, clip: usize, time: usize, poseBytes: usize): usize {
  if (load<i32>(clip, 12) < 0) {
    if (load<i32>(clip, 8) < 0) sampleReduced(out, clip, time);
    else sampleCompressed(out, clip, time);
    return 0;
  }
  const frameCount = load<i32>(clip, 8);
  const position = load<f64>(time) * load<f64>(clip);
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0;
    alpha = 0;
  } else if (frame >= <f64>(frameCount - 1)) {
    frame = <f64>(frameCount - 1);
    alpha = 0;
  }
  const a0 = clip + CLIP_HEADER + <usize>(<i32>frame) * poseBytes;
  if (alpha == 0) {
    memory.copy(out, a0, poseBytes);
    return 0;
  }
  frameAlpha = alpha;
  return a0;
}

/**
 * Samples a dense clip without a binding (src/assets/sampleClip.ts `sampleClipInto`) at the time
 * `load<f64>(time)` into the layer pose at `out`: frame index and alpha as there, `memory.copy`
 * of the frame when alpha is 0 (the JavaScript path's bits), else per joint T and S by lerp
 * (`a·β + b·α`) and Q by the hemisphere-fixed lerp (a·b < 0: α negated on Q, `(−b)·α = b·(−α)`),
 * normalized by `1 / sqrt(|q|²)` — in float32 (`f32x4`), within float32 rounding of the
 * JavaScript path, not its bits (docs/wasm.md: precision). `clip` points at the clip's record
 * in the kernel area (src/wasm/kernels.ts `copyClip`). A record whose joint count is negative is
 * a compressed clip's (`copyCompressedClip`): {@link sampleCompressed} samples it; with its frame
 * count −1 too, a reduced clip's (src/wasm/reducedCopy.ts): assembly/reduced.ts samples it.
 */
export function sampleClip(out: usize, clip: usize, time: usize): void {
  const poseBytes = <usize>load<i32>(clip, 12) * POSE_BYTES;
  const a0 = framesToLerp(out, clip, time, poseBytes);
  if (a0 == 0) return;
  const alpha = frameAlpha;
  // float32 four lanes at a time: T (+ qx) from float 0, Q from float 3, (qw +) S from float 6;
  // stored T, then S, then Q over the lanes the other two wrote unnormalized.
  const af = <f32>alpha;
  const va = f32x4.splat(af), vb = f32x4.splat(<f32>(1 - alpha)), vn = f32x4.splat(-af);
  const one = f32x4.splat(1);
  const end = a0 + poseBytes;
  let a = a0, o = out;
  // Four joints at a time share their dot products' shuffles, one square root and one division
  // (lane by lane the values dot4 gives each joint, so the same bits as the loop below).
  for (; a + 4 * POSE_BYTES <= end; a += 4 * POSE_BYTES, o += 4 * POSE_BYTES) {
    const a1 = a + POSE_BYTES, a2 = a + 2 * POSE_BYTES, a3 = a + 3 * POSE_BYTES;
    const aq0 = v128.load(a, 12), aq1 = v128.load(a1, 12), aq2 = v128.load(a2, 12), aq3 = v128.load(a3, 12);
    const bq0 = v128.load(a + poseBytes, 12), bq1 = v128.load(a1 + poseBytes, 12);
    const bq2 = v128.load(a2 + poseBytes, 12), bq3 = v128.load(a3 + poseBytes, 12);
    const flip = f32x4.lt(sums4(f32x4.mul(aq0, bq0), f32x4.mul(aq1, bq1), f32x4.mul(aq2, bq2), f32x4.mul(aq3, bq3)), f32x4.splat(0));
    const q0 = f32x4.add(f32x4.mul(aq0, vb), f32x4.mul(bq0, v128.bitselect(vn, va, v128.shuffle<f32>(flip, flip, 0, 0, 0, 0))));
    const q1 = f32x4.add(f32x4.mul(aq1, vb), f32x4.mul(bq1, v128.bitselect(vn, va, v128.shuffle<f32>(flip, flip, 1, 1, 1, 1))));
    const q2 = f32x4.add(f32x4.mul(aq2, vb), f32x4.mul(bq2, v128.bitselect(vn, va, v128.shuffle<f32>(flip, flip, 2, 2, 2, 2))));
    const q3 = f32x4.add(f32x4.mul(aq3, vb), f32x4.mul(bq3, v128.bitselect(vn, va, v128.shuffle<f32>(flip, flip, 3, 3, 3, 3))));
    lerpTS(o, a, poseBytes, va, vb);
    lerpTS(o + POSE_BYTES, a1, poseBytes, va, vb);
    lerpTS(o + 2 * POSE_BYTES, a2, poseBytes, va, vb);
    lerpTS(o + 3 * POSE_BYTES, a3, poseBytes, va, vb);
    const inv = f32x4.div(one, f32x4.sqrt(sums4(f32x4.mul(q0, q0), f32x4.mul(q1, q1), f32x4.mul(q2, q2), f32x4.mul(q3, q3))));
    v128.store(o, f32x4.mul(q0, v128.shuffle<f32>(inv, inv, 0, 0, 0, 0)), 12);
    v128.store(o, f32x4.mul(q1, v128.shuffle<f32>(inv, inv, 1, 1, 1, 1)), 12 + POSE_BYTES);
    v128.store(o, f32x4.mul(q2, v128.shuffle<f32>(inv, inv, 2, 2, 2, 2)), 12 + 2 * POSE_BYTES);
    v128.store(o, f32x4.mul(q3, v128.shuffle<f32>(inv, inv, 3, 3, 3, 3)), 12 + 3 * POSE_BYTES);
  }
  for (; a < end; a += POSE_BYTES, o += POSE_BYTES) {
    const rq = lerpJoint(o, a, poseBytes, va, vb, vn);
    v128.store(o, f32x4.mul(rq, f32x4.div(one, f32x4.sqrt(dot4(rq, rq)))), 12);
  }
}

/**
 * {@link sampleClip}'s lerp of the joint at `a` toward the one a frame (`poseBytes`) later: T
 * and S stored at `o`, the unnormalized quaternion returned (stored over their lanes later).
 */
// @ts-ignore: decorator
@inline function lerpJoint(o: usize, a: usize, poseBytes: usize, va: v128, vb: v128, vn: v128): v128 {
  const b = a + poseBytes;
  const aq = v128.load(a, 12), bq = v128.load(b, 12);
  const s = v128.bitselect(vn, va, f32x4.lt(dot4(aq, bq), f32x4.splat(0)));
  lerpTS(o, a, poseBytes, va, vb);
  return f32x4.add(f32x4.mul(aq, vb), f32x4.mul(bq, s));
}

/** {@link sampleClip}'s lerp of T and S (floats 0–3 and 6–9 of the joint at `a`), stored at `o`. */
// @ts-ignore: decorator
@inline function lerpTS(o: usize, a: usize, poseBytes: usize, va: v128, vb: v128): void {
  const b = a + poseBytes;
  v128.store(o, f32x4.add(f32x4.mul(v128.load(a, 0), vb), f32x4.mul(v128.load(b, 0), va)), 0);
  v128.store(o, f32x4.add(f32x4.mul(v128.load(a, 24), vb), f32x4.mul(v128.load(b, 24), va)), 24);
}

/**
 * {@link sampleClip} with `sampleClipInto`'s bits at any time: between frames a joint's ten floats
 * lerped in doubles as five `f64x2` pairs (`a·β + b·α`; the hemisphere fix negates α on the
 * quaternion lanes, `(−b)·α = b·(−α)` exactly; the dot product summed left to right as there;
 * the lanes that share a pair with a quaternion lane multiplied by 1 when those take their norm),
 * each rounded to float32 once when stored. Reduced and compressed records as `sampleClip` (their
 * samplers give the JavaScript samplers' bits). A transition's velocity blends run on it: the
 * difference of two samples 1 ms apart, where float32 arithmetic's rounding would weigh
 * (docs/wasm.md).
 */
export function sampleClipExact(out: usize, clip: usize, time: usize): void {
  const poseBytes = <usize>load<i32>(clip, 12) * POSE_BYTES;
  const a0 = framesToLerp(out, clip, time, poseBytes);
  if (a0 == 0) return;
  const alpha = frameAlpha;
  const beta = 1 - alpha;
  const vb = f64x2.splat(beta), va = f64x2.splat(alpha);
  const negative = -alpha;
  const one = f64x2.splat(1);
  for (let a = a0, end = a0 + poseBytes, o = out; a < end; a += POSE_BYTES, o += POSE_BYTES) {
    const b = a + poseBytes;
    const a01 = load2(a, 0), a23 = load2(a, 8), a45 = load2(a, 16), a67 = load2(a, 24), a89 = load2(a, 32);
    const b01 = load2(b, 0), b23 = load2(b, 8), b45 = load2(b, 16), b67 = load2(b, 24), b89 = load2(b, 32);
    // ax·bx + ay·by + az·bz + aw·bw, left to right (floats 3 4 5 6)
    const p23 = f64x2.mul(a23, b23), p45 = f64x2.mul(a45, b45), p67 = f64x2.mul(a67, b67);
    const dot = f64x2.extract_lane(p23, 1) + f64x2.extract_lane(p45, 0) + f64x2.extract_lane(p45, 1) + f64x2.extract_lane(p67, 0);
    const s = select<f64>(negative, alpha, dot < 0);
    const r01 = f64x2.add(f64x2.mul(a01, vb), f64x2.mul(b01, va));
    const r23 = f64x2.add(f64x2.mul(a23, vb), f64x2.mul(b23, pair(alpha, s)));
    const r45 = f64x2.add(f64x2.mul(a45, vb), f64x2.mul(b45, f64x2.splat(s)));
    const r67 = f64x2.add(f64x2.mul(a67, vb), f64x2.mul(b67, pair(s, alpha)));
    const r89 = f64x2.add(f64x2.mul(a89, vb), f64x2.mul(b89, va));
    const qx = f64x2.extract_lane(r23, 1), qy = f64x2.extract_lane(r45, 0), qz = f64x2.extract_lane(r45, 1), qw = f64x2.extract_lane(r67, 0);
    const inv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    store2(o, 0, r01);
    store2(o, 8, f64x2.mul(r23, f64x2.replace_lane(one, 1, inv)));
    store2(o, 16, f64x2.mul(r45, f64x2.splat(inv)));
    store2(o, 24, f64x2.mul(r67, f64x2.replace_lane(one, 0, inv)));
    store2(o, 32, r89);
  }
}

/** The two-layer blend's T and S of the joints at `a` and `b` (weights `vwa`, `vwb`, then times `inv` = 1/W), stored at `o`. */
// @ts-ignore: decorator
@inline function blendTS(o: usize, a: usize, b: usize, vwa: v128, vwb: v128, inv: v128): void {
  v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 0), vwa), f32x4.mul(v128.load(b, 0), vwb)), inv), 0);
  v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 24), vwa), f32x4.mul(v128.load(b, 24), vwb)), inv), 24);
}

/**
 * The override blend of one character's unmasked override layers into its local pose
 * (src/math/blendPose.ts `blendOverrideLayers` with no masks): per joint, over the layers whose
 * bit is set in `layers` (slot order), w = weight (skipped unless > 0), sums from +0 of T·w,
 * S·w and Q·w with Q flipped (w negated on the Q lanes: exact) into the first contributing
 * quaternion's hemisphere, the rest pose joining with θ − W below the threshold θ
 * (`load<f64>(threshold)`), then T and S times 1/W, Q times 1/sqrt(|q|²). Layer n's pose is at
 * `poses + n·layerBytes`, its weight the f32 at `weights + 4n`; `rest` is the skeleton's rest
 * pose (float32 poses) in the kernel area. Two contributing layers whose weights reach θ take a
 * written-out path (measured at 10,000 × 64 joints, blend phase alone: 14.4 ns per joint
 * against 42.5 for the per-joint layer loop and 47 for JavaScript).
 */
export function blendOverride(
  out: usize, poses: usize, layerBytes: usize, weights: usize, layers: i32, jointCount: i32, rest: usize, threshold: usize,
): void {
  const theta = load<f64>(threshold);
  const zero = f64x2.splat(0);
  // Without masks the weights are the same at every joint: find the contributing layers once.
  let count = 0, total: f64 = 0, wa: f64 = 0, wb: f64 = 0;
  let pa: usize = 0, pb: usize = 0;
  for (let n = 0; n < 32 && (layers >>> n) != 0; n++) {
    if (((layers >>> n) & 1) == 0) continue;
    const w = <f64>load<f32>(weights + (<usize>n << 2));
    if (!(w > 0)) continue;
    if (count == 0) { wa = w; pa = poses + <usize>n * layerBytes; }
    else if (count == 1) { wb = w; pb = poses + <usize>n * layerBytes; }
    total += w;
    count++;
  }
  if (count == 2 && !(total < theta)) {
    // Two layers, the rest pose out of it (blendOverrideLayers' most common case): the layer
    // loop written out, the same operations in the same order (sums from +0).
    const inv = f32x4.splat(<f32>(1 / total));
    const vwa = f32x4.splat(<f32>wa), vwb = f32x4.splat(<f32>wb);
    const sign = f32x4.splat(-0.0), zero = f32x4.splat(0);
    const end = <usize>jointCount * POSE_BYTES;
    let k: usize = 0;
    // Four joints at a time share their dot products' shuffles and one square root (lane by
    // lane dot4's values: the same bits as the loop below).
    for (; k + 4 * POSE_BYTES <= end; k += 4 * POSE_BYTES) {
      const a = pa + k, b = pb + k, o = out + k;
      const aq0 = v128.load(a, 12), aq1 = v128.load(a, 12 + POSE_BYTES), aq2 = v128.load(a, 12 + 2 * POSE_BYTES), aq3 = v128.load(a, 12 + 3 * POSE_BYTES);
      const bq0 = v128.load(b, 12), bq1 = v128.load(b, 12 + POSE_BYTES), bq2 = v128.load(b, 12 + 2 * POSE_BYTES), bq3 = v128.load(b, 12 + 3 * POSE_BYTES);
      const flip = v128.and(f32x4.lt(sums4(f32x4.mul(aq0, bq0), f32x4.mul(aq1, bq1), f32x4.mul(aq2, bq2), f32x4.mul(aq3, bq3)), zero), sign);
      const q0 = f32x4.add(f32x4.mul(aq0, vwa), f32x4.mul(bq0, v128.xor(vwb, v128.shuffle<f32>(flip, flip, 0, 0, 0, 0))));
      const q1 = f32x4.add(f32x4.mul(aq1, vwa), f32x4.mul(bq1, v128.xor(vwb, v128.shuffle<f32>(flip, flip, 1, 1, 1, 1))));
      const q2 = f32x4.add(f32x4.mul(aq2, vwa), f32x4.mul(bq2, v128.xor(vwb, v128.shuffle<f32>(flip, flip, 2, 2, 2, 2))));
      const q3 = f32x4.add(f32x4.mul(aq3, vwa), f32x4.mul(bq3, v128.xor(vwb, v128.shuffle<f32>(flip, flip, 3, 3, 3, 3))));
      blendTS(o, a, b, vwa, vwb, inv);
      blendTS(o + POSE_BYTES, a + POSE_BYTES, b + POSE_BYTES, vwa, vwb, inv);
      blendTS(o + 2 * POSE_BYTES, a + 2 * POSE_BYTES, b + 2 * POSE_BYTES, vwa, vwb, inv);
      blendTS(o + 3 * POSE_BYTES, a + 3 * POSE_BYTES, b + 3 * POSE_BYTES, vwa, vwb, inv);
      const norm = f32x4.sqrt(sums4(f32x4.mul(q0, q0), f32x4.mul(q1, q1), f32x4.mul(q2, q2), f32x4.mul(q3, q3)));
      v128.store(o, f32x4.div(q0, v128.shuffle<f32>(norm, norm, 0, 0, 0, 0)), 12);
      v128.store(o, f32x4.div(q1, v128.shuffle<f32>(norm, norm, 1, 1, 1, 1)), 12 + POSE_BYTES);
      v128.store(o, f32x4.div(q2, v128.shuffle<f32>(norm, norm, 2, 2, 2, 2)), 12 + 2 * POSE_BYTES);
      v128.store(o, f32x4.div(q3, v128.shuffle<f32>(norm, norm, 3, 3, 3, 3)), 12 + 3 * POSE_BYTES);
    }
    for (; k < end; k += POSE_BYTES) {
      const a = pa + k, b = pb + k, o = out + k;
      const aq = v128.load(a, 12), bq = v128.load(b, 12);
      const qb = v128.xor(vwb, v128.and(f32x4.lt(dot4(aq, bq), zero), sign));
      const rq = f32x4.add(f32x4.mul(aq, vwa), f32x4.mul(bq, qb));
      blendTS(o, a, b, vwa, vwb, inv);
      v128.store(o, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
    }
    return;
  }
  for (let j = 0; j < jointCount; j++) {
    const k = <usize>j * POSE_BYTES;
    let total: f64 = 0;
    let t01 = zero, t23 = zero, q45 = zero, q67 = zero, s89 = zero;
    let rx: f64 = 0, ry: f64 = 0, rz: f64 = 0, rw: f64 = 0;
    for (let n = 0; n < 32; n++) {
      if ((layers >>> n) == 0) break;
      if (((layers >>> n) & 1) == 0) continue;
      const w = <f64>load<f32>(weights + (<usize>n << 2));
      if (!(w > 0)) continue;
      const p = poses + <usize>n * layerBytes + k;
      const a01 = load2(p, 0), a23 = load2(p, 8), a45 = load2(p, 16), a67 = load2(p, 24), a89 = load2(p, 32);
      const x = f64x2.extract_lane(a23, 1), y = f64x2.extract_lane(a45, 0), z = f64x2.extract_lane(a45, 1), s = f64x2.extract_lane(a67, 0);
      let sw = w;
      if (total == 0) {
        rx = x; ry = y; rz = z; rw = s;
      } else if (rx * x + ry * y + rz * z + rw * s < 0) {
        sw = -w;
      }
      total += w;
      const vw = f64x2.splat(w);
      t01 = f64x2.add(t01, f64x2.mul(a01, vw));
      t23 = f64x2.add(t23, f64x2.mul(a23, pair(w, sw)));
      q45 = f64x2.add(q45, f64x2.mul(a45, f64x2.splat(sw)));
      q67 = f64x2.add(q67, f64x2.mul(a67, pair(sw, w)));
      s89 = f64x2.add(s89, f64x2.mul(a89, vw));
    }
    if (total < theta) {
      const w = theta - total;
      const p = rest + k;
      const a01 = load2(p, 0), a23 = load2(p, 8), a45 = load2(p, 16), a67 = load2(p, 24), a89 = load2(p, 32);
      const x = f64x2.extract_lane(a23, 1), y = f64x2.extract_lane(a45, 0), z = f64x2.extract_lane(a45, 1), s = f64x2.extract_lane(a67, 0);
      let sw = w;
      if (total > 0 && rx * x + ry * y + rz * z + rw * s < 0) sw = -w;
      total = theta;
      const vw = f64x2.splat(w);
      t01 = f64x2.add(t01, f64x2.mul(a01, vw));
      t23 = f64x2.add(t23, f64x2.mul(a23, pair(w, sw)));
      q45 = f64x2.add(q45, f64x2.mul(a45, f64x2.splat(sw)));
      q67 = f64x2.add(q67, f64x2.mul(a67, pair(sw, w)));
      s89 = f64x2.add(s89, f64x2.mul(a89, vw));
    }
    const inv = 1 / total;
    const qx = f64x2.extract_lane(t23, 1), qy = f64x2.extract_lane(q45, 0), qz = f64x2.extract_lane(q45, 1), qw = f64x2.extract_lane(q67, 0);
    const qInv = 1 / Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    const o = out + k;
    store2(o, 0, f64x2.mul(t01, f64x2.splat(inv)));
    store2(o, 8, f64x2.mul(t23, pair(inv, qInv)));
    store2(o, 16, f64x2.mul(q45, f64x2.splat(qInv)));
    store2(o, 24, f64x2.mul(q67, pair(qInv, inv)));
    store2(o, 32, f64x2.mul(s89, f64x2.splat(inv)));
  }
}

/** −0 in the lanes set (x y z w), +0 in the others: xor flips those lanes' signs. */
const SIGN_XYZ = f32x4(-0.0, -0.0, -0.0, 0.0);
const SIGN_YW = f32x4(0.0, -0.0, 0.0, -0.0);
const SIGN_ZW = f32x4(0.0, 0.0, -0.0, -0.0);
const SIGN_XW = f32x4(-0.0, 0.0, 0.0, -0.0);

/**
 * The Hamilton product p·q of two quaternions (x y z w in lanes 0–3), four lanes at a time:
 * p_w·q + p_x·(q_w, −q_z, q_y, −q_x) + p_y·(q_z, q_w, −q_x, −q_y) + p_z·(−q_y, q_x, q_w, −q_z),
 * the terms of src/math/quat.ts `multiply` regrouped by p's component.
 */
// @ts-ignore: decorator
@inline function quatMultiply(p: v128, q: v128): v128 {
  const a = f32x4.mul(v128.shuffle<f32>(p, p, 3, 3, 3, 3), q);
  const b = f32x4.mul(v128.shuffle<f32>(p, p, 0, 0, 0, 0), v128.xor(v128.shuffle<f32>(q, q, 3, 2, 1, 0), SIGN_YW));
  const c = f32x4.mul(v128.shuffle<f32>(p, p, 1, 1, 1, 1), v128.xor(v128.shuffle<f32>(q, q, 2, 3, 0, 1), SIGN_ZW));
  const d = f32x4.mul(v128.shuffle<f32>(p, p, 2, 2, 2, 2), v128.xor(v128.shuffle<f32>(q, q, 1, 0, 3, 2), SIGN_XW));
  return f32x4.add(f32x4.add(a, b), f32x4.add(c, d));
}

/**
 * The override blend of one character's override layers, masked or not, into its local pose
 * (src/math/blendPose.ts `blendOverrideLayers`), in float32 four lanes at a time (`f32x4`):
 * per joint j, over the layers whose bit is set in `layers` (slot order), w = weight × mask[j]
 * (the weight alone where the slot's mask pointer is 0; skipped unless > 0), sums from +0 of
 * T·w, S·w and Q·w with w negated on Q when the quaternion is in the other hemisphere from the
 * first contributing one, the rest pose joining with θ − W below the threshold θ
 * (`load<f64>(threshold)`, flipped likewise when a layer contributed), then T and S times 1/W,
 * Q divided by its norm; stored T, S, then Q over the lanes the other two wrote. Layer n's pose
 * is at `poses + n·layerBytes`, its weight the f32 at `weights + 4n`, its mask's copy (one f32
 * per joint, in the kernel area) at the i32 pointer at `masks + 4n`; `rest` is the skeleton's
 * rest pose in the kernel area. Within float32 rounding of the JavaScript path (which sums in
 * doubles), not its bits (docs/wasm.md). Two layers of weight > 0 (a walk and a masked upper
 * body) take a written-out joint loop: per joint, both contributing and reaching θ blend as
 * `blendOverride`'s two-layer case, one alone at or above θ is copied with Q renormalized
 * (`q / |q|`: the blend of one layer), any other joint the general per-layer loop.
 */
export function blendOverrideMasked(
  out: usize, poses: usize, layerBytes: usize, weights: usize, masks: usize, layers: i32, jointCount: i32, rest: usize, threshold: usize,
): void {
  const theta = <f32>load<f64>(threshold);
  // The slots whose weight is > 0 (a mask's weights are in [0, 1], so no other slot contributes
  // at any joint): with two, the joint loop below is written out for them.
  let count = 0, na = 0, nb = 0;
  for (let n = 0; n < 32 && (layers >>> n) != 0; n++) {
    if (((layers >>> n) & 1) == 0 || !(load<f32>(weights + (<usize>n << 2)) > 0)) continue;
    if (count == 0) na = n;
    else if (count == 1) nb = n;
    count++;
  }
  if (count != 2) {
    for (let j = 0, k: usize = 0; j < jointCount; j++, k += POSE_BYTES) maskedJoint(out + k, poses + k, layerBytes, weights, masks, layers, j, rest + k, theta);
    return;
  }
  // Two layers A and B: per joint, both contributing and reaching θ is the two-layer blend of
  // blendOverride; one alone at or above θ is its pose (Q renormalized); anything else (the rest
  // pose joining) is the general joint.
  const pa = poses + <usize>na * layerBytes, pb = poses + <usize>nb * layerBytes;
  const wa0 = load<f32>(weights + (<usize>na << 2)), wb0 = load<f32>(weights + (<usize>nb << 2));
  const ma = <usize>load<i32>(masks + (<usize>na << 2)), mb = <usize>load<i32>(masks + (<usize>nb << 2));
  const sign = f32x4.splat(-0.0), zero = f32x4.splat(0), one = f32x4.splat(1);
  for (let j = 0, k: usize = 0; j < jointCount; j++, k += POSE_BYTES) {
    const wa = ma == 0 ? wa0 : wa0 * load<f32>(ma + (<usize>j << 2));
    const wb = mb == 0 ? wb0 : wb0 * load<f32>(mb + (<usize>j << 2));
    const o = out + k;
    if (wa > 0 && wb > 0 && !(wa + wb < theta)) {
      const a = pa + k, b = pb + k;
      const aq = v128.load(a, 12), bq = v128.load(b, 12);
      const vwa = f32x4.splat(wa), vwb = f32x4.splat(wb), inv = f32x4.div(one, f32x4.splat(wa + wb));
      const qb = v128.xor(vwb, v128.and(f32x4.lt(dot4(aq, bq), zero), sign));
      const rq = f32x4.add(f32x4.mul(aq, vwa), f32x4.mul(bq, qb));
      v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 0), vwa), f32x4.mul(v128.load(b, 0), vwb)), inv), 0);
      v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 24), vwa), f32x4.mul(v128.load(b, 24), vwb)), inv), 24);
      v128.store(o, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
    } else if ((wa > 0 && !(wb > 0) && !(wa < theta)) || (wb > 0 && !(wa > 0) && !(wb < theta))) {
      const p = (wa > 0 ? pa : pb) + k;
      const q = v128.load(p, 12);
      v128.store(o, v128.load(p, 0), 0);
      v128.store(o, v128.load(p, 24), 24);
      v128.store(o, f32x4.div(q, f32x4.sqrt(dot4(q, q))), 12);
    } else {
      maskedJoint(o, poses + k, layerBytes, weights, masks, layers, j, rest + k, theta);
    }
  }
}

/**
 * One joint j of {@link blendOverrideMasked}, any number of layers: `out`, `poses` and `rest`
 * point at the joint's pose in the output, in layer 0's pose and in the rest pose.
 */
// @ts-ignore: decorator
@inline function maskedJoint(out: usize, poses: usize, layerBytes: usize, weights: usize, masks: usize, layers: i32, j: i32, rest: usize, theta: f32): void {
  const zero = f32x4.splat(0), sign = f32x4.splat(-0.0), one = f32x4.splat(1);
  let total: f32 = 0;
  let rt = zero, rq = zero, rs = zero, first = zero;
  for (let n = 0; n < 32; n++) {
    if ((layers >>> n) == 0) break;
    if (((layers >>> n) & 1) == 0) continue;
    let w = load<f32>(weights + (<usize>n << 2));
    const mask = <usize>load<i32>(masks + (<usize>n << 2));
    if (mask != 0) w *= load<f32>(mask + (<usize>j << 2));
    if (!(w > 0)) continue;
    const p = poses + <usize>n * layerBytes;
    const q = v128.load(p, 12);
    if (total == 0) first = q;
    const vw = f32x4.splat(w);
    const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(first, q), zero), sign));
    rt = f32x4.add(rt, f32x4.mul(v128.load(p, 0), vw));
    rq = f32x4.add(rq, f32x4.mul(q, qw));
    rs = f32x4.add(rs, f32x4.mul(v128.load(p, 24), vw));
    total += w;
  }
  if (total < theta) {
    // `first` is 0 when no layer contributed: its dot product is never < 0, nothing flips.
    const q = v128.load(rest, 12);
    const vw = f32x4.splat(theta - total);
    const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(first, q), zero), sign));
    rt = f32x4.add(rt, f32x4.mul(v128.load(rest, 0), vw));
    rq = f32x4.add(rq, f32x4.mul(q, qw));
    rs = f32x4.add(rs, f32x4.mul(v128.load(rest, 24), vw));
    total = theta;
  }
  const inv = f32x4.div(one, f32x4.splat(total));
  v128.store(out, f32x4.mul(rt, inv), 0);
  v128.store(out, f32x4.mul(rs, inv), 24);
  v128.store(out, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
}

/**
 * The override blend with blend modes (src/math/blendPose.ts `blendLayeredLayers`; the rule of
 * src/components/layerRules.ts), in float32 four lanes at a time (`f32x4`): `count` steps read as
 * i32 at `steps` (slot n = step & 0xff, kind = step >>> 8: 0 average, 1 starts a `'layer'` group,
 * 2 joins it). Per joint j, a = weight × mask[j] of slot n (the weight at `weights + 4n`, the mask
 * pointer at `masks + 4n`, 0: unmasked; a ≤ 0 changes nothing): an average adds a·T, a·S, ±a·Q
 * (Q in the hemisphere of the first quaternion added, or of the blend so far once a group has
 * closed) to the sums and a to W; a group sums its members alike (hemisphere of the sums so far,
 * or of its first member when W = 0), and when it ends the sums become keep/W × sums + group sums
 * and W = keep + A (keep = max(0, 1 − A), A the group's total), or the group's sums and W = A when
 * W = 0. Then the rest pose joins with θ − W below θ (`load<f64>(threshold)`), T and S times 1/W,
 * Q divided by its norm; stored T, S, then Q. Layer n's pose is at `poses + n·layerBytes`.
 * Within float32 rounding of the JavaScript path (which sums in doubles), not its bits. One
 * layer over one base (steps: an average, then a layer) takes {@link layerOverBase}.
 */
export function blendOverrideLayered(
  out: usize, poses: usize, layerBytes: usize, weights: usize, masks: usize, steps: usize, count: i32, jointCount: i32, rest: usize, threshold: usize,
): void {
  const theta = <f32>load<f64>(threshold);
  const zero = f32x4.splat(0), sign = f32x4.splat(-0.0), one = f32x4.splat(1);
  if (count == 2 && (load<i32>(steps) >>> 8) == 0 && (load<i32>(steps, 4) >>> 8) == 1) {
    layerOverBase(out, poses, layerBytes, weights, masks, load<i32>(steps) & 0xff, load<i32>(steps, 4) & 0xff, jointCount, rest, theta);
    return;
  }
  for (let j = 0, k: usize = 0; j < jointCount; j++, k += POSE_BYTES) {
    let total: f32 = 0, group: f32 = 0;
    let rt = zero, rq = zero, rs = zero, first = zero;
    let gt = zero, gq = zero, gs = zero, h = zero;
    let open = false;
    for (let i = 0; i <= count; i++) {
      const step = i < count ? load<i32>(steps + (<usize>i << 2)) : 0;
      const kind = step >>> 8;
      if (open && kind != 2) {
        // The group ends: the normalized blend below, lerped toward the group's sums by A.
        open = false;
        if (group > 0) {
          if (total > 0) {
            const keep: f32 = group < 1 ? 1 - group : 0;
            const f = f32x4.splat(keep / total);
            rt = f32x4.add(f32x4.mul(rt, f), gt);
            rq = f32x4.add(f32x4.mul(rq, f), gq);
            rs = f32x4.add(f32x4.mul(rs, f), gs);
            total = keep + group;
          } else {
            rt = gt; rq = gq; rs = gs;
            total = group;
          }
          first = rq;
        }
      }
      if (i == count) break;
      const n = step & 0xff;
      if (kind == 1) {
        open = true;
        group = 0;
        gt = zero; gq = zero; gs = zero;
        h = rq;
      }
      let w = load<f32>(weights + (<usize>n << 2));
      const mask = <usize>load<i32>(masks + (<usize>n << 2));
      if (mask != 0) w *= load<f32>(mask + (<usize>j << 2));
      if (!(w > 0)) continue;
      const p = poses + <usize>n * layerBytes + k;
      const q = v128.load(p, 12);
      const vw = f32x4.splat(w);
      if (open) {
        if (total == 0 && group == 0) h = q;
        const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(h, q), zero), sign));
        gt = f32x4.add(gt, f32x4.mul(v128.load(p, 0), vw));
        gq = f32x4.add(gq, f32x4.mul(q, qw));
        gs = f32x4.add(gs, f32x4.mul(v128.load(p, 24), vw));
        group += w;
        continue;
      }
      if (total == 0) first = q;
      const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(first, q), zero), sign));
      rt = f32x4.add(rt, f32x4.mul(v128.load(p, 0), vw));
      rq = f32x4.add(rq, f32x4.mul(q, qw));
      rs = f32x4.add(rs, f32x4.mul(v128.load(p, 24), vw));
      total += w;
    }
    if (total < theta) {
      // `first` is 0 when no layer contributed: its dot product is never < 0, nothing flips.
      const r = rest + k;
      const q = v128.load(r, 12);
      const vw = f32x4.splat(theta - total);
      const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(first, q), zero), sign));
      rt = f32x4.add(rt, f32x4.mul(v128.load(r, 0), vw));
      rq = f32x4.add(rq, f32x4.mul(q, qw));
      rs = f32x4.add(rs, f32x4.mul(v128.load(r, 24), vw));
      total = theta;
    }
    const inv = f32x4.div(one, f32x4.splat(total));
    const o = out + k;
    v128.store(o, f32x4.mul(rt, inv), 0);
    v128.store(o, f32x4.mul(rs, inv), 24);
    v128.store(o, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
  }
}

/**
 * {@link blendOverrideLayered} for one `'layer'` layer (slot `nb`) over one base (slot `na`),
 * written out (src/math/blendPose.ts `blendLayerOverBase`): per joint, a_A and a_B as there; where
 * both contribute a_A becomes max(0, 1 − a_B); then the two blend as `blendOverrideMasked`'s two
 * layers do (both contributing and reaching θ: the two-layer blend; one alone at or above θ: its
 * pose, Q renormalized; otherwise the sums with the rest pose joining).
 */
function layerOverBase(out: usize, poses: usize, layerBytes: usize, weights: usize, masks: usize, na: i32, nb: i32, jointCount: i32, rest: usize, theta: f32): void {
  const pa = poses + <usize>na * layerBytes, pb = poses + <usize>nb * layerBytes;
  const wa0 = load<f32>(weights + (<usize>na << 2)), wb0 = load<f32>(weights + (<usize>nb << 2));
  const ma = <usize>load<i32>(masks + (<usize>na << 2)), mb = <usize>load<i32>(masks + (<usize>nb << 2));
  const sign = f32x4.splat(-0.0), zero = f32x4.splat(0), one = f32x4.splat(1);
  if (ma == 0 && mb == 0) {
    // No mask: every joint takes the same weights, so the same branch below; when that is the
    // two-layer blend, its weights and their sum's reciprocal are worked out once (the same
    // values as per joint).
    let wa = wa0;
    const wb = wb0;
    if (wa > 0 && wb > 0) wa = wb < 1 ? <f32>1 - wb : 0;
    if (wa > 0 && wb > 0 && !(wa + wb < theta)) {
      const vwa = f32x4.splat(wa), vwb = f32x4.splat(wb), inv = f32x4.div(one, f32x4.splat(wa + wb));
      for (let j = 0, k: usize = 0; j < jointCount; j++, k += POSE_BYTES) {
        const o = out + k, a = pa + k, b = pb + k;
        const aq = v128.load(a, 12), bq = v128.load(b, 12);
        const qb = v128.xor(vwb, v128.and(f32x4.lt(dot4(aq, bq), zero), sign));
        const rq = f32x4.add(f32x4.mul(aq, vwa), f32x4.mul(bq, qb));
        v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 0), vwa), f32x4.mul(v128.load(b, 0), vwb)), inv), 0);
        v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 24), vwa), f32x4.mul(v128.load(b, 24), vwb)), inv), 24);
        v128.store(o, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
      }
      return;
    }
  }
  for (let j = 0, k: usize = 0; j < jointCount; j++, k += POSE_BYTES) {
    let wa = ma == 0 ? wa0 : wa0 * load<f32>(ma + (<usize>j << 2));
    const wb = mb == 0 ? wb0 : wb0 * load<f32>(mb + (<usize>j << 2));
    if (wa > 0 && wb > 0) wa = wb < 1 ? <f32>1 - wb : 0;
    const o = out + k, a = pa + k, b = pb + k;
    if (wa > 0 && wb > 0 && !(wa + wb < theta)) {
      const aq = v128.load(a, 12), bq = v128.load(b, 12);
      const vwa = f32x4.splat(wa), vwb = f32x4.splat(wb), inv = f32x4.div(one, f32x4.splat(wa + wb));
      const qb = v128.xor(vwb, v128.and(f32x4.lt(dot4(aq, bq), zero), sign));
      const rq = f32x4.add(f32x4.mul(aq, vwa), f32x4.mul(bq, qb));
      v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 0), vwa), f32x4.mul(v128.load(b, 0), vwb)), inv), 0);
      v128.store(o, f32x4.mul(f32x4.add(f32x4.mul(v128.load(a, 24), vwa), f32x4.mul(v128.load(b, 24), vwb)), inv), 24);
      v128.store(o, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
    } else if ((wa > 0 && !(wb > 0) && !(wa < theta)) || (wb > 0 && !(wa > 0) && !(wb < theta))) {
      const p = wa > 0 ? a : b;
      const q = v128.load(p, 12);
      v128.store(o, v128.load(p, 0), 0);
      v128.store(o, v128.load(p, 24), 24);
      v128.store(o, f32x4.div(q, f32x4.sqrt(dot4(q, q))), 12);
    } else {
      let total: f32 = 0;
      let rt = zero, rq = zero, rs = zero, first = zero;
      if (wa > 0) {
        const vw = f32x4.splat(wa);
        first = v128.load(a, 12);
        rt = f32x4.mul(v128.load(a, 0), vw);
        rq = f32x4.mul(first, vw);
        rs = f32x4.mul(v128.load(a, 24), vw);
        total = wa;
      }
      if (wb > 0) {
        const q = v128.load(b, 12);
        if (total == 0) first = q;
        const vw = f32x4.splat(wb);
        const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(first, q), zero), sign));
        rt = f32x4.add(rt, f32x4.mul(v128.load(b, 0), vw));
        rq = f32x4.add(rq, f32x4.mul(q, qw));
        rs = f32x4.add(rs, f32x4.mul(v128.load(b, 24), vw));
        total += wb;
      }
      if (total < theta) {
        const r = rest + k;
        const q = v128.load(r, 12);
        const vw = f32x4.splat(theta - total);
        const qw = v128.xor(vw, v128.and(f32x4.lt(dot4(first, q), zero), sign));
        rt = f32x4.add(rt, f32x4.mul(v128.load(r, 0), vw));
        rq = f32x4.add(rq, f32x4.mul(q, qw));
        rs = f32x4.add(rs, f32x4.mul(v128.load(r, 24), vw));
        total = theta;
      }
      const inv = f32x4.div(one, f32x4.splat(total));
      v128.store(o, f32x4.mul(rt, inv), 0);
      v128.store(o, f32x4.mul(rs, inv), 24);
      v128.store(o, f32x4.div(rq, f32x4.sqrt(dot4(rq, rq))), 12);
    }
  }
}

/**
 * One additive layer applied to a character's pose in place (src/math/blendPose.ts
 * `applyAdditiveLayer`), in float32 four lanes at a time (`f32x4`): per joint j with
 * β = weight × mask[j] > 0 (the weight alone when `mask` is 0), from the layer pose S (`pose`)
 * and the reference R (`reference`, its copy in the kernel area), Q_D = Q_S·conj(Q_R),
 * Q_A = Q_D·Q_T negated when in the other hemisphere from Q_T, Q ← nlerp(Q_T, Q_A, β);
 * T ← T + β·(T_S − T_R); S ← S·(1 + β·(S_S / S_R − 1)), the ratio 1 where S_R is 0. `target`
 * is the character's local pose, `weight` points at the layer's f32 weight, `mask` at its
 * mask's copy (one f32 per joint). Stored T, S, then Q over the lanes the other two wrote.
 * Within float32 rounding of the JavaScript path (which computes in doubles), not its bits.
 */
export function applyAdditive(target: usize, pose: usize, reference: usize, weight: usize, mask: usize, jointCount: i32): void {
  const w = load<f32>(weight);
  const zero = f32x4.splat(0), one = f32x4.splat(1), sign = f32x4.splat(-0.0);
  for (let j = 0; j < jointCount; j++) {
    const beta = mask == 0 ? w : w * load<f32>(mask + (<usize>j << 2));
    if (!(beta > 0)) continue;
    const k = <usize>j * POSE_BYTES;
    const s = pose + k, r = reference + k, o = target + k;
    const tq = v128.load(o, 12);
    const d = quatMultiply(v128.load(s, 12), v128.xor(v128.load(r, 12), SIGN_XYZ));
    const a0 = quatMultiply(d, tq);
    const a = v128.xor(a0, v128.and(f32x4.lt(dot4(a0, tq), zero), sign));
    const vb = f32x4.splat(beta);
    const q = f32x4.add(f32x4.mul(tq, f32x4.splat(<f32>1 - beta)), f32x4.mul(a, vb));
    const tt = f32x4.add(v128.load(o, 0), f32x4.mul(vb, f32x4.sub(v128.load(s, 0), v128.load(r, 0))));
    const rs = v128.load(r, 24);
    const ratio = v128.bitselect(one, f32x4.div(v128.load(s, 24), rs), f32x4.eq(rs, zero));
    const ts = f32x4.mul(v128.load(o, 24), f32x4.add(one, f32x4.mul(vb, f32x4.sub(ratio, one))));
    v128.store(o, tt, 0);
    v128.store(o, ts, 24);
    v128.store(o, f32x4.div(q, f32x4.sqrt(dot4(q, q))), 12);
  }
}

/** Bytes before a binding's per-joint rows in its kernel-area record: i32 target joint count, padding. */
const BINDING_HEADER: usize = 16;
/** Bytes of a binding's per-joint row: i32 source joint (−1: unbound), i32 translation mode, f32 translation scale, padding. */
const BINDING_ROW: usize = 16;

/**
 * Samples a dense clip through a binding without `retarget` (a proportions-only binding:
 * src/assets/sampleClip.ts `sampleClipInto` with a binding) at the time `load<f64>(time)` into
 * the layer pose at `out`, in the binding target's joint order: per target joint, its source
 * joint's pose sampled as {@link sampleClip} does (the frame copied when alpha is 0, else T and S
 * lerped and Q nlerped in float32, `f32x4`), or the target's rest pose for an unbound joint;
 * then the translation by the joint's mode (src/math/retargetTranslation.ts): 0 the target's
 * rest translation, 1 the clip's, 2 the clip's × the joint's scale. At a frame the JavaScript
 * path's bits; between frames within float32 rounding of them. `clip` points at the clip's
 * record, `binding` at the binding's (src/wasm/kernels.ts `copyBinding`: the target joint
 * count, a row per target joint, then the target's rest pose). Written as pointer increments
 * with the alpha test hoisted out of the joint loop: the first version (indices times strides,
 * alpha tested per joint) ran 27–30 ns per joint under V8's optimizing tier against 16 under its
 * baseline one and 14 now (sampleClip: 7–9; RobotExpressive.glb's 43 joints, one shared core).
 */
export function sampleBound(out: usize, clip: usize, time: usize, binding: usize): void {
  const frameCount = load<i32>(clip, 8);
  const poseBytes = <usize>load<i32>(clip, 12) * POSE_BYTES;
  const jointCount = <usize>load<i32>(binding);
  const rows = binding + BINDING_HEADER;
  const rest = rows + jointCount * BINDING_ROW;
  const position = load<f64>(time) * load<f64>(clip);
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0;
    alpha = 0;
  } else if (frame >= <f64>(frameCount - 1)) {
    frame = <f64>(frameCount - 1);
    alpha = 0;
  }
  const a0 = clip + CLIP_HEADER + <usize>(<i32>frame) * poseBytes;
  const af = <f32>alpha;
  const va = f32x4.splat(af), vb = f32x4.splat(<f32>(1 - alpha)), vn = f32x4.splat(-af);
  const one = f32x4.splat(1);
  const interpolate = alpha != 0;
  for (let row = rows, o = out, r = rest, end = out + jointCount * POSE_BYTES; o < end; row += BINDING_ROW, o += POSE_BYTES, r += POSE_BYTES) {
    const source = load<i32>(row);
    if (source < 0) {
      v128.store(o, v128.load(r, 0), 0);
      v128.store(o, v128.load(r, 24), 24);
      v128.store(o, v128.load(r, 12), 12);
      continue;
    }
    const a = a0 + <usize>source * POSE_BYTES;
    let rt = v128.load(a, 0), rs = v128.load(a, 24), rq = v128.load(a, 12);
    if (interpolate) {
      const b = a + poseBytes;
      const bq = v128.load(b, 12);
      const s = v128.bitselect(vn, va, f32x4.lt(dot4(rq, bq), f32x4.splat(0)));
      rt = f32x4.add(f32x4.mul(rt, vb), f32x4.mul(v128.load(b, 0), va));
      rs = f32x4.add(f32x4.mul(rs, vb), f32x4.mul(v128.load(b, 24), va));
      const q = f32x4.add(f32x4.mul(rq, vb), f32x4.mul(bq, s));
      rq = f32x4.mul(q, f32x4.div(one, f32x4.sqrt(dot4(q, q))));
    }
    const mode = load<i32>(row, 4);
    if (mode == 0) rt = v128.load(r, 0);
    else if (mode == 2) rt = f32x4.mul(rt, v128.load32_splat(row, 8));
    v128.store(o, rt, 0);
    v128.store(o, rs, 24);
    v128.store(o, rq, 12);
  }
}

// Foot locking's per-character work (src/wasm/footLockWasm.ts calls it).
export { captureOffsets, writeSourcePast } from './capture';
export { footLockEntries, footLockLegs, footLockTurn } from './footLock';
export { addSpringOffsets, applyDeadBlend, applyDeadBlendCurves, applyQuinticCurveOffsets, applyQuinticOffsets, applySpringCurveOffsets, applySpringOffsets } from './offsets';

// A compressed clip's record (src/wasm/kernels.ts `copyCompressedClip`; the format:
// src/assets/compressedTracks.ts): CLIP_HEADER with the joint count negated, then the animated
// track count and the addresses of its arrays (i32 each).
const CC_TRACKS: usize = 16;
const CC_CLIP_RANGES: usize = 20; // per track, CC_TRACK_BYTES: per component the clip range's min and extent (f64)
const CC_SEGMENTS: usize = 24; // per segment and track, CC_SEGMENT_BYTES (below)
const CC_DATA: usize = 28; // u32 words (read as bytes)
const CC_STATIC: usize = 32; // a pose: every track that is not animated (rest or constant values), the others 0
const CC_VECTORS: usize = 36; // the animated translations and scales, CC_VECTOR_BYTES each (below)
const CC_ROTATIONS: usize = 40; // the animated rotations, two per CC_PAIR_BYTES record (below)
const CC_VECTOR_COUNT: usize = 44; // how many animated translations and scales
const CC_PAIRS: usize = 48; // how many rotation records
/** Bytes of an animated translation's or scale's entry: i32 its byte in the pose (j · 40, + 28 for a scale), i32 t · CC_SEGMENT_BYTES, i32 t · CC_TRACK_BYTES, padding. */
const CC_VECTOR_BYTES: usize = 16;
/**
 * Bytes of a record of two animated rotations (the last record repeats its first when the count
 * is odd): i32 each joint's pose offset (j · 40), i32 each track's segment-record offset
 * (t · CC_SEGMENT_BYTES), 16 bytes of padding; at 32 and 48 each rotation's swizzle from its
 * stored order (the three stored components, then the rebuilt one) to x y z w; then per
 * component the clip range's min and extent as f64x2 (track 0, track 1).
 */
const CC_PAIR_BYTES: usize = 160;
/** Bytes of a track's clip ranges: (min, extent) as f64 for each of its 3 components. */
const CC_TRACK_BYTES: usize = 48;
/**
 * Bytes of one segment's record of one track: u32 the first bit of its samples in the data,
 * u32 its bit rate b, u32 the code mask 2^b − 1, u32 3·b (a frame's bits), then per component
 * the two doubles of its segment range the decoder multiplies: m/255 and (x/255)·(1/(2^b − 1)).
 */
const CC_SEGMENT_BYTES: usize = 64;
/** log2 of CC_SEGMENT_BYTES. */
const CC_SEGMENT_SHIFT: usize = 6;
/** Byte offset of a pose's rotation. */
const POSE_Q_BYTES: usize = 12;

/** The `bits`-bit code at bit `p` of the bytes at `data`: one unaligned 32-bit read (a code of ≤ 24 bits starting anywhere in a byte is inside it). */
// @ts-ignore: decorator
@inline function code(data: usize, p: u32, mask: u32): i32 {
  return <i32>((load<u32>(data + <usize>(p >>> 3)) >>> (p & 7)) & mask);
}

/**
 * Component `k` of a track at two frames, as an f64x2 (lane 0 the frame before, lane 1 the one
 * after): the codes at bits `pa` and `pb` (masks `ma`, `mb`), dequantized with the segment
 * records `ra`, `rb` (m/255 and (x/255)·(1/(2^b − 1))) and the track's clip range at `tr` —
 * `clipMin + clipExtent · (m/255 + step · q)`, src/assets/compressedTracks.ts `decodeSample`'s
 * double arithmetic in the same order, lane by lane, so the same bits.
 */
// @ts-ignore: decorator
@inline function decode2(data: usize, pa: u32, ma: u32, pb: u32, mb: u32, ra: usize, rb: usize, tr: usize): v128 {
  const q = f64x2.convert_low_i32x4_s(i32x4.replace_lane(i32x4.splat(code(data, pa, ma)), 1, code(data, pb, mb)));
  const a = v128.load(ra), b = v128.load(rb);
  const m = v128.shuffle<f64>(a, b, 0, 2), x = v128.shuffle<f64>(a, b, 1, 3);
  return f64x2.add(v128.load64_splat(tr), f64x2.mul(v128.load64_splat(tr, 8), f64x2.add(m, f64x2.mul(x, q))));
}

/**
 * A translation or scale track (records `ra`, `rb`, clip ranges `tr`) at the two frames
 * (indices `ia`, `ib` in their segments) lerped with `w` = (β, α) — per component
 * `a·β + b·α` in doubles as the JavaScript decoder does — and rounded to float32: x y z in
 * lanes 0–2 of the result.
 */
// @ts-ignore: decorator
@inline function lerpTrack(data: usize, ra: usize, rb: usize, ia: u32, ib: u32, tr: usize, w: v128): v128 {
  const ba = load<u32>(ra, 4), bb = load<u32>(rb, 4), ma = load<u32>(ra, 8), mb = load<u32>(rb, 8);
  const pa = load<u32>(ra) + ia * load<u32>(ra, 12), pb = load<u32>(rb) + ib * load<u32>(rb, 12);
  const m0 = f64x2.mul(decode2(data, pa, ma, pb, mb, ra + 16, rb + 16, tr), w);
  const m1 = f64x2.mul(decode2(data, pa + ba, ma, pb + bb, mb, ra + 32, rb + 32, tr + 16), w);
  const m2 = f64x2.mul(decode2(data, pa + 2 * ba, ma, pb + 2 * bb, mb, ra + 48, rb + 48, tr + 32), w);
  const xy = f64x2.add(v128.shuffle<f64>(m0, m1, 0, 2), v128.shuffle<f64>(m0, m1, 1, 3));
  const z = f64x2.add(m2, v128.shuffle<f64>(m2, m2, 1, 0));
  return v128.shuffle<i64>(f32x4.demote_f64x2_zero(xy), f32x4.demote_f64x2_zero(z), 0, 2);
}

/**
 * Component `k` (byte `16·k` of the records) of two rotation tracks at one frame, as an f64x2
 * (lane n: track n): the codes `q0`, `q1` dequantized with their
 * segment records `r0`, `r1` and the two tracks' clip ranges `mn`, `ex` (lane n track n's) —
 * {@link decode2}'s arithmetic, two tracks instead of two frames.
 */
// @ts-ignore: decorator
@inline function decodeTracks(q0: i32, q1: i32, r0: usize, r1: usize, k: usize, mn: v128, ex: v128): v128 {
  const q = f64x2.convert_low_i32x4_s(i32x4.replace_lane(i32x4.splat(q0), 1, q1));
  const a = v128.load(r0 + 16 + k), b = v128.load(r1 + 16 + k);
  return f64x2.add(mn, f64x2.mul(ex, f64x2.add(v128.shuffle<f64>(a, b, 0, 2), f64x2.mul(v128.shuffle<f64>(a, b, 1, 3), q))));
}

/**
 * The dropped component of two rotations, lane by lane: √(1 − the others²), ≥ 0, 0 where that
 * is not > 0 (the JavaScript decoder's `an > 0 ? Math.sqrt(an) : 0`).
 */
// @ts-ignore: decorator
@inline function rebuilt(v0: v128, v1: v128, v2: v128, one: v128, zero: v128): v128 {
  const n = f64x2.sub(f64x2.sub(f64x2.sub(one, f64x2.mul(v0, v0)), f64x2.mul(v1, v1)), f64x2.mul(v2, v2));
  return v128.and(f64x2.sqrt(n), f64x2.gt(n, zero));
}

/**
 * Two animated rotations (the record at `pair`, CC_PAIR_BYTES) decoded at both frames and
 * nlerped into their poses at `out`: lane n is rotation n, so every operation is the
 * JavaScript decoder's in its order (the stored components, then the rebuilt one), lane by
 * lane; each result is placed by its record's swizzle. `sa`, `sb` are the two frames'
 * segments' records of track 0, `ia`, `ib` the frames' indices in them, `vbeta`, `valpha`,
 * `vnalpha` β, α and −α in both lanes; `same` (a constant where inlined) says the two frames
 * share a segment, so their ranges are read once.
 */
// @ts-ignore: decorator
@inline function rotationPair(
  out: usize, pair: usize, data: usize, sa: usize, sb: usize, ia: u32, ib: u32,
  vbeta: v128, valpha: v128, vnalpha: v128, one: v128, zero: v128, same: bool,
): void {
  const t0 = <usize>load<i32>(pair, 8), t1 = <usize>load<i32>(pair, 12);
  const ra0 = sa + t0, ra1 = sa + t1, rb0 = same ? ra0 : sb + t0, rb1 = same ? ra1 : sb + t1;
  const ba0 = load<u32>(ra0, 4), ba1 = load<u32>(ra1, 4), ma0 = load<u32>(ra0, 8), ma1 = load<u32>(ra1, 8);
  const pa0 = load<u32>(ra0) + ia * load<u32>(ra0, 12), pa1 = load<u32>(ra1) + ia * load<u32>(ra1, 12);
  const bb0 = same ? ba0 : load<u32>(rb0, 4), bb1 = same ? ba1 : load<u32>(rb1, 4);
  const mb0 = same ? ma0 : load<u32>(rb0, 8), mb1 = same ? ma1 : load<u32>(rb1, 8);
  const pb0 = load<u32>(rb0) + ib * load<u32>(rb0, 12), pb1 = load<u32>(rb1) + ib * load<u32>(rb1, 12);
  // The two tracks' clip ranges per component, (min, extent) as (track 0, track 1) pairs.
  const mn0 = v128.load(pair, 64), ex0 = v128.load(pair, 80), mn1 = v128.load(pair, 96), ex1 = v128.load(pair, 112), mn2 = v128.load(pair, 128), ex2 = v128.load(pair, 144);
  // A frame's first two codes from one 64-bit read (2·24 + 7 bits at most), the third on its own
  // (the read may pass the data's padding word into the record's next array: those bits are masked off).
  const wa0 = load<u64>(data + <usize>(pa0 >>> 3)) >>> <u64>(pa0 & 7), wa1 = load<u64>(data + <usize>(pa1 >>> 3)) >>> <u64>(pa1 & 7);
  const wb0 = load<u64>(data + <usize>(pb0 >>> 3)) >>> <u64>(pb0 & 7), wb1 = load<u64>(data + <usize>(pb1 >>> 3)) >>> <u64>(pb1 & 7);
  const a0 = decodeTracks(<i32>wa0 & ma0, <i32>wa1 & ma1, ra0, ra1, 0, mn0, ex0);
  const a1 = decodeTracks(<i32>(wa0 >>> <u64>ba0) & ma0, <i32>(wa1 >>> <u64>ba1) & ma1, ra0, ra1, 16, mn1, ex1);
  const a2 = decodeTracks(code(data, pa0 + 2 * ba0, ma0), code(data, pa1 + 2 * ba1, ma1), ra0, ra1, 32, mn2, ex2);
  const b0 = decodeTracks(<i32>wb0 & mb0, <i32>wb1 & mb1, rb0, rb1, 0, mn0, ex0);
  const b1 = decodeTracks(<i32>(wb0 >>> <u64>bb0) & mb0, <i32>(wb1 >>> <u64>bb1) & mb1, rb0, rb1, 16, mn1, ex1);
  const b2 = decodeTracks(code(data, pb0 + 2 * bb0, mb0), code(data, pb1 + 2 * bb1, mb1), rb0, rb1, 32, mn2, ex2);
  const ar = rebuilt(a0, a1, a2, one, zero), br = rebuilt(b0, b1, b2, one, zero);
  // The hemisphere fix: (−b)·α = b·(−α).
  const dot = f64x2.add(f64x2.add(f64x2.add(f64x2.mul(a0, b0), f64x2.mul(a1, b1)), f64x2.mul(a2, b2)), f64x2.mul(ar, br));
  const va = v128.bitselect(vnalpha, valpha, f64x2.lt(dot, zero));
  const q0 = f64x2.add(f64x2.mul(a0, vbeta), f64x2.mul(b0, va)), q1 = f64x2.add(f64x2.mul(a1, vbeta), f64x2.mul(b1, va));
  const q2 = f64x2.add(f64x2.mul(a2, vbeta), f64x2.mul(b2, va)), qr = f64x2.add(f64x2.mul(ar, vbeta), f64x2.mul(br, va));
  const inv = f64x2.div(one, f64x2.sqrt(f64x2.add(f64x2.add(f64x2.add(f64x2.mul(q0, q0), f64x2.mul(q1, q1)), f64x2.mul(q2, q2)), f64x2.mul(qr, qr))));
  // float32 (c0 c1 · ·) per component → (q0 q1 of rotation 0, of rotation 1), (q2 r …) → each
  // rotation's stored order, swizzled into x y z w.
  const lo = v128.shuffle<f32>(f32x4.demote_f64x2_zero(f64x2.mul(q0, inv)), f32x4.demote_f64x2_zero(f64x2.mul(q1, inv)), 0, 4, 1, 5);
  const hi = v128.shuffle<f32>(f32x4.demote_f64x2_zero(f64x2.mul(q2, inv)), f32x4.demote_f64x2_zero(f64x2.mul(qr, inv)), 0, 4, 1, 5);
  v128.store(out + <usize>load<i32>(pair), i8x16.swizzle(v128.shuffle<i64>(lo, hi, 0, 2), v128.load(pair, 32)), POSE_Q_BYTES);
  v128.store(out + <usize>load<i32>(pair, 4), i8x16.swizzle(v128.shuffle<i64>(lo, hi, 1, 3), v128.load(pair, 48)), POSE_Q_BYTES);
}

/**
 * Samples a compressed clip (src/assets/compressedTracks.ts `sampleCompressedInto`, without a
 * binding) at the time `load<f64>(time)` into the pose at `out`: the frames around the time
 * decoded from their own segments and interpolated in doubles as there (lerp; nlerp with the
 * hemisphere fix, the dropped rotation component rebuilt), stored as float32 — the JavaScript
 * decoder's bits. Default tracks read the rest pose copied with the record, constant ones their
 * values: the record's static pose (copied first) holds them. Two lanes (`f64x2`): an animated
 * translation or scale decodes its two frames in lanes 0 and 1, two animated rotations one in
 * each lane ({@link rotationPair}), each lane the JavaScript decoder's operations in its order.
 */
export function sampleCompressed(out: usize, clip: usize, time: usize): void {
  const frameCount = load<i32>(clip, 8);
  const jointCount = -load<i32>(clip, 12);
  const position = load<f64>(time) * load<f64>(clip);
  let frame = Math.floor(position);
  let alpha = position - frame;
  if (!(frame >= 0)) {
    frame = 0;
    alpha = 0;
  } else if (frame >= <f64>(frameCount - 1)) {
    frame = <f64>(frameCount - 1);
    alpha = 0;
  }
  const f0 = <i32>frame;
  const f1 = alpha == 0 ? f0 : f0 + 1;
  const beta = 1 - alpha;
  const data = <usize>load<i32>(clip, CC_DATA);
  const tracks = <usize>load<i32>(clip, CC_TRACKS), clipRanges = <usize>load<i32>(clip, CC_CLIP_RANGES);
  // The two frames' segments' records of track 0; track t's are CC_SEGMENT_BYTES · t on.
  const segments = <usize>load<i32>(clip, CC_SEGMENTS);
  const sa = segments + ((<usize>(f0 >> 4) * tracks) << CC_SEGMENT_SHIFT), sb = segments + ((<usize>(f1 >> 4) * tracks) << CC_SEGMENT_SHIFT);
  const ia = <u32>(f0 & 15), ib = <u32>(f1 & 15);
  const vbeta = f64x2.splat(beta);
  // What does not move, then the animated translations and scales over it (12 bytes each).
  memory.copy(out, <usize>load<i32>(clip, CC_STATIC), <usize>jointCount * POSE_BYTES);
  const w = pair(beta, alpha);
  const vectors = <usize>load<i32>(clip, CC_VECTORS);
  for (let at = vectors, end = vectors + <usize>load<i32>(clip, CC_VECTOR_COUNT) * CC_VECTOR_BYTES; at < end; at += CC_VECTOR_BYTES) {
    const t = <usize>load<i32>(at, 4), o = out + <usize>load<i32>(at);
    const v = lerpTrack(data, sa + t, sb + t, ia, ib, clipRanges + <usize>load<i32>(at, 8), w);
    v128.store64_lane(o, v, 0);
    v128.store32_lane(o, v, 2, 8);
  }
  // The animated rotations, two at a time (see rotationPair).
  const valpha = f64x2.splat(alpha), vnalpha = f64x2.splat(-alpha), one = f64x2.splat(1), zero = f64x2.splat(0);
  const pairs = <usize>load<i32>(clip, CC_ROTATIONS), end = pairs + <usize>load<i32>(clip, CC_PAIRS) * CC_PAIR_BYTES;
  if (sa == sb) {
    for (let at = pairs; at < end; at += CC_PAIR_BYTES) rotationPair(out, at, data, sa, sa, ia, ib, vbeta, valpha, vnalpha, one, zero, true);
  } else {
    for (let at = pairs; at < end; at += CC_PAIR_BYTES) rotationPair(out, at, data, sa, sb, ia, ib, vbeta, valpha, vnalpha, one, zero, false);
  }
}
