/**
 * Reduced (LOD) clips written as glTF 2.0 animations, through @gltf-transform/core: each
 * animated track of a clip's {@link ReducedTracks} becomes a `CUBICSPLINE` sampler that
 * reproduces its cubics, so a glTF viewer or engine plays what bitanim's reduced sampler plays.
 * Offline tooling (`bitanim lod --out`): allocates freely.
 *
 * **Records → CUBICSPLINE keys.** A track's records sit at its key times τ₀ < … < τₙ (the
 * union of its channels' keys, see `ReducedTracks`); on [τ_s, τ_{s+1}) record s holds per
 * channel P_s(u) = a + b·u + c·u² + d·u³, u = t − τ_s. glTF's `CUBICSPLINE` (glTF 2.0,
 * Appendix C) stores per key an in-tangent, a value and an out-tangent (units per second) and
 * evaluates the interval of length Δ = τ_{s+1} − τ_s as the cubic Hermite
 * `h00·v_s + h10·Δ·out_s + h01·v_{s+1} + h11·Δ·in_{s+1}`. A cubic is fixed by its end values and
 * end slopes, so with
 *
 *     v_s = a = P_s(0),   out_s = b = P_s'(0),   in_{s+1} = b + 2c·Δ + 3d·Δ² = P_s'(Δ)
 *
 * the Hermite is P_s itself, given v_{s+1} = P_s(Δ): the curves are continuous at their keys
 * (each segment is fitted through both of its keys, a record is an exact re-expansion), so
 * this holds to 32-bit rounding. The first key's in-tangent and the last key's out-tangent are
 * never evaluated; they repeat the other tangent of their key. A uniform scale (one stored
 * curve) is written as three equal components. A glTF sampler holds every component of a path,
 * so its keys are the track's (the union of its channels' keys).
 *
 * **Rotations.** glTF normalizes a `CUBICSPLINE` rotation after interpolating, as bitanim's
 * sampler does, but also wants unit key values, and fitted components are only near unit.
 * `unitRotationKeys` rescales each segment by a positive linear factor — the same rotation —
 * so the keys are unit; that is exact to second order, and segments where it is not within
 * {@link ROTATION_FIT} are split (`splitRotation`).
 *
 * **Constant tracks** are written as a `LINEAR` sampler with two equal keys (0 and the
 * duration, so the animation keeps its length) where the source animation had a channel for
 * that node and path or where the value differs from the node's own; else the node's own
 * transform already is that value and no channel is written.
 *
 * **Non-joint ancestors.** The importer bakes the transforms of non-joint nodes above a joint
 * into the joint's clip pose (prefix · local). The writer maps the curves back to the node's
 * local space: for a prefix x ↦ t + s·R·x (a similarity: uniform scale, no shear),
 * translation (v − t)·R⁻¹/s (tangents R⁻¹·m/s), rotation q_R⁻¹ ⊗ q, scale v/s are linear maps,
 * so cubics stay cubics and the quaternion's length, hence its normalization, is unchanged.
 * A prefix that is not a similarity is refused.
 */
import { Document, Format, Logger, VertexLayout, WebIO, type Accessor, type Animation, type AnimationSampler, type Node } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { AnimationError } from '../assets/AnimationError.js';
import { readTrack, type ReducedTracks } from '../assets/ReducedTracks.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { composeNodes } from '../import/gltf/nodePose.js';
import { decompose } from '../import/gltf/transform.js';
import * as affine from '../math/affine.js';
import { MATRIX_STRIDE, POSE_Q, POSE_S, POSE_STRIDE, POSE_T } from '../math/layout.js';
import * as quat from '../math/quat.js';

/** A glTF animation target path of a joint transform. */
export type TrsPath = 'translation' | 'rotation' | 'scale';

const PATHS: readonly TrsPath[] = ['translation', 'rotation', 'scale'];
const PATH_OFFSET = [0, 3, 7] as const;
const PATH_SIZE = [3, 4, 3] as const;
/** Prefix scales equal within this relative difference count as uniform. */
const UNIFORM_SCALE = 1e-6;
/** A constant equal to the node's own value within this (relative to max(1, |v|)) needs no channel. */
const SAME_VALUE = 1e-6;

