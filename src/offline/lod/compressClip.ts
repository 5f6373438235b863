/**
 * `compressClip`: a clip in the compressed format of assets/compressedTracks.ts, ACL's method
 * (Nicholas Frechette's Animation Compression Library): range reduction per track over the clip
 * and per segment of 16 frames, a bit rate per track and segment chosen to hold a model-space
 * error bound, constant and default tracks stripped, rotations as x, y, z with w ≥ 0.
 *
 * **Error.** As ACL measures it: virtual vertices on a shell around each joint — the joint
 * and the three points `shell` along its model-space axes — compared in model space between
 * the source as it plays and the compressed clip as it plays, at every frame and every
 * midpoint between frames. The bit rates are searched against that measure (not per channel),
 * so error down the hierarchy is accounted for.
 *
 * **Search**, per segment: (1) each animated track starts at the fewest bits whose own error,
 * as a rotation or displacement carried to its farthest descendant, is within half the
 * tolerance; (2) while some joint is over the tolerance, the track on its chain (itself and
 * its ancestors) whose extra bit lowers that joint's error most gets it; (3) each track, from
 * the leaves up, then gives bits back while the whole segment stays within the bound.
 * Segments are searched in order, each measured at its frames and at the midpoints on both of
 * its boundaries; a last pass over the whole clip fixes any boundary left over.
 */
import { IssueList } from '../../assets/AnimationError.js';
import { isClip, type Clip } from '../../assets/Clip.js';
import {
  ANIMATED_Q, ANIMATED_S, ANIMATED_T, BIT_SCALE, DEFAULT_Q, DEFAULT_S, DEFAULT_T, DROP_SHIFT, INV255, MAX_BITS, SEGMENT_LENGTH,
  type CompressedTracks,
} from '../../assets/compressedTracks.js';
import { createReducedClip, denseClip } from '../../assets/reducedClip.js';
import type { ReducedTracks } from '../../assets/ReducedTracks.js';
import { shownString } from '../../assets/limits.js';
import { POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../../math/layout.js';
import { createErrorMeter } from './modelError.js';

/** Options of {@link compressClip}. */
export interface CompressClipOptions {
  /** Largest model-space error on the shell, metres (clip units): finite, > 0. */
  tolerance: number;
  /** Radius of the virtual-vertex shell around each joint, metres (clip units), finite ≥ 0; default 0.03 (ACL's 3 cm). */
  shell?: number;
}

/** ACL's default shell distance, 3 cm. */
export const DEFAULT_SHELL = 0.03;

const KNOWN_OPTIONS = new Set(['tolerance', 'shell']);
/** Share of the tolerance a track's own (estimated) error starts at. */
const START_SHARE = 0.5;
/** Share of the tolerance a stripped (constant or default) track may cost, estimated. */
const CONSTANT_SHARE = 0.02;
/** The bound searched: a hair under the tolerance, for the float32 rounding of played poses. */
const TARGET_SHARE = 0.999;

/**
 * Compresses `clip` (see the file header): the result plays anywhere a clip plays (layers,
 * masks, transitions, bindings: it is a reduced clip whose `reduced.compressed` the samplers
 * decode) and carries `stats`: `bytes` (everything it holds), `sourceBytes` (dense float32
 * frames), `ratio`, `maxError`, `meanError`, `p99Error`, `shareWithin` (measured on the shell
 * at frames and midpoints by `createErrorMeter`), `maxRotationError`, `tolerance`, `shell`.
 * A reduced clip is compressed from its expanded frames. Offline: allocates, takes seconds on a
 * long capture.
 *
 * @throws AnimationError when `clip` is not a clip, `options` is not an object, has an
 * unknown key, a `tolerance` that is not a finite number > 0 or a `shell` that is not a finite
 * number ≥ 0.
 * @example
 * const small = compressClip(walk, { tolerance: 0.001 }); // 1 mm on a 3 cm shell
 * console.log(small.stats.ratio, small.stats.maxError);
 */
export function compressClip(clip: Clip, options: CompressClipOptions): Clip {
  const issues = new IssueList('compressClip');
  if (!isClip(clip)) issues.add('clip', 'must be a Clip');
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    issues.add('options', 'must be an object { tolerance, shell? }');
    issues.throwIfAny();
  }
  for (const key of Object.keys(options)) if (!KNOWN_OPTIONS.has(key)) issues.add(key, 'is not an option: known are tolerance, shell');
  const tolerance = options.tolerance;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || !(tolerance > 0)) issues.add('tolerance', `is ${shownString(tolerance)}: must be a finite number > 0 (metres)`);
  const shell = options.shell ?? DEFAULT_SHELL;
  if (typeof shell !== 'number' || !Number.isFinite(shell) || shell < 0) issues.add('shell', `is ${shownString(shell)}: must be a finite number ≥ 0 (metres)`);
  issues.throwIfAny();

  const source = denseClip(clip);
  const compressed = encode(source, tolerance, shell);
  const stub: ReducedTracks = Object.freeze({
    jointCount: source.skeleton.jointCount, duration: source.duration, endTime: Math.fround(source.duration),
    jointMask: new Uint8Array(0), jointTrack: new Uint32Array(0), constants: new Float32Array(0), records: new Float32Array(0),
    packed: new Int16Array(0), packedTimes: new Float32Array(0), packedPairs: new Int32Array(0), animatedTracks: 0,
    trackStart: new Uint32Array(0), bucketCount: 0, bucketScale: 0, bucketRows: 0, bucketRecords: new Uint32Array(0),
    keyCount: 0, recordCount: 0, packedTracks: 0, byteLength: compressed.byteLength, compressed,
  });
  const keysBefore = source.frameCount * source.skeleton.jointCount * POSE_STRIDE;
  const keysAfter = compressed.animatedTracks * source.frameCount * 3;
  const first = createReducedClip(source, stub, { keysBefore, keysAfter, maxError: 0, meanError: 0 }, source.curves);
  const measured = createErrorMeter(source, { distance: shell, subdivisions: 1 }).measure(first, tolerance);
  const base = first.stats!;
  return Object.freeze({
    ...first,
    stats: Object.freeze({
      ...base,
      maxError: measured.maxError,
      meanError: measured.meanError,
      maxRotationError: measured.maxRotationError,
      tolerance,
      p99Error: measured.p99Error!,
      shareWithin: measured.shareWithin!,
      ratio: base.sourceBytes / base.bytes,
      shell,
    }),
  });
}

