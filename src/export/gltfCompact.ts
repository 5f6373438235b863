/**
 * Small glTF animation samplers for `bitanim lod --out`: per joint track the cheapest of
 * three encodings that keeps the error bound, then quantized through meshoptimizer's filters
 * (`./meshoptGlb.ts`), as gltfpack writes animation. Offline tooling: allocates freely.
 *
 * **Per track** (translation, rotation, scale of one joint), in this order:
 * 1. *dropped* — the source never leaves the node's own (rest) value by more than the track's
 *    quantization precision: no channel (glTF plays a node's own TRS where no channel drives it);
 * 2. *constant* — the source stays within that precision of one value, or the reduction found
 *    the track constant: a `LINEAR` sampler with two equal keys (0 and the duration);
 * 3. otherwise whichever is smaller once compressed (meshoptimizer's vertex codec, measured):
 *    *uniform* — the source's frames at the clip's frame rate, `LINEAR`, on one input accessor
 *    shared by every uniform track of the clip (no per-key time); between frames glTF's
 *    interpolation is the one the runtime plays the frames with (lerp; slerp against the
 *    runtime's nlerp, the same to third order in the per-frame angle), so these tracks carry no
 *    reduction error at all — or *keys* — the reduced clip's keys as `CUBICSPLINE` (see
 *    `./gltfAnimation.ts`), with their own input.
 *
 * **Quantization.** Uniform and constant rotations: meshoptimizer's `QUATERNION` filter
 * (normalized int16 in the decoded file, which core glTF 2.0 allows for rotation outputs);
 * translations, scales and CUBICSPLINE rotations (whose tangents are not unit): the
 * `EXPONENTIAL` filter (floats with fewer mantissa bits). Each track gets the fewest bits whose
 * round trip stays within its precision: `share × tolerance` of model-space distance spread
 * over the chain — `share × tolerance / depth` for a joint `depth` joints deep (worst case:
 * every joint of a chain off the same way), turned into local units by the parent's model
 * scale for translations and, for rotations and scales, by the joint's reach (`jointReach`:
 * farthest descendant plus the shell distance; a quaternion component off by ε turns by at
 * most 4ε). The caller checks the written file against the source and tightens `share` if
 * needed (`bitanim lod` does: see `src/cli/lod.ts`).
 */
import type { Accessor, Animation, AnimationSampler, Document } from '@gltf-transform/core';
import type { Clip } from '../assets/Clip.js';
import { readTrack } from '../assets/ReducedTracks.js';
import { computeRestModel } from '../assets/Skeleton.js';
import { MATRIX_STRIDE, NO_PARENT, POSE_S, POSE_STRIDE } from '../math/layout.js';
import * as quat from '../math/quat.js';
import { jointReach } from '../offline/lod/modelError.js';
import { removeJointChannels, splineTracks, toLocalTrack, type JointNodes, type Similarity, type SplineTrack, type TrsPath } from './gltfAnimation.js';
import { compressedSize, FILTER_EXTRAS, roundTripFilter, type MeshoptFilter } from './meshoptGlb.js';

const PATHS: readonly TrsPath[] = ['translation', 'rotation', 'scale'];
const PATH_OFFSET = [0, 3, 7] as const;
const PATH_SIZE = [3, 4, 3] as const;

/** How one track is written (see the module comment). */
export type CompactKind = 'dropped' | 'constant' | 'uniform' | 'keys';

/** One joint track as {@link writeCompactAnimation} writes it, in the node's local space. */
export interface CompactTrack {
  readonly joint: number;
  readonly path: TrsPath;
  readonly size: 3 | 4;
  readonly kind: CompactKind;
  /** `keys`: key times, seconds; null otherwise (uniform tracks use the clip's frame times, constant ones 0 and the duration). */
  readonly times: Float64Array | null;
  /** `uniform`: one value per frame; `constant`: one value; `keys`: in-tangent, value, out-tangent per key; `dropped`: empty. */
  readonly values: Float64Array;
  /** The meshoptimizer filter and bits of its output accessor. */
  readonly filter: MeshoptFilter;
  /** Largest component error the filter may add, in the output's local units (quaternion components for rotations). */
  readonly precision: number;
  /** Bytes its output (and, for keys, its input) take once compressed, measured on the track alone; 0 when dropped. */
  readonly bytes: number;
}