/** One joint track of a reduced clip as glTF sampler data. */
export interface SplineTrack {
  /** Joint index in the clip's skeleton. */
  readonly joint: number;
  readonly path: TrsPath;
  /** Components per value: 3 (translation, scale) or 4 (rotation, `x y z w`). */
  readonly size: 3 | 4;
  /** False for a constant track: two keys (0 and the duration) with zero tangents. */
  readonly animated: boolean;
  /** Key times, seconds (32-bit values, as stored in the records). */
  readonly times: Float64Array;
  /** Per key `size` floats each of in-tangent, value, out-tangent (glTF's CUBICSPLINE order). */
  readonly values: Float64Array;
}

/**
 * Default of how far (largest quaternion component) the unit rescaling of rotation keys may
 * move a played rotation before a segment is split: ≈ 2e-5 rad, 0.02 mm at 1 m from the joint,
 * about 0.05 mm at a fingertip with every joint of a human chain off by that much — 1% of a
 * 5 mm tolerance. Measured at 5 mm on the Fox clips and the CMU walk, the split adds 3–17% keys
 * to the records; 1e-6 would add 18–59%.
 */
export const ROTATION_FIT = 1e-5;
/** Halvings of one rotation segment at most. */
const MAX_SPLITS = 12;

/**
 * The tracks of `tracks` as CUBICSPLINE keys (see the module comment), three per joint in
 * joint order (translation, rotation, scale), in the clip's (model-prefixed) joint space.
 * Rotation keys are unit ({@link unitRotationKeys}); a rotation segment where that would move
 * the played rotation by more than `rotationFit` (default {@link ROTATION_FIT}; quaternion
 * components) is split at its middle (its cubic re-expanded there, exactly) until it does not.
 * @example
 * for (const track of splineTracks(reduced.reduced!)) console.log(track.joint, track.path, track.times.length);
 */
export function splineTracks(tracks: ReducedTracks, rotationFit = ROTATION_FIT): SplineTrack[] {
  const { constants, jointCount, endTime } = tracks;
  const out: SplineTrack[] = [];
  for (let joint = 0; joint < jointCount; joint++) {
    for (let p = 0; p < 3; p++) {
      const size = PATH_SIZE[p];
      const first = joint * POSE_STRIDE + PATH_OFFSET[p];
      // The track's curves in float64, 32-bit or 16-bit as stored (see ReducedTracks).
      const track = readTrack(tracks, joint, p as 0 | 1 | 2);
      if (track === null) {
        const values = new Float64Array(6 * size);
        for (let key = 0; key < 2; key++) for (let c = 0; c < size; c++) values[(key * 3 + 1) * size + c] = constants[first + c];
        out.push({ joint, path: PATHS[p], size, animated: false, times: Float64Array.of(0, endTime), values });
        continue;
      }
      const stored = track.channels;
      const stride = 4 * stored;
      const count = track.times.length;
      // Segments in float64: start time and a b c d per component (a uniform scale expanded).
      const segmentTimes: number[] = [];
      const segments: Float64Array[] = [];
      for (let s = 0; s + 1 < count; s++) {
        const r = s * stride;
        const coefficients = new Float64Array(4 * size);
        for (let c = 0; c < size; c++) {
          const q = r + 4 * (stored === 1 ? 0 : c);
          for (let i = 0; i < 4; i++) coefficients[4 * c + i] = track.coefficients[q + i];
        }
        const t0 = track.times[s], t1 = track.times[s + 1];
        if (size === 4) splitRotation(t0, t1, coefficients, rotationFit, segmentTimes, segments, 0);
        else {
          segmentTimes.push(t0);
          segments.push(coefficients);
        }
      }
      const keys = segments.length + 1;
      const times = Float64Array.from([...segmentTimes, track.times[count - 1]]);
      const values = new Float64Array(keys * 3 * size);
      for (let k = 0; k + 1 < keys; k++) {
        const coefficients = segments[k];
        const h = times[k + 1] - times[k];
        for (let c = 0; c < size; c++) {
          const a = coefficients[4 * c], b = coefficients[4 * c + 1], cc = coefficients[4 * c + 2], d = coefficients[4 * c + 3];
          values[(k * 3 + 1) * size + c] = a;
          values[(k * 3 + 2) * size + c] = b;
          values[(k + 1) * 3 * size + c] = b + h * (2 * cc + 3 * d * h);
        }
      }
      // The last record holds the end values.
      const endRecord = (count - 1) * stride;
      const end = (keys - 1) * 3 * size;
      for (let c = 0; c < size; c++) {
        values[end + size + c] = track.coefficients[endRecord + 4 * (stored === 1 ? 0 : c)];
        values[c] = values[2 * size + c];
        values[end + 2 * size + c] = values[end + c];
      }
      if (size === 4) unitRotationKeys(times, values);
      out.push({ joint, path: PATHS[p], size, animated: true, times, values });
    }
  }
  return out;
}