/** A quaternion's w, after its x y z (the record's own order). */
const W = 3;
/** Pose channels interpolated linearly: translation and scale. */
const LERPED = [POSE_T, POSE_T + 1, POSE_T + 2, POSE_S, POSE_S + 1, POSE_S + 2];
/** Doubles per joint of a model record here: 3×3 matrix (column-major) then position. */
const M = 12;
/** Doubles per joint of its measured points: the origin and the three shell points. */
const P = 12;

/** The encoder's state for one clip. */
class Encoder {
  readonly jointCount: number;
  readonly frameCount: number;
  readonly parents: Int16Array;
  readonly rest: Float32Array;
  /** Raw local poses, doubles, rotations with w ≥ 0. */
  readonly raw: Float64Array;
  /** Reference points per instant (2F − 1 instants: frames and midpoints). */
  readonly ref: Float64Array;
  readonly instants: number;
  readonly reach: Float64Array;
  readonly parentScale: Float64Array;
  readonly chain: Int32Array[];
  // Track table.
  mask: Uint8Array;
  trackJoint: number[] = [];
  trackKind: number[] = []; // 0 T, 1 Q, 2 S
  jointTrack: Uint16Array;
  constants: number[] = [];
  jointConstant: Uint16Array;
  /** Per joint, its constant values as played (10 floats; animated channels unused). */
  fixed: Float64Array;
  clipMin!: Float32Array;
  clipExtent!: Float32Array;
  /** Normalized samples in the clip range, A × F × 3. */
  normal!: Float64Array;
  /** Decoded samples, A × F × 3. */
  decoded!: Float64Array;
  bits!: Uint8Array;
  ranges!: Uint8Array;
  segmentCount: number;
  // Scratch.
  readonly local: Float64Array;
  readonly model: Float64Array;
  readonly points: Float64Array;
  readonly jointError: Float64Array;
  readonly all: Int32Array;

