/**
 * Sampling a reduced (LOD) clip on the WebAssembly kernels: src/assets/sampleReduced.ts
 * `sampleReducedInto` and `sampleReduced16Into` (without a binding) over the clip's copy in the
 * kernel area (src/wasm/reducedCopy.ts `reducedRecord`): the same lookup (one table read and at
 * most one comparison per animated track), the same cubics in doubles in the same order, each
 * result rounded to float32 once when stored — the JavaScript samplers' bits. A rotation's four
 * curves run two at a time in f64x2 lanes (each lane the scalar operations, so the same bits);
 * translations and scales are scalar. A joint the clip keeps constant is one 40-byte copy.
 *
 * The record (byte offsets): f64 frame rate at 0, i32 −1 at 8 (a reduced record: `sampleClip`
 * sends it here), i32 −jointCount at 12 (negated: never bound on the kernels), i32 flags at 16
 * (1: 16-bit tracks, 2: a 16-bit lookup table), i32 animated tracks at 20, f32 end time at 24,
 * f64 buckets per second at 32, then the offsets from the record's start (i32) of the 32-bit
 * records (f32) at 40, the 16-bit records (`packed`) at 44, the lookup table at 48, the tracks'
 * starts (u32) at 52, the constants (f32) at 56, the joint masks (u8) at 60 and the joints'
 * first tracks (u32) at 64.
 */

const POSE: usize = 40, POSE_T: usize = 0, POSE_Q: usize = 12, POSE_S: usize = 28;
// jointMask bits (src/assets/ReducedTracks.ts TRACK_*).
const HAS_T: u8 = 1, HAS_Q: u8 = 2, HAS_S: u8 = 4, HAS_S1: u8 = 8, T16: u8 = 16, Q16: u8 = 32, S16: u8 = 64;
// Floats a 32-bit record takes (RECORD_STRIDE_*), 32-bit words a 16-bit one takes (PACKED_STRIDE_* / 2).
const T3: i32 = 13, Q4: i32 = 17, S1: i32 = 5, H3: i32 = 8, H4: i32 = 10;
const FLAG_PACKED = 1, FLAG_TABLE16 = 2;

// @ts-ignore: decorator
@inline function f(base: usize, index: i32): f64 {
  return <f64>load<f32>(base + (<usize>index << 2));
}

// @ts-ignore: decorator
@inline function put(o: usize, offset: usize, value: f64): void {
  store<f32>(o + offset, <f32>value);
}

/** The lookup table's entry `index` (u16 or u32). */
// @ts-ignore: decorator
@inline function entryAt(table: usize, table16: bool, index: i32): i32 {
  return table16 ? <i32>load<u16>(table + (<usize>index << 1)) : <i32>load<u32>(table + (<usize>index << 2));
}

/** Three channels of a 32-bit record at float `r` of `records` at u = t − τ, into `o`. */
// @ts-ignore: decorator
@inline function cubic3(o: usize, records: usize, r: i32, u: f64): void {
  put(o, 0, f(records, r + 1) + u * (f(records, r + 2) + u * (f(records, r + 3) + u * f(records, r + 4))));
  put(o, 4, f(records, r + 5) + u * (f(records, r + 6) + u * (f(records, r + 7) + u * f(records, r + 8))));
  put(o, 8, f(records, r + 9) + u * (f(records, r + 10) + u * (f(records, r + 11) + u * f(records, r + 12))));
}

/** One 16-bit channel: lo + step·(q_a + s·(q_b + s·(q_c + s·q_d))) from the code pairs `v0`, `v1` and the header floats at word `g`. */
// @ts-ignore: decorator
@inline function code16(times: usize, g: i32, v0: i32, v1: i32, s: f64): f64 {
  return f(times, g) + f(times, g + 1) * (<f64>((v0 << 16) >> 16) + s * (<f64>(v0 >> 16) + s * (<f64>((v1 << 16) >> 16) + s * <f64>(v1 >> 16))));
}

/**
 * Two rotation components from their code pairs (`v`: i32 words v0, v1 of one component, then
 * of the next), scaled by 2¹⁶ (the normalization cancels it), in f64x2 lanes: per lane
 * (v0 << 16) + s·(v0 & −2¹⁶) + s²·((v1 << 16) + s·(v1 & −2¹⁶)), the scalar sampler's operations
 * in its order. `s` and `s2` are splats of s and s².
 */