/** Appends the segment [t0, t1] of a rotation, halved while {@link rescaleError} exceeds `fit`. */
function splitRotation(
  t0: number, t1: number, coefficients: Float64Array, fit: number, times: number[], segments: Float64Array[], depth: number,
): void {
  if (depth < MAX_SPLITS && rescaleError(coefficients, t1 - t0) > fit) {
    const middle = Math.fround((t0 + t1) / 2);
    if (middle > t0 && middle < t1) {
      splitRotation(t0, middle, coefficients, fit, times, segments, depth + 1);
      splitRotation(middle, t1, shiftCubic(coefficients, middle - t0), fit, times, segments, depth + 1);
      return;
    }
  }
  times.push(t0);
  segments.push(coefficients);
}

/** The same cubics re-expanded about u = h: a' = P(h), b' = P'(h), c' = c + 3d·h, d' = d. */
function shiftCubic(coefficients: Float64Array, h: number): Float64Array {
  const out = new Float64Array(coefficients.length);
  for (let o = 0; o < coefficients.length; o += 4) {
    const a = coefficients[o], b = coefficients[o + 1], c = coefficients[o + 2], d = coefficients[o + 3];
    out[o] = a + h * (b + h * (c + h * d));
    out[o + 1] = b + h * (2 * c + 3 * d * h);
    out[o + 2] = c + 3 * d * h;
    out[o + 3] = d;
  }
  return out;
}

/**
 * Largest quaternion-component difference, at 7 points inside the segment, between the
 * rotation the cubic P plays (P/|P|) and the one the unit-rescaled Hermite of
 * {@link unitRotationKeys} plays.
 */
function rescaleError(coefficients: Float64Array, h: number): number {
  const p0 = new Float64Array(4), m0 = new Float64Array(4), p1 = new Float64Array(4), m1 = new Float64Array(4);
  for (let c = 0; c < 4; c++) {
    const a = coefficients[4 * c], b = coefficients[4 * c + 1], cc = coefficients[4 * c + 2], d = coefficients[4 * c + 3];
    p0[c] = a;
    m0[c] = b;
    p1[c] = a + h * (b + h * (cc + h * d));
    m1[c] = b + h * (2 * cc + 3 * d * h);
  }
  const i0 = 1 / Math.hypot(p0[0], p0[1], p0[2], p0[3]), i1 = 1 / Math.hypot(p1[0], p1[1], p1[2], p1[3]);
  const slope = (i1 - i0) / h;
  for (let c = 0; c < 4; c++) {
    m0[c] = m0[c] * i0 + slope * p0[c];
    m1[c] = m1[c] * i1 + slope * p1[c];
    p0[c] = p0[c] * i0;
    p1[c] = p1[c] * i1;
  }
  let worst = 0;
  const hermite = new Float64Array(4), cubic = new Float64Array(4);
  for (let k = 1; k < 8; k++) {
    const s = k / 8, u = s * h;
    const s2 = s * s, s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    for (let c = 0; c < 4; c++) {
      hermite[c] = h00 * p0[c] + h10 * h * m0[c] + h01 * p1[c] + h11 * h * m1[c];
      const a = coefficients[4 * c], b = coefficients[4 * c + 1], cc = coefficients[4 * c + 2], d = coefficients[4 * c + 3];
      cubic[c] = a + u * (b + u * (cc + u * d));
    }
    quat.normalize(hermite, 0, hermite, 0);
    quat.normalize(cubic, 0, cubic, 0);
    for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(hermite[c] - cubic[c]));
  }
  return worst;
}

/**
 * A rotation key of a glTF CUBICSPLINE sampler (glTF 2.0 §3.11.2): in-tangent, value and
 * out-tangent, 4 floats (x y z w) each.
 */