  constructor(clip: Clip, readonly tolerance: number, readonly shell: number) {
    const { skeleton, frameCount } = clip;
    const J = skeleton.jointCount;
    this.jointCount = J;
    this.frameCount = frameCount;
    this.parents = skeleton.parents;
    this.rest = skeleton.rest;
    this.segmentCount = Math.ceil(frameCount / SEGMENT_LENGTH);
    const raw = Float64Array.from(clip.frames);
    for (let i = 3; i < raw.length; i += POSE_STRIDE) {
      // Unit length: one component is rebuilt from the others (the sign fix is per track, in classify).
      const n = Math.hypot(raw[i], raw[i + 1], raw[i + 2], raw[i + POSE_Q]);
      for (let c = 0; c < 4; c++) raw[i + c] /= n;
    }
    this.raw = raw;
    this.local = new Float64Array(J * POSE_STRIDE);
    this.model = new Float64Array(J * M);
    this.points = new Float64Array(J * P);
    this.jointError = new Float64Array(J);
    this.all = Int32Array.from({ length: J }, (_, j) => j);
    this.chain = [];
    for (let j = 0; j < J; j++) {
      const list: number[] = [];
      for (let a = j; a >= 0; a = this.parents[a]) list.unshift(a);
      this.chain.push(Int32Array.from(list));
    }
    this.instants = frameCount <= 1 ? 1 : 2 * frameCount - 1;
    this.ref = new Float64Array(this.instants * J * P);
    for (let k = 0; k < this.instants; k++) {
      this.rawLocal(k);
      this.forward(this.all, J);
      this.ref.set(this.points, k * J * P);
    }
    // Reach: the farthest a descendant's origin gets from each joint; the parent's scale.
    this.reach = new Float64Array(J);
    this.parentScale = new Float64Array(J).fill(1);
    for (let k = 0; k < this.instants; k += 2) {
      const o = k * J * P;
      this.rawLocal(k);
      this.forward(this.all, J);
      for (let d = 0; d < J; d++) {
        const p = this.parents[d];
        if (p >= 0) {
          const m = p * M;
          const s = Math.max(Math.hypot(this.model[m], this.model[m + 1], this.model[m + 2]), Math.hypot(this.model[m + 3], this.model[m + 4], this.model[m + 5]), Math.hypot(this.model[m + 6], this.model[m + 7], this.model[m + 8]));
          if (s > this.parentScale[d]) this.parentScale[d] = s;
        }
        for (let a = p; a >= 0; a = this.parents[a]) {
          const e = Math.hypot(this.ref[o + d * P] - this.ref[o + a * P], this.ref[o + d * P + 1] - this.ref[o + a * P + 1], this.ref[o + d * P + 2] - this.ref[o + a * P + 2]);
          if (e > this.reach[a]) this.reach[a] = e;
        }
      }
    }
    this.mask = new Uint8Array(J);
    this.jointTrack = new Uint16Array(J);
    this.jointConstant = new Uint16Array(J);
    this.fixed = new Float64Array(J * POSE_STRIDE);
  }

  /** The source's local pose at instant k (frames, then lerp / nlerp at midpoints) into `local`. */
  rawLocal(k: number): void {
    const J = this.jointCount, raw = this.raw, local = this.local;
    const f = k >> 1, size = J * POSE_STRIDE;
    const a0 = f * size;
    if ((k & 1) === 0) {
      for (let i = 0; i < size; i++) local[i] = raw[a0 + i];
      return;
    }
    const b0 = a0 + size;
    for (let j = 0; j < J; j++) {
      const o = j * POSE_STRIDE, a = a0 + o, b = b0 + o;
      for (const c of LERPED) local[o + c] = raw[a + c] * 0.5 + raw[b + c] * 0.5;
      const sign = raw[a + POSE_Q] * raw[b + POSE_Q] + raw[a + POSE_Q + 1] * raw[b + POSE_Q + 1] + raw[a + POSE_Q + 2] * raw[b + POSE_Q + 2] + raw[a + POSE_Q + 3] * raw[b + POSE_Q + 3] < 0 ? -1 : 1;
      for (let c = 3; c < 7; c++) local[o + c] = raw[a + c] * 0.5 + sign * raw[b + c] * 0.5;
    }
  }