/** Options of {@link compactTracks}; lengths in the clip's units. */
export interface CompactOptions {
  /** The model-space error bound of the clip (joints and shell points). */
  readonly tolerance: number;
  /** Shell distance the bound is measured at (`reduceClip`'s `distance`). */
  readonly distance: number;
  /** Share of the tolerance quantization may take, in (0, 1]. */
  readonly share: number;
  /**
   * `'smaller'` (default): an animated track is written as the reduced keys where they take
   * fewer bytes than the uniform frames; `'needed'`: only where the uniform frames cannot be
   * (see {@link slerpDeviation}), so nearly all the error is quantization's and `share` may be large.
   */
  readonly keys?: 'smaller' | 'needed';
}

/** Counts per kind, for reports. */
export type CompactCounts = Record<CompactKind, number>;

/**
 * The tracks of `source` (dense frames) as {@link CompactTrack}s, choosing per track among
 * dropped, constant, uniform (the source's frames) and keys (from `keyedClip`, a reduction of
 * `source` or a function giving it when first needed, or null for none) as the module comment
 * says. Call `meshoptReady()` first.
 */
export function compactTracks(source: Clip, keyedClip: Clip | null | (() => Clip | null), joints: JointNodes, options: CompactOptions): CompactTrack[] {
  const { skeleton, frameCount, frames } = source;
  const jointCount = skeleton.jointCount;
  const reach = jointReach(skeleton, options.distance);
  const model = computeRestModel(skeleton.parents, skeleton.rest);
  const keysWhen = options.keys ?? 'smaller';
  // The reduction is asked for only when a track needs its keys (it may be made for the file: seconds on long takes).
  let resolved = false, keyed: Clip | null = null, splines: SplineTrack[] | null = null;
  const reduction = (): Clip | null => {
    if (!resolved) {
      keyed = typeof keyedClip === 'function' ? keyedClip() : keyedClip;
      splines = keyed?.reduced ? splineTracks(keyed.reduced) : null;
      resolved = true;
    }
    return keyed;
  };
  const out: CompactTrack[] = [];
  for (let joint = 0; joint < jointCount; joint++) {
    const depth = depthOf(skeleton.parents, joint);
    const allowed = (options.share * options.tolerance) / Math.sqrt(depth);
    const parent = skeleton.parents[joint];
    const parentScale = parent === NO_PARENT ? 1 : columnScale(model, parent);
    const prefix = joints.prefixes[joint] ?? null;
    const prefixScale = prefix?.s ?? 1;
    const node = joints.nodes[joint];
    for (let p = 0; p < 3; p++) {
      const path = PATHS[p], size = PATH_SIZE[p];
      const first = joint * POSE_STRIDE + PATH_OFFSET[p];
      let precision: number;
      if (p === 0) precision = allowed / (parentScale * prefixScale);
      else if (p === 1) precision = allowed / (4 * Math.max(reach[joint], 1e-9));
      else precision = (allowed * restScale(skeleton.rest, joint)) / (Math.max(reach[joint], 1e-9) * prefixScale);
      // The source's frames in the node's local space (rotations hemisphere-continuous).
      const uniform = new Float64Array(frameCount * size);
      for (let f = 0; f < frameCount; f++) for (let c = 0; c < size; c++) uniform[f * size + c] = frames[f * jointCount * POSE_STRIDE + first + c];
      toLocal(path, uniform, size, prefix);
      if (size === 4) makeContinuous(uniform);
      const own = path === 'translation' ? node.getTranslation() : path === 'rotation' ? node.getRotation() : node.getScale();
      const rest = Float64Array.from(own);
      if (size === 4 && dot4(rest, 0, uniform, 0) < 0) for (let c = 0; c < 4; c++) rest[c] = -rest[c];
      const maxFrom = (value: Float64Array): number => {
        let worst = 0;
        for (let f = 0; f < frameCount; f++) {
          const sign = size === 4 && dot4(value, 0, uniform, f * 4) < 0 ? -1 : 1;
          for (let c = 0; c < size; c++) worst = Math.max(worst, Math.abs(uniform[f * size + c] - sign * value[c]));
        }
        return worst;
      };
      if (maxFrom(rest) <= precision / 2) {
        out.push({ joint, path, size, kind: 'dropped', times: null, values: new Float64Array(0), filter: { filter: 'EXPONENTIAL', bits: 24 }, precision, bytes: 0 });
        continue;
      }
      const middle = midrange(uniform, size, frameCount);
      const known = keysWhen === 'smaller' ? reduction() : resolved ? keyed : null;
      const reducedConstant = known?.reduced ? readTrack(known.reduced, joint, p as 0 | 1 | 2) === null : false;
      if (maxFrom(middle) <= precision / 2 || reducedConstant) {
        const value = reducedConstant ? reducedValue(known!, joint, p, prefix, path, size) : middle;
        if (size === 4 && dot4(value, 0, uniform, 0) < 0) for (let c = 0; c < 4; c++) value[c] = -value[c];
        const filter = size === 4 ? chooseQuaternionBits(value, 1, precision / 2) : chooseExpBits(value, 1, size, precision / 2);
        out.push({ joint, path, size, kind: 'constant', times: null, values: value, filter, precision, bytes: 2 * (size === 4 ? 8 : 4 * size) });
        continue;
      }
      // glTF slerps between frames where the runtime nlerps: uniform frames only where that is within the joint's share.
      const playable = size !== 4 || slerpDeviation(uniform) * reach[joint] <= allowed;
      const uniformFilter = size === 4 ? chooseQuaternionBits(uniform, frameCount, precision) : chooseExpBits(uniform, frameCount, size, precision);
      const uniformBytes = compressedSize(Float32Array.from(uniform), frameCount, size, uniformFilter);
      if (!playable || keysWhen === 'smaller') reduction();
      const spline = (!playable || keysWhen === 'smaller') ? (splines as SplineTrack[] | null)?.find((s) => s.joint === joint && s.path === path && s.animated) ?? null : null;
      if (spline) {
        const local = prefix ? toLocalTrack(spline, prefix) : spline;
        const keys = local.times.length;
        const keysFilter = chooseExpBits(local.values, 3 * keys, size, precision);
        const keysBytes = compressedSize(Float32Array.from(local.values), 3 * keys, size, keysFilter) + compressedSize(Float32Array.from(local.times), keys, 1, null);
        if (keysBytes < uniformBytes || !playable) {
          out.push({ joint, path, size, kind: 'keys', times: local.times, values: local.values, filter: keysFilter, precision, bytes: keysBytes });
          continue;
        }
      }
      out.push({ joint, path, size, kind: 'uniform', times: null, values: uniform, filter: uniformFilter, precision, bytes: uniformBytes });
    }
  }
  return out;
}