// @ts-ignore: decorator
@inline function rotationPair16(v: v128, s: v128, s2: v128): v128 {
  const w0 = v128.shuffle<i32>(v, v, 0, 2, 0, 2), w1 = v128.shuffle<i32>(v, v, 1, 3, 1, 3);
  const high = i32x4.splat(-65536);
  const a = f64x2.convert_low_i32x4_s(i32x4.shl(w0, 16)), b = f64x2.convert_low_i32x4_s(v128.and(w0, high));
  const c = f64x2.convert_low_i32x4_s(i32x4.shl(w1, 16)), d = f64x2.convert_low_i32x4_s(v128.and(w1, high));
  return f64x2.add(f64x2.add(a, f64x2.mul(s, b)), f64x2.mul(s2, f64x2.add(c, f64x2.mul(s, d))));
}

/**
 * 12 bytes from `src` to `dst` as one 8- and one 4-byte move: `memory.copy` of a few bytes is a
 * call out of the compiled code in V8, which at two constant channels a joint cost more than the
 * rest of its sampling.
 */
// @ts-ignore: decorator
@inline function copy12(dst: usize, src: usize): void {
  store<i64>(dst, load<i64>(src));
  store<i32>(dst + 8, load<i32>(src + 8));
}

/**
 * Two channels' cubics at once: the four f32 coefficients of one channel at `a`, of the other at
 * `b` (lowest power first), Horner at `u` in f64x2 lanes — per lane the scalar
 * c₁ + u·(c₂ + u·(c₃ + u·c₄)), the same operations in the same order, so the same bits.
 */
// @ts-ignore: decorator
@inline function cubicPair(a: usize, b: usize, u: v128): v128 {
  const va = v128.load(a), vb = v128.load(b);
  const lo = v128.shuffle<f32>(va, vb, 0, 4, 1, 5), hi = v128.shuffle<f32>(va, vb, 2, 6, 3, 7);
  const c1 = f64x2.promote_low_f32x4(lo), c2 = f64x2.promote_low_f32x4(v128.shuffle<f32>(lo, lo, 2, 3, 2, 3));
  const c3 = f64x2.promote_low_f32x4(hi), c4 = f64x2.promote_low_f32x4(v128.shuffle<f32>(hi, hi, 2, 3, 2, 3));
  return f64x2.add(c1, f64x2.mul(u, f64x2.add(c2, f64x2.mul(u, f64x2.add(c3, f64x2.mul(u, c4))))));
}

/**
 * Normalizes the rotation whose components are the pairs `xy` and `zw` and stores it at `q`, as
 * the samplers do: times 1 / sqrt(x² + y² + z² + w²), the squares summed in that order.
 */
// @ts-ignore: decorator
@inline function storeUnit(q: usize, xy: v128, zw: v128): void {
  const sxy = f64x2.mul(xy, xy), szw = f64x2.mul(zw, zw);
  const sum = f64x2.extract_lane(sxy, 0) + f64x2.extract_lane(sxy, 1) + f64x2.extract_lane(szw, 0) + f64x2.extract_lane(szw, 1);
  const inv = f64x2.splat(1 / Math.sqrt(sum));
  v128.store(q, v128.shuffle<f32>(f32x4.demote_f64x2_zero(f64x2.mul(xy, inv)), f32x4.demote_f64x2_zero(f64x2.mul(zw, inv)), 0, 1, 4, 5));
}

/**
 * Samples the reduced clip whose record is at `clip` at the time `load<f64>(time)` into the pose
 * at `out` (see the file header): times outside [0, end] clamp to the ends, a negative or NaN
 * time samples 0.
 */