const ROTATION_KEY = 12, KEY_IN = 0, KEY_VALUE = 4, KEY_OUT = 8;

/**
 * Scales a rotation track's key values to unit length, keeping (to second order) the rotation
 * it plays.
 *
 * glTF wants unit rotation values (loaders, `loadGltf` among them, normalize them), but fitted
 * components are only near unit at a key (|v_s| = n_s ≠ 1). The played rotation is the
 * normalized curve, so any positive multiple λ(u)·P(u) plays the same. On segment s take λ
 * linear from 1/n_s to 1/n_{s+1}, slope λ' = (1/n_{s+1} − 1/n_s)/Δ: λP has unit end values and
 * end slopes out_s = b/n_s + λ'·v_s, in_{s+1} = P'(Δ)/n_{s+1} + λ'·v_{s+1}. The Hermite through
 * those differs from λP (a quartic) only by λ'·d·u²(u − Δ)² — small, but ~1e-4 on long
 * segments of a loose fit, hence {@link splitRotation}. In- and out-tangents are per key in
 * glTF, so each segment has its own λ'.
 */
function unitRotationKeys(times: Float64Array, values: Float64Array): void {
  const count = times.length;
  const inverse = new Float64Array(count);
  for (let s = 0; s < count; s++) {
    const v = s * ROTATION_KEY + KEY_VALUE;
    inverse[s] = 1 / Math.hypot(values[v], values[v + 1], values[v + 2], values[v + 3]);
  }
  for (let s = 0; s < count; s++) {
    const o = s * ROTATION_KEY;
    const slopeIn = s > 0 ? (inverse[s] - inverse[s - 1]) / (times[s] - times[s - 1]) : 0;
    const slopeOut = s + 1 < count ? (inverse[s + 1] - inverse[s]) / (times[s + 1] - times[s]) : 0;
    for (let c = 0; c < 4; c++) {
      const v = values[o + KEY_VALUE + c];
      values[o + KEY_IN + c] = values[o + KEY_IN + c] * inverse[s] + slopeIn * v;
      values[o + KEY_OUT + c] = values[o + KEY_OUT + c] * inverse[s] + slopeOut * v;
      values[o + KEY_VALUE + c] = v * inverse[s];
    }
  }
}

/** A similarity transform x ↦ t + s·R·x, R the unit quaternion q. */
export interface Similarity {
  readonly t: Float64Array;
  readonly q: Float64Array;
  readonly s: number;
}

/**
 * `track` (in the clip's joint space, prefix · local) mapped to the node's local space under
 * the prefix `prefix` (see the module comment). Returns a new track.
 */
export function toLocalTrack(track: SplineTrack, prefix: Similarity): SplineTrack {
  const { size, values } = track;
  const out = new Float64Array(values.length);
  const inverse = new Float64Array(4);
  quat.conjugate(inverse, 0, prefix.q, 0);
  const v = new Float64Array(4);
  for (let e = 0; e < values.length / size; e++) {
    const o = e * size;
    const isValue = e % 3 === 1;
    if (track.path === 'translation') {
      for (let c = 0; c < 3; c++) v[c] = (values[o + c] - (isValue ? prefix.t[c] : 0)) / prefix.s;
      quat.rotateVec3(out, o, inverse, 0, v, 0);
    } else if (track.path === 'rotation') {
      quat.multiply(out, o, inverse, 0, values, o);
    } else {
      for (let c = 0; c < 3; c++) out[o + c] = values[o + c] / prefix.s;
    }
  }
  return { ...track, values: out };
}

/** The glTF nodes of a skeleton's joints and the similarity of their non-joint ancestors. */
export interface JointNodes {
  /** Node of joint j. */
  readonly nodes: readonly Node[];
  /** Per joint, the composed transform of the non-joint nodes above it (the importer's prefix), or null. */
  readonly prefixes: readonly (Similarity | null)[];
}

/**
 * Finds the skin of `document` whose joints are `skeleton`'s (as `loadGltf` built it from
 * that document): same joint count, every joint name the name of exactly one of the skin's
 * joint nodes, the same parents. Also returns each joint's prefix (see the module comment).
 * @throws AnimationError (`where`) when no skin matches (e.g. repeated or empty joint names,
 * which the importer renames), or when a prefix has non-uniform scale or shear.
 */