/**
 * Largest angle, radians, between the rotation glTF plays between two consecutive frames of
 * `values` (unit quaternions, hemisphere-continuous) — slerp, angle u·φ from the first — and
 * the one the runtime plays — nlerp, angle atan2(u·sin φ, 1 − u + u·cos φ) — at u = 0.2 … 0.8
 * (the instants the bound is measured at), doubled (a quaternion's angle is half its rotation's).
 */
export function slerpDeviation(values: Float64Array): number {
  let worst = 0;
  for (let o = 4; o < values.length; o += 4) {
    const cos = Math.min(1, Math.abs(dot4(values, o - 4, values, o)));
    const phi = Math.acos(cos), sin = Math.sin(phi);
    for (let k = 1; k < 5; k++) {
      const u = k / 5;
      worst = Math.max(worst, 2 * Math.abs(u * phi - Math.atan2(u * sin, 1 - u + u * cos)));
    }
  }
  return worst;
}

/** Counts of each kind among `tracks`. */
export function countKinds(tracks: readonly CompactTrack[]): CompactCounts {
  const counts: CompactCounts = { dropped: 0, constant: 0, uniform: 0, keys: 0 };
  for (const t of tracks) counts[t.kind]++;
  return counts;
}

/**
 * Replaces `animation`'s channels on the joints' translation, rotation and scale with
 * `tracks` (from {@link compactTracks}, already in local space). Uniform tracks share one
 * input accessor (the source's `frameCount` frame times over `duration`), constant tracks one
 * two-key input (0, `duration`); each output accessor carries its meshoptimizer filter in
 * `extras` for `compressGlb`. Other channels are kept.
 */