  /** Forward kinematics of the joints `list[0 .. n)` (each after its parent) from `local` into `model` and `points`. */
  forward(list: Int32Array, n: number): void {
    const local = this.local, model = this.model, points = this.points, shell = this.shell, parents = this.parents;
    for (let i = 0; i < n; i++) {
      const j = list[i];
      const o = j * POSE_STRIDE;
      let x = local[o + POSE_Q], y = local[o + POSE_Q + 1], z = local[o + POSE_Q + 2], w = local[o + POSE_Q + 3];
      const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      x *= inv; y *= inv; z *= inv; w *= inv;
      const sx = local[o + POSE_S], sy = local[o + POSE_S + 1], sz = local[o + POSE_S + 2];
      // R·S, column-major.
      const l0 = (1 - 2 * (y * y + z * z)) * sx, l1 = 2 * (x * y + z * w) * sx, l2 = 2 * (x * z - y * w) * sx;
      const l3 = 2 * (x * y - z * w) * sy, l4 = (1 - 2 * (x * x + z * z)) * sy, l5 = 2 * (y * z + x * w) * sy;
      const l6 = 2 * (x * z + y * w) * sz, l7 = 2 * (y * z - x * w) * sz, l8 = (1 - 2 * (x * x + y * y)) * sz;
      const tx = local[o], ty = local[o + 1], tz = local[o + 2];
      const m = j * M;
      const p = parents[j];
      if (p < 0) {
        model[m] = l0; model[m + 1] = l1; model[m + 2] = l2; model[m + 3] = l3; model[m + 4] = l4; model[m + 5] = l5;
        model[m + 6] = l6; model[m + 7] = l7; model[m + 8] = l8; model[m + 9] = tx; model[m + 10] = ty; model[m + 11] = tz;
      } else {
        const q = p * M;
        const a0 = model[q], a1 = model[q + 1], a2 = model[q + 2], a3 = model[q + 3], a4 = model[q + 4], a5 = model[q + 5];
        const a6 = model[q + 6], a7 = model[q + 7], a8 = model[q + 8];
        model[m] = a0 * l0 + a3 * l1 + a6 * l2; model[m + 1] = a1 * l0 + a4 * l1 + a7 * l2; model[m + 2] = a2 * l0 + a5 * l1 + a8 * l2;
        model[m + 3] = a0 * l3 + a3 * l4 + a6 * l5; model[m + 4] = a1 * l3 + a4 * l4 + a7 * l5; model[m + 5] = a2 * l3 + a5 * l4 + a8 * l5;
        model[m + 6] = a0 * l6 + a3 * l7 + a6 * l8; model[m + 7] = a1 * l6 + a4 * l7 + a7 * l8; model[m + 8] = a2 * l6 + a5 * l7 + a8 * l8;
        model[m + 9] = a0 * tx + a3 * ty + a6 * tz + model[q + 9];
        model[m + 10] = a1 * tx + a4 * ty + a7 * tz + model[q + 10];
        model[m + 11] = a2 * tx + a5 * ty + a8 * tz + model[q + 11];
      }
      const e = j * P;
      points[e] = model[m + 9]; points[e + 1] = model[m + 10]; points[e + 2] = model[m + 11];
      for (let c = 0; c < 3; c++) {
        const cx = model[m + 3 * c], cy = model[m + 3 * c + 1], cz = model[m + 3 * c + 2];
        const len = Math.sqrt(cx * cx + cy * cy + cz * cz);
        const s = len > 0 ? shell / len : 0;
        points[e + 3 + 3 * c] = points[e] + cx * s;
        points[e + 4 + 3 * c] = points[e + 1] + cy * s;
        points[e + 5 + 3 * c] = points[e + 2] + cz * s;
      }
    }
  }

  /** Largest distance of joint j's points from the reference at instant k (after `forward`). */
  pointError(k: number, j: number): number {
    const ref = this.ref, points = this.points;
    const r = (k * this.jointCount + j) * P, e = j * P;
    let max = 0;
    for (let p = 0; p < P; p += 3) {
      const d = Math.hypot(ref[r + p] - points[e + p], ref[r + p + 1] - points[e + p + 1], ref[r + p + 2] - points[e + p + 2]);
      if (d > max) max = d;
    }
    return max;
  }