export function sampleReduced(out: usize, clip: usize, time: usize): void {
  const jointCount = -load<i32>(clip, 12);
  const flags = load<i32>(clip, 16);
  const table16 = (flags & FLAG_TABLE16) != 0;
  const animated = load<i32>(clip, 20);
  const end = <f64>load<f32>(clip, 24);
  const records = clip + <usize>load<i32>(clip, 40), packed = clip + <usize>load<i32>(clip, 44);
  const table = clip + <usize>load<i32>(clip, 48), trackStart = clip + <usize>load<i32>(clip, 52);
  const constants = clip + <usize>load<i32>(clip, 56), jointMask = clip + <usize>load<i32>(clip, 60);
  const jointTrack = clip + <usize>load<i32>(clip, 64);
  let t = load<f64>(time);
  if (!(t > 0)) t = 0; // negative or NaN: the start
  else if (t > end) t = end;
  // Key times are float32: compared in that precision (Math.fround in the JavaScript samplers).
  const ts = <f64><f32>t;
  const row = <i32>(ts * load<f64>(clip, 32)) * animated;
  for (let j = 0; j < jointCount; j++) {
    const o = out + <usize>j * POSE;
    const mask = load<u8>(jointMask + <usize>j);
    const k = constants + <usize>j * POSE;
    const track = <i32>load<u32>(jointTrack + (<usize>j << 2));
    let entry = row + track;

    if (mask == 0) {
      // A joint the clip keeps constant: its 40 bytes as they are in the constants.
      v128.store(o, v128.load(k));
      v128.store(o, v128.load(k, 16), 16);
      store<i64>(o, load<i64>(k, 32), 32);
      continue;
    }
    if ((mask & HAS_T) == 0) {
      copy12(o + POSE_T, k + POSE_T);
    } else if ((mask & T16) == 0) {
      let r = entryAt(table, table16, entry++);
      if (f(records, r + T3) <= ts) r += T3;
      cubic3(o + POSE_T, records, r, t - f(records, r));
    } else {
      let h = entryAt(table, table16, entry++); // the record, in 32-bit words
      if (f(packed, h + H3) <= ts) h += H3;
      const s = (t - f(packed, h)) * f(packed, h + 1);
      const g = <i32>(load<u32>(trackStart + (<usize>track << 2)) >> 1) - 6; // the track's header: lo, step per channel
      const c = packed + (<usize>h << 2);
      put(o, POSE_T, code16(packed, g, load<i32>(c, 8), load<i32>(c, 12), s));
      put(o, POSE_T + 4, code16(packed, g + 2, load<i32>(c, 16), load<i32>(c, 20), s));
      put(o, POSE_T + 8, code16(packed, g + 4, load<i32>(c, 24), load<i32>(c, 28), s));
    }

    if ((mask & Q16) != 0) {
      let h = entryAt(table, table16, entry++);
      if (f(packed, h + H4) <= ts) h += H4;
      const s = (t - f(packed, h)) * f(packed, h + 1);
      const c = packed + (<usize>h << 2);
      const vs = f64x2.splat(s), vs2 = f64x2.splat(s * s);
      storeUnit(o + POSE_Q, rotationPair16(v128.load(c, 8), vs, vs2), rotationPair16(v128.load(c, 24), vs, vs2));
    } else if ((mask & HAS_Q) == 0) {
      v128.store(o + POSE_Q, v128.load(k + POSE_Q));
    } else {
      let r = entryAt(table, table16, entry++);
      if (f(records, r + Q4) <= ts) r += Q4;
      const c = records + (<usize>r << 2);
      const u = f64x2.splat(t - f(records, r));
      storeUnit(o + POSE_Q, cubicPair(c + 4, c + 20, u), cubicPair(c + 36, c + 52, u));
    }

    if ((mask & (HAS_S | HAS_S1)) == 0) {
      copy12(o + POSE_S, k + POSE_S);
    } else if ((mask & HAS_S1) != 0) {
      let r = entryAt(table, table16, entry);
      if (f(records, r + S1) <= ts) r += S1;
      const u = t - f(records, r);
      const scale = f(records, r + 1) + u * (f(records, r + 2) + u * (f(records, r + 3) + u * f(records, r + 4)));
      put(o, POSE_S, scale);
      put(o, POSE_S + 4, scale);
      put(o, POSE_S + 8, scale);
    } else if ((mask & S16) != 0) {
      // Three 16-bit scale curves (a uniform scale stays 32-bit): its header by its track's start.
      const before = <i32>(mask & HAS_T) + <i32>((mask & HAS_Q) >> 1);
      const g = <i32>(load<u32>(trackStart + (<usize>(track + before) << 2)) >> 1) - 6;
      let h = entryAt(table, table16, entry);
      if (f(packed, h + H3) <= ts) h += H3;
      const s = (t - f(packed, h)) * f(packed, h + 1);
      const c = packed + (<usize>h << 2);
      put(o, POSE_S, code16(packed, g, load<i32>(c, 8), load<i32>(c, 12), s));
      put(o, POSE_S + 4, code16(packed, g + 2, load<i32>(c, 16), load<i32>(c, 20), s));
      put(o, POSE_S + 8, code16(packed, g + 4, load<i32>(c, 24), load<i32>(c, 28), s));
    } else {
      let r = entryAt(table, table16, entry);
      if (f(records, r + T3) <= ts) r += T3;
      cubic3(o + POSE_S, records, r, t - f(records, r));
    }
  }
}
