/**
 * Sampling a reduced (LOD) clip at one instant: the cubic curves of its {@link ReducedTracks}
 * instead of two interpolated frames. `sampleClipInto` sends clips with `reduced !== null`
 * here, so layers, transitions and additive references all read reduced clips this way.
 */
import { retargetTranslation, type Binding } from './Binding.js';
import type { Clip } from './Clip.js';

/**
 * Samples the reduced clip `clip` at time `times[timeIndex]` seconds into `out` at `outOff`,
 * 10 floats per joint — the contract of `sampleClipInto`:
 *
 * 1. Times outside [0, duration] clamp to the ends; a negative or NaN time samples 0.
 * 2. Each animated track (translation, rotation, scale of a joint) finds its record with one
 *    table read and at most one comparison (see {@link ReducedTracks}), then evaluates
 *    a + u·(b + u·(c + u·d)), u = t − τ, per channel (Horner); a uniform scale evaluates one
 *    curve for sx = sy = sz. Constant tracks copy their value.
 * 3. The rotation is normalized (q / |q|): its components are fitted one by one, so the sum
 *    is only close to unit length. A constant rotation is stored unit already.
 *    The reducer makes consecutive quaternion samples hemisphere-continuous, so no sign fix is
 *    needed between keys.
 * 4. Without a binding the pose is in the clip skeleton's order; with one, in the target's,
 *    target joints without a source joint take the target's rest pose, and bound joints'
 *    translations follow the binding's modes (`retargetTranslation`).
 *
 * At every key time the result is the stored a of that record exactly (u = 0), and at frame
 * times it equals the reduced clip's `frames` (built by this kernel). Pure kernel: writes only
 * `out[outOff .. outOff + jointCount × 10)`, allocates nothing; the time comes in an array for
 * the reason given at `sampleClipInto`. Precondition: `clip.reduced` is not null (call
 * `sampleClipInto`, which checks); with null nothing is written.
 */
export function sampleReducedInto(
  out: Float32Array,
  outOff: number,
  clip: Clip,
  times: Float64Array,
  timeIndex: number,
  binding: Binding | null = null,
): void {
  // Layout constants as locals, not imports: V8 reads an imported binding from its module cell
  // (with a TDZ check) at every use in the loop, which measured ~20% of this kernel's time.
  // They equal POSE_STRIDE, RECORD_STRIDE_3/4/1 and TRACK_T/Q/S/S1 (a test checks).
  const STRIDE = 10, T3 = 13, Q4 = 17, S1 = 5, HAS_T = 1, HAS_Q = 2, HAS_S = 4, HAS_S1 = 8;
  const tracks = clip.reduced;
  if (tracks === null) return;
  const records = tracks.records;
  const table = tracks.bucketRecords;
  const constants = tracks.constants;
  const jointMask = tracks.jointMask;
  const jointTrack = tracks.jointTrack;
  const end = tracks.endTime;
  let t = times[timeIndex]!;
  if (!(t > 0)) t = 0; // negative or NaN: the start
  else if (t > end) t = end;
  // Key times are 32-bit floats: compare in that precision, so a time given exactly at a key
  // (as a double, e.g. f / frameRate) lands on that key's record.
  const ts = Math.fround(t);
  const row = ((ts * tracks.bucketScale) | 0) * tracks.animatedTracks;
  const sourceJoint = binding === null ? null : binding.sourceJoint;
  const rest = binding === null ? null : binding.target.rest;
  const modes = binding === null ? null : binding.translationMode;
  const scales = binding === null ? null : binding.translationScale;
  const jointCount = sourceJoint === null ? tracks.jointCount : sourceJoint.length;
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * STRIDE;
    const source = sourceJoint === null ? j : sourceJoint[j]!;
    if (source < 0) {
      for (let c = 0, r = j * STRIDE; c < STRIDE; c++) out[o + c] = rest![r + c]!;
      continue;
    }
    const mask = jointMask[source]!;
    const k = source * STRIDE;
    let entry = row + jointTrack[source]!;

    if ((mask & HAS_T) === 0) {
      out[o] = constants[k]!;
      out[o + 1] = constants[k + 1]!;
      out[o + 2] = constants[k + 2]!;
    } else {
      let r = table[entry++]!;
      if (records[r + T3]! <= ts) r += T3;
      const u = t - records[r]!;
      out[o] = records[r + 1]! + u * (records[r + 2]! + u * (records[r + 3]! + u * records[r + 4]!));
      out[o + 1] = records[r + 5]! + u * (records[r + 6]! + u * (records[r + 7]! + u * records[r + 8]!));
      out[o + 2] = records[r + 9]! + u * (records[r + 10]! + u * (records[r + 11]! + u * records[r + 12]!));
    }

    if ((mask & HAS_Q) === 0) {
      out[o + 3] = constants[k + 3]!;
      out[o + 4] = constants[k + 4]!;
      out[o + 5] = constants[k + 5]!;
      out[o + 6] = constants[k + 6]!;
    } else {
      let r = table[entry++]!;
      if (records[r + Q4]! <= ts) r += Q4;
      const u = t - records[r]!;
      const x = records[r + 1]! + u * (records[r + 2]! + u * (records[r + 3]! + u * records[r + 4]!));
      const y = records[r + 5]! + u * (records[r + 6]! + u * (records[r + 7]! + u * records[r + 8]!));
      const z = records[r + 9]! + u * (records[r + 10]! + u * (records[r + 11]! + u * records[r + 12]!));
      const w = records[r + 13]! + u * (records[r + 14]! + u * (records[r + 15]! + u * records[r + 16]!));
      const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      out[o + 3] = x * inv;
      out[o + 4] = y * inv;
      out[o + 5] = z * inv;
      out[o + 6] = w * inv;
    }

    if ((mask & (HAS_S | HAS_S1)) === 0) {
      out[o + 7] = constants[k + 7]!;
      out[o + 8] = constants[k + 8]!;
      out[o + 9] = constants[k + 9]!;
    } else if ((mask & HAS_S1) !== 0) {
      let r = table[entry]!;
      if (records[r + S1]! <= ts) r += S1;
      const u = t - records[r]!;
      const scale = records[r + 1]! + u * (records[r + 2]! + u * (records[r + 3]! + u * records[r + 4]!));
      out[o + 7] = scale;
      out[o + 8] = scale;
      out[o + 9] = scale;
    } else {
      let r = table[entry]!;
      if (records[r + T3]! <= ts) r += T3;
      const u = t - records[r]!;
      out[o + 7] = records[r + 1]! + u * (records[r + 2]! + u * (records[r + 3]! + u * records[r + 4]!));
      out[o + 8] = records[r + 5]! + u * (records[r + 6]! + u * (records[r + 7]! + u * records[r + 8]!));
      out[o + 9] = records[r + 9]! + u * (records[r + 10]! + u * (records[r + 11]! + u * records[r + 12]!));
    }
    if (modes !== null) retargetTranslation(out, o, modes, scales!, rest!, j);
  }
}