  /** The compressed clip's local pose at instant k for the joints `list[0 .. n)` into `local` (as the decoder plays it). */
  lossyLocal(k: number, list: Int32Array, n: number): void {
    const local = this.local, decoded = this.decoded, fixed = this.fixed, F = this.frameCount;
    const f0 = k >> 1, f1 = (k & 1) === 0 ? f0 : f0 + 1;
    const alpha = (k & 1) === 0 ? 0 : 0.5, beta = 1 - alpha;
    for (let i = 0; i < n; i++) {
      const j = list[i];
      const o = j * POSE_STRIDE;
      const mask = this.mask[j];
      let track = this.jointTrack[j];
      for (let c = 0; c < POSE_STRIDE; c++) local[o + c] = fixed[o + c];
      if ((mask & ANIMATED_T) !== 0) {
        const a = (track * F + f0) * 3, b = (track * F + f1) * 3;
        for (let c = 0; c < 3; c++) local[o + c] = decoded[a + c] * beta + decoded[b + c] * alpha;
        track++;
      }
      if ((mask & ANIMATED_Q) !== 0) {
        const a = (track * F + f0) * 3, b = (track * F + f1) * 3;
        const drop = mask >> DROP_SHIFT;
        const a0 = decoded[a], a1 = decoded[a + 1], a2 = decoded[a + 2], b0 = decoded[b], b1 = decoded[b + 1], b2 = decoded[b + 2];
        const an = 1 - a0 * a0 - a1 * a1 - a2 * a2, bn = 1 - b0 * b0 - b1 * b1 - b2 * b2;
        const ar = an > 0 ? Math.sqrt(an) : 0, br = bn > 0 ? Math.sqrt(bn) : 0;
        const ax = drop === 0 ? ar : a0, ay = drop === 0 ? a0 : drop === 1 ? ar : a1;
        const az = drop <= 1 ? a1 : drop === 2 ? ar : a2, aw = drop === 3 ? ar : a2;
        let bx = drop === 0 ? br : b0, by = drop === 0 ? b0 : drop === 1 ? br : b1;
        let bz = drop <= 1 ? b1 : drop === 2 ? br : b2, bw = drop === 3 ? br : b2;
        // The hemisphere test in the stored order (the three, then the rebuilt one), as the decoder sums it.
        if (a0 * b0 + a1 * b1 + a2 * b2 + ar * br < 0) { bx = -bx; by = -by; bz = -bz; bw = -bw; }
        local[o + POSE_Q] = ax * beta + bx * alpha; local[o + POSE_Q + 1] = ay * beta + by * alpha;
        local[o + POSE_Q + 2] = az * beta + bz * alpha; local[o + POSE_Q + 3] = aw * beta + bw * alpha;
        track++;
      }
      if ((mask & ANIMATED_S) !== 0) {
        const a = (track * F + f0) * 3, b = (track * F + f1) * 3;
        for (let c = 0; c < 3; c++) local[o + POSE_S + c] = decoded[a + c] * beta + decoded[b + c] * alpha;
      }
    }
  }

  /** Max error per joint (into `jointError`) of the joints `list[0 .. n)` over instants [k0, k1]; returns the largest. */
  measure(list: Int32Array, n: number, k0: number, k1: number): number {
    const err = this.jointError;
    for (let i = 0; i < n; i++) err[list[i]] = 0;
    let max = 0;
    for (let k = k0; k <= k1; k++) {
      this.lossyLocal(k, list, n);
      this.forward(list, n);
      for (let i = 0; i < n; i++) {
        const j = list[i];
        const e = this.pointError(k, j);
        if (e > err[j]) err[j] = e;
        if (e > max) max = e;
      }
    }
    return max;
  }

  /** Error of joint j alone (its chain) over instants [k0, k1]. */
  measureJoint(j: number, k0: number, k1: number): number {
    const chain = this.chain[j];
    let max = 0;
    for (let k = k0; k <= k1; k++) {
      this.lossyLocal(k, chain, chain.length);
      this.forward(chain, chain.length);
      const e = this.pointError(k, j);
      if (e > max) max = e;
    }
    return max;
  }