export function writeCompactAnimation(document: Document, animation: Animation, tracks: readonly CompactTrack[], joints: JointNodes, frameCount: number, duration: number): void {
  const buffer = document.getRoot().listBuffers()[0] ?? document.createBuffer();
  removeJointChannels(document, animation, joints);
  let frameInput: Accessor | null = null, pairInput: Accessor | null = null;
  const keyInputs = new Map<string, Accessor>();
  const output = (values: Float64Array, size: 3 | 4, filter: MeshoptFilter): Accessor =>
    document.createAccessor().setType(size === 4 ? 'VEC4' : 'VEC3').setArray(Float32Array.from(values)).setBuffer(buffer).setExtras({ [FILTER_EXTRAS]: filter });
  for (const track of tracks) {
    if (track.kind === 'dropped') continue;
    let sampler: AnimationSampler;
    if (track.kind === 'uniform') {
      if (!frameInput) {
        const times = new Float32Array(frameCount);
        for (let f = 0; f < frameCount; f++) times[f] = frameCount > 1 ? (duration * f) / (frameCount - 1) : 0;
        frameInput = document.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer);
      }
      sampler = document.createAnimationSampler().setInterpolation('LINEAR').setInput(frameInput).setOutput(output(track.values, track.size, track.filter));
    } else if (track.kind === 'constant') {
      pairInput ??= document.createAccessor().setType('SCALAR').setArray(Float32Array.of(0, duration)).setBuffer(buffer);
      const pair = new Float64Array(2 * track.size);
      for (let c = 0; c < track.size; c++) pair[c] = pair[track.size + c] = track.values[c];
      sampler = document.createAnimationSampler().setInterpolation('LINEAR').setInput(pairInput).setOutput(output(pair, track.size, track.filter));
    } else {
      const key = Array.from(track.times!, (t) => Math.fround(t)).join(',');
      let input = keyInputs.get(key);
      if (!input) {
        input = document.createAccessor().setType('SCALAR').setArray(Float32Array.from(track.times!)).setBuffer(buffer);
        keyInputs.set(key, input);
      }
      sampler = document.createAnimationSampler().setInterpolation('CUBICSPLINE').setInput(input).setOutput(output(track.values, track.size, track.filter));
    }
    animation.addSampler(sampler);
    animation.addChannel(document.createAnimationChannel().setTargetNode(joints.nodes[track.joint]).setTargetPath(track.path).setSampler(sampler));
  }
}

/** Fewest QUATERNION bits (8–16) whose round trip of `values` stays within `precision`; EXPONENTIAL floats when 16 bits do not. */
function chooseQuaternionBits(values: Float64Array, count: number, precision: number): MeshoptFilter {
  const floats = Float32Array.from(values.subarray(0, count * 4));
  for (let bits = 8; bits <= 16; bits++) {
    const filter: MeshoptFilter = { filter: 'QUATERNION', bits };
    if (maxQuaternionError(floats, roundTripFilter(floats, count, 4, filter)) <= precision) return filter;
  }
  return chooseExpBits(values, count, 4, precision);
}