export function findJointNodes(document: Document, skeleton: Skeleton, where: string): JointNodes {
  for (const skin of document.getRoot().listSkins()) {
    const joints = skin.listJoints();
    if (joints.length !== skeleton.jointCount) continue;
    const inSkin = new Set(joints);
    const byName = new Map<string, Node[]>();
    for (const node of joints) byName.set(node.getName(), [...(byName.get(node.getName()) ?? []), node]);
    const nodes: Node[] = [];
    for (const name of skeleton.names) {
      const found = byName.get(name);
      if (found?.length !== 1) break;
      nodes.push(found[0]);
    }
    if (nodes.length !== skeleton.jointCount) continue;
    const jointParent = (node: Node): Node | null => {
      let p = node.getParentNode();
      while (p && !inSkin.has(p)) p = p.getParentNode();
      return p;
    };
    if (!nodes.every((node, j) => jointParent(node) === (skeleton.parents[j] < 0 ? null : nodes[skeleton.parents[j]]))) continue;
    const prefixes = nodes.map((node, j) => prefixOf(node, inSkin, where, skeleton.names[j]));
    return { nodes, prefixes };
  }
  throw new AnimationError(where, [{
    path: `skeleton "${skeleton.names[0]}" (${skeleton.jointCount} joints)`,
    message: 'matches no skin of the file by joint names and parents (repeated or empty joint names cannot be written back)',
  }]);
}

/** The similarity of the non-joint nodes between `node` and its nearest joint ancestor, or null. */
function prefixOf(node: Node, inSkin: ReadonlySet<Node>, where: string, name: string): Similarity | null {
  const chain: Node[] = [];
  for (let p = node.getParentNode(); p && !inSkin.has(p); p = p.getParentNode()) chain.push(p);
  const m = composeNodes(chain);
  if (m === null) return null;
  const pose = new Float64Array(POSE_STRIDE);
  const orthogonal = decompose(pose, 0, m, 0);
  const s = pose[POSE_S];
  if (!orthogonal || !(s > 0) || Math.abs(pose[POSE_S + 1] - s) > UNIFORM_SCALE * s || Math.abs(pose[POSE_S + 2] - s) > UNIFORM_SCALE * s) {
    throw new AnimationError(where, [{
      path: `joint "${name}"`,
      message: `has non-joint ancestors (${chain.map((n) => `"${n.getName()}"`).join(', ')}) with shear, a mirror or non-uniform scale: its curves cannot be written back as its local transform`,
    }]);
  }
  return { t: pose.slice(0, 3), q: pose.slice(3, 7), s };
}

/**
 * Removes `animation`'s channels on the joints' translation, rotation and scale, then the
 * samplers and accessors only they used. Returns which `joint:path` pairs had a channel and
 * how many channels were removed.
 */
export function removeJointChannels(document: Document, animation: Animation, joints: JointNodes): { had: Set<string>; replaced: number } {
  const root = document.getRoot();
  const jointNodes = new Set(joints.nodes);
  const had = new Set<string>();
  const samplers = new Set<AnimationSampler>();
  let replaced = 0;
  for (const channel of animation.listChannels()) {
    const node = channel.getTargetNode();
    const path = channel.getTargetPath();
    if (!node || !jointNodes.has(node) || !PATHS.includes(path as TrsPath)) continue;
    had.add(`${joints.nodes.indexOf(node)}:${path}`);
    const sampler = channel.getSampler();
    if (sampler) samplers.add(sampler);
    channel.dispose();
    replaced++;
  }
  const accessors = new Set<Accessor>();
  const used = new Set(animation.listChannels().map((c) => c.getSampler()));
  for (const sampler of samplers) {
    if (used.has(sampler)) continue;
    for (const a of [sampler.getInput(), sampler.getOutput()]) if (a) accessors.add(a);
    sampler.dispose();
  }
  for (const accessor of accessors) {
    if (accessor.listParents().every((p) => p === root)) accessor.dispose();
  }
  return { had, replaced };
}

/** What {@link writeClipAnimation} wrote. */
export interface WrittenAnimation {
  /** CUBICSPLINE channels (animated tracks). */
  readonly cubicChannels: number;
  /** LINEAR two-key channels (constant tracks kept). */
  readonly constantChannels: number;
  /** Channels of the source animation on the joints' transforms that were replaced. */
  readonly replacedChannels: number;
}