  /** Decides constant, default and animated tracks; fills `fixed`, the track table and clip ranges. */
  classify(difference: boolean): void {
    const J = this.jointCount, F = this.frameCount, raw = this.raw, rest = this.rest, budget = this.tolerance * CONSTANT_SHARE;
    const normal: number[][] = [];
    const mins: number[] = [], extents: number[] = [];
    for (let j = 0; j < J; j++) {
      this.jointTrack[j] = this.trackJoint.length;
      this.jointConstant[j] = this.constants.length;
      const reach = this.reach[j] + this.shell;
      for (let kind = 0; kind < 3; kind++) {
        const first = kind === 0 ? POSE_T : kind === 1 ? POSE_Q : POSE_S;
        const width = kind === 1 ? 4 : 3;
        // Estimated model-space cost of playing the value v instead of every frame.
        const cost = (v: ArrayLike<number>, vo: number): number => {
          let worst = 0;
          for (let f = 0; f < F; f++) {
            const a = (f * J + j) * POSE_STRIDE + first;
            let d = 0;
            if (kind === 1) {
              const dot = raw[a] * v[vo] + raw[a + 1] * v[vo + 1] + raw[a + 2] * v[vo + 2] + raw[a + W] * v[vo + W];
              const s = dot < 0 ? -1 : 1;
              for (let c = 0; c < 4; c++) d += (raw[a + c] - s * v[vo + c]) ** 2;
              d = 2 * Math.sqrt(d) * reach;
            } else {
              for (let c = 0; c < 3; c++) d += (raw[a + c] - v[vo + c]) ** 2;
              d = Math.sqrt(d) * (kind === 0 ? this.parentScale[j] : reach / Math.max(1e-6, Math.abs(raw[a])));
            }
            if (d > worst) worst = d;
          }
          return worst;
        };
        const o = j * POSE_STRIDE + first;
        const bit = kind === 0 ? DEFAULT_T : kind === 1 ? DEFAULT_Q : DEFAULT_S;
        if (!difference && cost(rest, o) <= budget) {
          this.mask[j] |= bit;
          for (let c = 0; c < width; c++) this.fixed[o + c] = rest[o + c];
          continue;
        }
        const value = Float32Array.from({ length: width }, (_, c) => raw[j * POSE_STRIDE + first + c]);
        if (cost(value, 0) <= budget) {
          for (let c = 0; c < width; c++) {
            this.constants.push(value[c]);
            this.fixed[o + c] = value[c];
          }
          continue;
        }
        this.mask[j] |= kind === 0 ? ANIMATED_T : kind === 1 ? ANIMATED_Q : ANIMATED_S;
        this.trackJoint.push(j);
        this.trackKind.push(kind);
        // Stored channels: a rotation's three other than the one dropped (farthest from 0), signed so it is ≥ 0.
        const channel = [first, first + 1, first + 2];
        if (kind === 1) {
          let drop = 3, best = -1;
          for (let c = 0; c < 4; c++) {
            let least = Infinity;
            for (let f = 0; f < F; f++) least = Math.min(least, Math.abs(raw[(f * J + j) * POSE_STRIDE + POSE_Q + c]));
            if (least > best) { best = least; drop = c; }
          }
          this.mask[j] |= drop << DROP_SHIFT;
          for (let f = 0; f < F; f++) {
            const a = (f * J + j) * POSE_STRIDE + POSE_Q;
            if (raw[a + drop] < 0) for (let c = 0; c < 4; c++) raw[a + c] = -raw[a + c];
          }
          for (let c = 0, t = 0; c < 4; c++) if (c !== drop) channel[t++] = POSE_Q + c;
        }
        const n: number[] = new Array(F * 3);
        for (let c = 0; c < 3; c++) {
          let lo = Infinity, hi = -Infinity;
          for (let f = 0; f < F; f++) {
            const v = raw[(f * J + j) * POSE_STRIDE + channel[c]];
            if (v < lo) lo = v;
            if (v > hi) hi = v;
          }
          const min = Math.fround(lo);
          const extent = Math.fround(hi - min);
          mins.push(min);
          extents.push(extent);
          for (let f = 0; f < F; f++) {
            const v = raw[(f * J + j) * POSE_STRIDE + channel[c]];
            const u = extent > 0 ? (v - min) / extent : 0;
            n[f * 3 + c] = u < 0 ? 0 : u > 1 ? 1 : u;
          }
        }
        normal.push(n);
      }
    }
    const A = this.trackJoint.length;
    this.clipMin = Float32Array.from(mins);
    this.clipExtent = Float32Array.from(extents);
    this.normal = new Float64Array(A * F * 3);
    normal.forEach((n, i) => this.normal.set(n, i * F * 3));
    this.decoded = new Float64Array(A * F * 3);
    this.bits = new Uint8Array(this.segmentCount * A);
    this.ranges = new Uint8Array(this.segmentCount * A * 6);
    for (let s = 0; s < this.segmentCount; s++) {
      const f0 = s * SEGMENT_LENGTH, f1 = Math.min(F, f0 + SEGMENT_LENGTH);
      for (let i = 0; i < A; i++) {
        for (let c = 0; c < 3; c++) {
          let lo = 1, hi = 0;
          for (let f = f0; f < f1; f++) {
            const u = this.normal[(i * F + f) * 3 + c];
            if (u < lo) lo = u;
            if (u > hi) hi = u;
          }
          const m = Math.max(0, Math.min(255, Math.floor(lo * 255)));
          const top = Math.max(m, Math.min(255, Math.ceil(hi * 255)));
          const r = ((s * A + i) * 3 + c) * 2;
          this.ranges[r] = m;
          this.ranges[r + 1] = top - m;
        }
      }
    }
  }