/** Fewest EXPONENTIAL bits (1–24) whose round trip of `values` (`count` × `size`) stays within `precision`. */
function chooseExpBits(values: Float64Array, count: number, size: number, precision: number): MeshoptFilter {
  const floats = Float32Array.from(values.subarray(0, count * size));
  let lo = 1, hi = 24;
  while (lo < hi) {
    const bits = (lo + hi) >> 1;
    if (maxError(floats, roundTripFilter(floats, count, size, { filter: 'EXPONENTIAL', bits })) <= precision) hi = bits;
    else lo = bits + 1;
  }
  return { filter: 'EXPONENTIAL', bits: lo };
}

function maxError(a: Float32Array, b: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/** Largest component difference of unit quaternions, up to sign (the filter may flip one). */
function maxQuaternionError(a: Float32Array, b: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < a.length; i += 4) {
    const sign = a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2] + a[i + 3] * b[i + 3] < 0 ? -1 : 1;
    for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(a[i + c] - sign * b[i + c]));
  }
  return worst;
}

/** Joints from the root to `joint`, both included. */
function depthOf(parents: Int16Array, joint: number): number {
  let depth = 1;
  for (let p = parents[joint]; p !== NO_PARENT; p = parents[p]) depth++;
  return depth;
}

/** Largest column length of joint `j`'s rest model matrix: its model-space scale. */
function columnScale(model: Float64Array, j: number): number {
  const o = j * MATRIX_STRIDE;
  let s = 0;
  for (let c = 0; c < 3; c++) s = Math.max(s, Math.hypot(model[o + 3 * c], model[o + 3 * c + 1], model[o + 3 * c + 2]));
  return s;
}

function restScale(rest: Float32Array, joint: number): number {
  const o = joint * POSE_STRIDE + POSE_S;
  return Math.max(Math.abs(rest[o]), Math.abs(rest[o + 1]), Math.abs(rest[o + 2]), 1e-9);
}

function dot4(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3];
}

/** The middle of each component's range over the frames (a rotation renormalized). */
function midrange(values: Float64Array, size: number, count: number): Float64Array {
  const out = new Float64Array(size);
  for (let c = 0; c < size; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let f = 0; f < count; f++) {
      lo = Math.min(lo, values[f * size + c]);
      hi = Math.max(hi, values[f * size + c]);
    }
    out[c] = (lo + hi) / 2;
  }
  if (size === 4) quat.normalize(out, 0, out, 0);
  return out;
}

/** The reduction's constant value of a track, in local space. */
function reducedValue(keyed: Clip, joint: number, p: number, prefix: Similarity | null, path: TrsPath, size: 3 | 4): Float64Array {
  const value = new Float64Array(size);
  const constants = keyed.reduced!.constants;
  for (let c = 0; c < size; c++) value[c] = constants[joint * POSE_STRIDE + PATH_OFFSET[p] + c];
  toLocal(path, value, size, prefix);
  if (size === 4) quat.normalize(value, 0, value, 0);
  return value;
}

/** Values (all of them values, no tangents) from the clip's joint space to the node's (see `toLocalTrack`). */
function toLocal(path: TrsPath, values: Float64Array, size: number, prefix: Similarity | null): void {
  if (!prefix) return;
  const inverse = new Float64Array(4);
  quat.conjugate(inverse, 0, prefix.q, 0);
  const v = new Float64Array(4);
  for (let o = 0; o < values.length; o += size) {
    if (path === 'translation') {
      for (let c = 0; c < 3; c++) v[c] = (values[o + c] - prefix.t[c]) / prefix.s;
      quat.rotateVec3(values, o, inverse, 0, v, 0);
    } else if (path === 'rotation') {
      for (let c = 0; c < 4; c++) v[c] = values[o + c];
      quat.multiply(values, o, inverse, 0, v, 0);
    } else {
      for (let c = 0; c < 3; c++) values[o + c] /= prefix.s;
    }
  }
}

/** Flips quaternions so consecutive ones are in the same hemisphere. */
function makeContinuous(values: Float64Array): void {
  for (let o = 4; o < values.length; o += 4) {
    if (dot4(values, o - 4, values, o) < 0) for (let c = 0; c < 4; c++) values[o + c] = -values[o + c];
  }
}