/**
 * Replaces `animation`'s channels on the joints' translation, rotation and scale with
 * `tracks` (from {@link splineTracks}, in the clip's joint space; mapped to each node's local
 * space through `joints.prefixes`). Other channels (morph weights, other nodes) are kept;
 * samplers and accessors only the replaced channels used are removed. New accessors go to the
 * document's first buffer (created if there is none); samplers with equal key times share
 * their input accessor.
 */
export function writeClipAnimation(document: Document, animation: Animation, tracks: readonly SplineTrack[], joints: JointNodes): WrittenAnimation {
  const root = document.getRoot();
  const buffer = root.listBuffers()[0] ?? document.createBuffer();
  const { had, replaced } = removeJointChannels(document, animation, joints);

  // 2. One channel per animated track, and per constant track that needs one.
  const inputs = new Map<string, Accessor>();
  const inputOf = (times: Float64Array): Accessor => {
    const key = Array.from(times, (t) => Math.fround(t)).join(',');
    let accessor = inputs.get(key);
    if (!accessor) {
      accessor = document.createAccessor().setType('SCALAR').setArray(Float32Array.from(times)).setBuffer(buffer);
      inputs.set(key, accessor);
    }
    return accessor;
  };
  let cubicChannels = 0, constantChannels = 0;
  const scratch = new Float64Array(4);
  for (const track of tracks) {
    const node = joints.nodes[track.joint];
    const prefix = joints.prefixes[track.joint] ?? null;
    const local = prefix ? toLocalTrack(track, prefix) : track;
    const { size, values } = local;
    let sampler: AnimationSampler;
    if (local.animated) {
      sampler = document.createAnimationSampler()
        .setInterpolation('CUBICSPLINE')
        .setInput(inputOf(local.times))
        .setOutput(document.createAccessor().setType(size === 4 ? 'VEC4' : 'VEC3').setArray(Float32Array.from(values)).setBuffer(buffer));
      cubicChannels++;
    } else {
      for (let c = 0; c < size; c++) scratch[c] = values[size + c];
      if (!had.has(`${track.joint}:${track.path}`) && sameAsNode(node, track.path, scratch)) continue;
      const pair = new Float32Array(2 * size);
      for (let c = 0; c < size; c++) pair[c] = pair[size + c] = scratch[c];
      sampler = document.createAnimationSampler()
        .setInterpolation('LINEAR')
        .setInput(inputOf(local.times))
        .setOutput(document.createAccessor().setType(size === 4 ? 'VEC4' : 'VEC3').setArray(pair).setBuffer(buffer));
      constantChannels++;
    }
    animation.addSampler(sampler);
    animation.addChannel(document.createAnimationChannel().setTargetNode(node).setTargetPath(track.path).setSampler(sampler));
  }
  return { cubicChannels, constantChannels, replacedChannels: replaced };
}

/** Whether `value` is the node's own translation, rotation (up to sign) or scale. */
function sameAsNode(node: Node, path: TrsPath, value: Float64Array): boolean {
  const own: number[] = path === 'translation' ? node.getTranslation() : path === 'rotation' ? node.getRotation() : node.getScale();
  const sign = path === 'rotation' && own[0] * value[0] + own[1] * value[1] + own[2] * value[2] + own[3] * value[3] < 0 ? -1 : 1;
  return own.every((v, c) => Math.abs(sign * value[c] - v) <= SAME_VALUE * Math.max(1, Math.abs(v)));
}

/** An End Site of a BVH file: a bone tip below joint `parent`, `offset` away (in the skeleton's units). */
export interface BoneTip {
  readonly parent: number;
  readonly offset: readonly [number, number, number];
}

/**
 * A new glTF document holding `skeleton` as a node hierarchy (each joint a node named after it,
 * with its rest transform) and a skin over those nodes with the skeleton's inverse bind
 * matrices, in one scene; `tips` (BVH End Sites) become child nodes `<joint>_end` outside the
 * skin, so viewers draw the last bones. No mesh: loaders that need one to show a skin may show
 * nothing, but `loadGltf` and engines that retarget by joint names read it.
 */