  /** Quantizes track i in segment s at `bits` and writes its decoded samples (the decoder's arithmetic). */
  quantize(s: number, i: number, bits: number, codes: Uint32Array | null = null): void {
    const F = this.frameCount, A = this.trackJoint.length;
    const f0 = s * SEGMENT_LENGTH, f1 = Math.min(F, f0 + SEGMENT_LENGTH);
    const top = 2 ** bits - 1;
    for (let c = 0; c < 3; c++) {
      const r = ((s * A + i) * 3 + c) * 2;
      const m = this.ranges[r], x = this.ranges[r + 1];
      const lo = m * INV255, span = x * INV255;
      const min = this.clipMin[i * 3 + c], extent = this.clipExtent[i * 3 + c];
      for (let f = f0; f < f1; f++) {
        const u = this.normal[(i * F + f) * 3 + c];
        let q = span > 0 && bits > 0 ? Math.round(((u - lo) / span) * top) : 0;
        if (q < 0) q = 0; else if (q > top) q = top;
        if (codes !== null) codes[(f - f0) * 3 + c] = q;
        this.decoded[(i * F + f) * 3 + c] = min + extent * (m * INV255 + x * INV255 * BIT_SCALE[bits] * q);
      }
    }
  }

  /** Estimated model-space error of track i alone in segment s at its current bits (decoded). */
  ownError(s: number, i: number): number {
    const F = this.frameCount, J = this.jointCount, j = this.trackJoint[i], kind = this.trackKind[i];
    const f0 = s * SEGMENT_LENGTH, f1 = Math.min(F, f0 + SEGMENT_LENGTH);
    const reach = this.reach[j] + this.shell;
    let worst = 0;
    for (let f = f0; f < f1; f++) {
      const d = (i * F + f) * 3;
      const a = (f * J + j) * POSE_STRIDE + (kind === 0 ? POSE_T : kind === 1 ? POSE_Q : POSE_S);
      let e: number;
      if (kind === 1) {
        const drop = this.mask[j] >> DROP_SHIFT;
        const s0 = this.decoded[d], s1 = this.decoded[d + 1], s2 = this.decoded[d + 2];
        const n = 1 - s0 * s0 - s1 * s1 - s2 * s2;
        const r = n > 0 ? Math.sqrt(n) : 0;
        let e2 = (this.raw[a + drop] - r) ** 2;
        for (let c = 0, t = 0; c < 4; c++) if (c !== drop) e2 += (this.raw[a + c] - (t === 0 ? s0 : t === 1 ? s1 : s2)) ** 2, t++;
        e = 2 * Math.sqrt(e2) * reach;
      } else {
        e = Math.hypot(this.raw[a] - this.decoded[d], this.raw[a + 1] - this.decoded[d + 1], this.raw[a + 2] - this.decoded[d + 2]);
        e *= kind === 0 ? this.parentScale[j] : reach / Math.max(1e-6, Math.abs(this.raw[a]));
      }
      if (e > worst) worst = e;
    }
    return worst;
  }

  /** Instants a segment is measured at: its frames and the midpoints on both its boundaries. */
  span(s: number): [number, number] {
    const F = this.frameCount;
    const f0 = s * SEGMENT_LENGTH, f1 = Math.min(F, f0 + SEGMENT_LENGTH);
    return [Math.max(0, 2 * f0 - 1), Math.min(this.instants - 1, 2 * (f1 - 1) + 1)];
  }

  /** Chooses the bit rates (file header: search). */
  search(): void {
    const A = this.trackJoint.length, J = this.jointCount;
    const target = this.tolerance * TARGET_SHARE;
    const start = this.tolerance * START_SHARE;
    for (let s = 0; s < this.segmentCount; s++) {
      for (let i = 0; i < A; i++) {
        let b = 0;
        for (; b < MAX_BITS; b++) {
          this.quantize(s, i, b);
          if (this.ownError(s, i) <= start) break;
        }
        this.setBits(s, i, b);
      }
    }
    if (A === 0) return;
    for (let s = 0; s < this.segmentCount; s++) {
      const [k0, k1] = this.span(s);
      for (let guard = 0; guard < A * MAX_BITS; guard++) {
        if (this.measure(this.all, J, k0, k1) <= target) break;
        let worst = 0;
        for (let j = 1; j < J; j++) if (this.jointError[j] > this.jointError[worst]) worst = j;
        if (!this.bump(s, worst, k0, k1)) break;
      }
      // Give bits back, leaves first.
      for (let i = A - 1; i >= 0; i--) {
        while (this.bits[s * A + i] > 0) {
          const b = this.bits[s * A + i];
          this.setBits(s, i, b - 1);
          if (this.measure(this.all, J, k0, k1) <= target) continue;
          this.setBits(s, i, b);
          break;
        }
      }
    }
    // Whole clip: any instant still over (a boundary changed by the next segment's search).
    let guard = this.segmentCount * A * MAX_BITS;
    for (let k = 0; k < this.instants; k++) {
      while (guard-- > 0 && this.measure(this.all, J, k, k) > target) {
        let worst = 0;
        for (let j = 1; j < J; j++) if (this.jointError[j] > this.jointError[worst]) worst = j;
        const f0 = k >> 1, f1 = (k & 1) === 0 ? f0 : f0 + 1;
        const s0 = Math.floor(f0 / SEGMENT_LENGTH), s1 = Math.floor(f1 / SEGMENT_LENGTH);
        const a = this.bump(s0, worst, k, k);
        const b = s1 !== s0 && this.bump(s1, worst, k, k);
        if (!a && !b) break;
      }
    }
  }

  /** Gives one bit to the track on joint j's chain in segment s that lowers j's error over [k0, k1] most; false when none can take one. */
  bump(s: number, j: number, k0: number, k1: number): boolean {
    const A = this.trackJoint.length;
    let best = -1, bestError = Infinity;
    for (const a of this.chain[j]) {
      const tracks = ((this.mask[a] & ANIMATED_T) !== 0 ? 1 : 0) + ((this.mask[a] & ANIMATED_Q) !== 0 ? 1 : 0) + ((this.mask[a] & ANIMATED_S) !== 0 ? 1 : 0);
      for (let i = this.jointTrack[a], end = i + tracks; i < end; i++) {
        const b = this.bits[s * A + i];
        if (b >= MAX_BITS) continue;
        this.setBits(s, i, b + 1);
        const e = this.measureJoint(j, k0, k1);
        this.setBits(s, i, b);
        if (e < bestError) { bestError = e; best = i; }
      }
    }
    if (best < 0) return false;
    this.setBits(s, best, this.bits[s * A + best] + 1);
    return true;
  }

  setBits(s: number, i: number, bits: number): void {
    this.bits[s * this.trackJoint.length + i] = bits;
    this.quantize(s, i, bits);
  }

  /** The packed format. */
  pack(): CompressedTracks {
    const A = this.trackJoint.length, F = this.frameCount, S = this.segmentCount;
    const segmentBits = 24 * A < 65536 ? new Uint16Array(S * (A + 1)) : new Uint32Array(S * (A + 1));
    const segmentStart = new Uint32Array(S);
    let total = 0;
    for (let s = 0; s < S; s++) {
      const frames = Math.min(F, (s + 1) * SEGMENT_LENGTH) - s * SEGMENT_LENGTH;
      segmentStart[s] = total;
      let sum = 0;
      for (let i = 0; i < A; i++) {
        segmentBits[s * (A + 1) + i] = sum;
        sum += this.bits[s * A + i];
      }
      segmentBits[s * (A + 1) + A] = sum;
      total += frames * 3 * sum;
      if (total >= 2 ** 32) throw new RangeError('compressClip: more than 2^32 bits of samples');
    }
    const data = new Uint32Array(Math.ceil(total / 32) + 1);
    const codes = new Uint32Array(SEGMENT_LENGTH * 3);
    for (let s = 0; s < S; s++) {
      const frames = Math.min(F, (s + 1) * SEGMENT_LENGTH) - s * SEGMENT_LENGTH;
      for (let i = 0; i < A; i++) {
        const b = this.bits[s * A + i];
        this.quantize(s, i, b, codes);
        let p = segmentStart[s] + frames * 3 * segmentBits[s * (A + 1) + i];
        for (let n = 0; n < frames * 3; n++, p += b) {
          for (let bit = 0; bit < b; bit++) {
            if (((codes[n] >>> bit) & 1) !== 0) data[Math.floor((p + bit) / 32)] |= 1 << ((p + bit) % 32);
          }
        }
      }
    }
    const jointMask = this.mask, jointTrack = this.jointTrack, jointConstant = this.jointConstant;
    const constants = Float32Array.from(this.constants);
    const arrays = [jointMask, jointTrack, jointConstant, constants, this.clipMin, this.clipExtent, segmentStart, segmentBits, this.ranges, data];
    return Object.freeze({
      jointCount: this.jointCount, frameCount: F, segmentCount: S, animatedTracks: A,
      jointMask, jointTrack, jointConstant, constants, clipMin: this.clipMin, clipExtent: this.clipExtent,
      segmentStart, segmentBits, segmentRanges: this.ranges, data,
      byteLength: arrays.reduce((sum, a) => sum + a.byteLength, 0),
    });
  }
}

function encode(clip: Clip, tolerance: number, shell: number): CompressedTracks {
  const encoder = new Encoder(clip, tolerance, shell);
  encoder.classify(clip.difference === true);
  encoder.search();
  return encoder.pack();
}