export function createSkeletonDocument(skeleton: Skeleton, tips: readonly BoneTip[] = []): { document: Document; joints: JointNodes } {
  const document = new Document();
  const buffer = document.createBuffer();
  const scene = document.createScene('skeleton');
  document.getRoot().setDefaultScene(scene);
  const nodes: Node[] = [];
  const { rest, parents, names, jointCount } = skeleton;
  for (let j = 0; j < jointCount; j++) {
    const o = j * POSE_STRIDE;
    const node = document.createNode(names[j])
      .setTranslation([rest[o + POSE_T], rest[o + POSE_T + 1], rest[o + POSE_T + 2]])
      .setRotation([rest[o + POSE_Q], rest[o + POSE_Q + 1], rest[o + POSE_Q + 2], rest[o + POSE_Q + 3]])
      .setScale([rest[o + POSE_S], rest[o + POSE_S + 1], rest[o + POSE_S + 2]]);
    nodes.push(node);
    if (parents[j] < 0) scene.addChild(node);
    else nodes[parents[j]].addChild(node);
  }
  for (const tip of tips) {
    nodes[tip.parent].addChild(document.createNode(`${names[tip.parent]}_end`).setTranslation([...tip.offset]));
  }
  const ibm = new Float32Array(jointCount * 16);
  for (let j = 0; j < jointCount; j++) affine.toMat4(ibm, j * 16, skeleton.inverseBind, j * MATRIX_STRIDE);
  const skin = document.createSkin('skeleton').setInverseBindMatrices(document.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
  for (const node of nodes) skin.addJoint(node);
  const firstRoot = parents.findIndex((p) => p < 0);
  if (firstRoot >= 0 && parents.filter((p) => p < 0).length === 1) skin.setSkeleton(nodes[firstRoot]);
  return { document, joints: { nodes, prefixes: nodes.map(() => null) } };
}

function newIO(): WebIO {
  return new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
}

/**
 * Reads a `.glb` (told by its magic) or a `.gltf` JSON file into a document for writing back;
 * a `.gltf`'s external buffers and images come from `resources` (by URI as the file writes
 * it; `data:` URIs need none). Call `loadGltf` on the same bytes first: it validates them.
 */
export async function readGltfDocument(bytes: Uint8Array, resources: Record<string, Uint8Array> = {}): Promise<Document> {
  // Compressed input (bitanim lod's own output among others) is decoded; written back plain,
  // or compressed again by compressGlb.
  await MeshoptDecoder.ready;
  const io = newIO().registerExtensions([EXTMeshoptCompression, KHRMeshQuantization]).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  const glb = bytes.byteLength >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
  let document: Document;
  if (glb) document = await io.readBinary(bytes);
  else {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as Parameters<WebIO['readJSON']>[0]['json'];
    // Files read from disk sit on ordinary ArrayBuffers (never shared memory).
    document = await io.readJSON({ json, resources: resources as Record<string, Uint8Array<ArrayBuffer>> });
  }
  for (const extension of document.getRoot().listExtensionsUsed()) if (extension.extensionName === EXTMeshoptCompression.EXTENSION_NAME) extension.dispose();
  return document;
}

/**
 * The document as file bytes: a GLB, or `.gltf` JSON with every buffer and image embedded as a
 * `data:` URI (the form `loadGltf` reads). Vertex attributes interleaved per primitive
 * (@gltf-transform's default), or with `separate` each in its own buffer view (what
 * `compressGlb` compresses).
 */
export async function writeGltfBytes(document: Document, format: 'glb' | 'gltf', separate = false): Promise<Uint8Array> {
  const io = newIO();
  if (separate) io.setVertexLayout(VertexLayout.SEPARATE);
  if (format === 'glb') return io.writeBinary(document);
  const { json, resources } = await io.writeJSON(document, { format: Format.GLTF });
  const embed = (uri: string | undefined, mimeType: string): string | undefined => {
    const bytes = uri === undefined ? undefined : resources[uri];
    return bytes ? `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}` : uri;
  };
  for (const buffer of json.buffers ?? []) buffer.uri = embed(buffer.uri, 'application/octet-stream');
  for (const image of json.images ?? []) image.uri = embed(image.uri, image.mimeType ?? 'application/octet-stream');
  return new TextEncoder().encode(JSON.stringify(json));
}
