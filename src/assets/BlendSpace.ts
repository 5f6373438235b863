/**
 * Blend spaces, the asset half: clips placed at points of a 1D or 2D parameter space (speed,
 * direction, slope, …) and the pure query that turns a parameter point into one blend weight
 * per clip. Playing the weighted clips on layers, phase-synchronized, is `setBlendSpace`'s job
 * (src/api/blendSpaces.ts); nothing here knows about the world.
 *
 * Source: Game Engine Architecture, 2nd ed. (Jason Gregory), "Complex LERP Blends" and
 * "Directional Locomotion".
 */
import { IssueList } from './AnimationError.js';
import { FLOAT32_MAX, shownValue } from './limits.js';
import { isClip, type Clip } from './Clip.js';
import { getSyncMarkers } from './syncMarkers.js';
import { buildFreeform, weightsFreeform, type FreeformTables } from './blendSpace/freeform.js';
import { findCorners, sortByX, weights1d, weightsBilinear } from './blendSpace/line.js';

/**
 * The blend of a space:
 *
 * | type | samples | weights |
 * | --- | --- | --- |
 * | `'1d'` | ≥ 2, distinct x; y ignored | the two neighbours of x, by LERP (GEA generalized 1D LERP) |
 * | `'bilinear'` | exactly 4, the corners of an axis-aligned rectangle | the four corners, two-step LERP |
 * | `'freeform'` | ≥ 3, distinct, not all collinear | the three corners of the Delaunay triangle holding (x, y), barycentric |
 */
export type BlendSpaceType = '1d' | 'bilinear' | 'freeform';

/** One clip of a blend space and where it sits. */
export interface BlendSpaceSample {
  /** A clip from `createClip`. */
  clip: Clip;
  /** Position on the first axis; finite. */
  x: number;
  /**
   * Position on the second axis; finite. Required by `'bilinear'` and `'freeform'`; optional
   * and ignored by `'1d'` (stored as 0 when omitted, refused when given but not finite).
   */
  y?: number;
  /**
   * Start-phase offset of this clip within the blend's sync group, in cycles (default 0): a
   * clip entering the blend starts at the group's phase plus this offset, and keeps it while
   * it plays — Tokage It Lab's start-phase offsets, which foot leads, so clips whose cycles start
   * on different feet step together. Any finite number, taken modulo 1 (−0.25 is 0.75, 1.5
   * is 0.5), as `play`'s `phaseOffset`.
   */
  phaseOffset?: number;
}

/** Input of {@link createBlendSpace}. The samples are copied. */
export interface BlendSpaceDesc {
  /** `'1d'` (x only), `'bilinear'` (a grid of x × y samples) or `'freeform'` (scattered x, y). */
  type: BlendSpaceType;
  /** The clips and their positions; at least one. */
  samples: readonly BlendSpaceSample[];
  /**
   * How `setBlendSpace` keeps the clips of a synced blend in step (default `'phase'`):
   * `'phase'` plays them at one normalized phase (plus each sample's `phaseOffset`);
   * `'markers'` warps each clip between the foot markers (`footDown:<foot>` / `footUp:<foot>`
   * events, as `detectFootContacts` writes them) that match the leading clip's, so the same
   * foot is down in all of them even when their cycles hold different numbers of steps or
   * start on the other foot (`play`'s `syncBy`). With `'markers'` every clip must have markers.
   */
  syncBy?: 'phase' | 'markers';
}

/**
 * An immutable blend space: sample positions and whatever the query needs precomputed. Every
 * per-sample array is indexed by sample, in input order, and so is the output of
 * `blendSpaceWeights`.
 *
 * Axes: any units work as long as samples and queries agree. For locomotion driven by
 * `setBlendSpace`, place each clip at its direction of travel with x along model X and y along
 * model Z (forward for characters facing +Z, as glTF's do; +X is then the character's left).
 */
export interface BlendSpace {
  /** The type it was created with (`BlendSpaceDesc.type`). */
  readonly type: BlendSpaceType;
  /** The samples' clips, in input order. */
  readonly clips: readonly Clip[];
  /** How a synced blend keeps its clips in step: `BlendSpaceDesc.syncBy` (`'phase'` when it was omitted). */
  readonly syncBy: 'phase' | 'markers';
  /** Sample x positions, one per sample. */
  readonly xs: Float64Array;
  /** Sample y positions, one per sample (0 for a `'1d'` sample given without y). */
  readonly ys: Float64Array;
  /**
   * Start-phase offsets, one per sample, in cycles: the given `phaseOffset` wrapped into
   * [0, 1) and rounded to float32 as the layer that plays the clip stores it (0 when omitted).
   */
  readonly phaseOffsets: Float32Array;
  /**
   * `'1d'`: sample indices by ascending x. `'bilinear'`: the corners `[(x₀, y₀), (x₁, y₀),
   * (x₀, y₁), (x₁, y₁)]` with `x₀ < x₁`, `y₀ < y₁`. `'freeform'`: empty.
   */
  readonly order: Uint32Array;
  /**
   * `'freeform'`: the Delaunay triangles, 3 sample indices each, counter-clockwise with x right
   * and y up. Empty otherwise.
   */
  readonly triangles: Uint32Array;
  /** `'freeform'`: the convex hull, sample indices counter-clockwise (x right, y up). Empty otherwise. */
  readonly hull: Uint32Array;
  /**
   * `'freeform'`: 6 floats per triangle (aligned with `triangles`), its first corner and the
   * inverse of its edge matrix, so a query's barycentric coordinates cost two dot products;
   * NaN coefficients mark a sliver that never claims a query. Empty otherwise.
   */
  readonly triangleFrames: Float64Array;
  /** `'freeform'`: 5 floats per hull edge `hull[k] → hull[k + 1 mod h]`: `ax ay dx dy 1/|d|²`. Empty otherwise. */
  readonly hullEdges: Float64Array;
}

const TYPES: readonly string[] = ['1d', 'bilinear', 'freeform'];
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_F64 = new Float64Array(0);
/**
 * The query point handed to the kernels, `[x, y]` (a fixed-size math temporary). Passing x and
 * y as arguments would box them whenever V8 does not inline a kernel — 32 bytes a query; this
 * small dispatcher is what gets inlined into the caller instead.
 */
const QUERY = new Float64Array(2);

/**
 * Builds a {@link BlendSpace}: validates the samples, then sorts them (`'1d'`), identifies the
 * rectangle's corners (`'bilinear'`) or triangulates them once with delaunator (`'freeform'`).
 *
 * @throws AnimationError naming the field and sample index of every fault: an unknown `type`;
 * a sample count the type cannot use (`'1d'` ≥ 2, `'bilinear'` exactly 4, `'freeform'` ≥ 3); a
 * `syncBy` other than `'phase'` or `'markers'`; a
 * sample that is not an object, a clip that is not a Clip or is a difference clip
 * (`createDifferenceClip`: it plays only as an additive layer) or, with `syncBy: 'markers'`,
 * has no sync markers; an x, y or phaseOffset that is not
 * a finite number, a missing y in a 2D space; two samples at one position (one x in `'1d'`); four
 * samples that are not the corners of an axis-aligned rectangle; freeform samples that all lie
 * on one line.
 * @example
 * const locomotion = createBlendSpace({
 *   type: 'freeform',
 *   samples: [
 *     { clip: idle, x: 0, y: 0 },
 *     { clip: walkForward, x: 0, y: 1.4 },
 *     { clip: strafeLeft, x: -1.2, y: 0 },
 *     { clip: strafeRight, x: 1.2, y: 0 },
 *   ],
 * });
 * const weights = new Float64Array(locomotion.clips.length);
 * blendSpaceWeights(locomotion, vx, vz, weights);
 */
export function createBlendSpace(desc: BlendSpaceDesc): BlendSpace {
  const issues = new IssueList('createBlendSpace');
  if (typeof desc !== 'object' || desc === null) {
    issues.add('desc', 'must be { type, samples }');
    issues.throwIfAny();
  }
  const type = desc.type;
  const samples = desc.samples;
  const known = TYPES.includes(type);
  if (!known) issues.add('type', `is ${shownValue(type)}: must be '1d', 'bilinear' or 'freeform'`);
  if (!Array.isArray(samples)) {
    issues.add('samples', 'must be an array of { clip, x, y?, phaseOffset? }');
    issues.throwIfAny();
  }

  const syncBy = desc.syncBy ?? 'phase';
  if (syncBy !== 'phase' && syncBy !== 'markers') issues.add('syncBy', `is ${shown(syncBy)}: must be 'phase' or 'markers'`);
  const n = samples.length;
  if (type === '1d' && n < 2) issues.add('samples', `has ${n}: a '1d' space needs at least 2 samples`);
  if (type === 'bilinear' && n !== 4) issues.add('samples', `has ${n}: a 'bilinear' space needs exactly 4 samples, the corners of a rectangle`);
  if (type === 'freeform' && n < 3) issues.add('samples', `has ${n}: a 'freeform' space needs at least 3 samples, not all on one line`);

  const planar = type !== '1d';
  const clips: Clip[] = [];
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const phaseOffsets = new Float32Array(n);
  let placed = true; // every position finite, so geometry can be checked
  for (let i = 0; i < n; i++) {
    const sample = samples[i];
    if (typeof sample !== 'object' || sample === null) {
      issues.add(`samples[${i}]`, 'must be { clip, x, y?, phaseOffset? }');
      placed = false;
      continue;
    }
    if (!isClip(sample.clip)) issues.add(`samples[${i}].clip`, 'must be a Clip from createClip');
    else if (sample.clip.difference === true) {
      issues.add(`samples[${i}].clip`, `"${sample.clip.name}" is a difference clip (createDifferenceClip): it holds differences, not poses, and a blend space plays its clips as poses; play it as an additive layer instead`);
    }
    else if (syncBy === 'markers' && getSyncMarkers(sample.clip).times.length === 0) {
      issues.add(`samples[${i}].clip`, `"${sample.clip.name}" has no sync markers (footDown:… / footUp:… events; detectFootContacts adds them), so it cannot be synced by markers: give it markers or use syncBy: 'phase'`);
    }
    clips.push(sample.clip);
    if (!isFiniteNumber(sample.x) || Math.abs(sample.x) > FLOAT32_MAX) {
      issues.add(`samples[${i}].x`, `is ${shown(sample.x)}: must be a finite number within ±3.4e38 (the Float32 range, as setBlendSpace's x)`);
      placed = false;
    } else xs[i] = sample.x;
    if (sample.y === undefined && planar) {
      if (known) issues.add(`samples[${i}].y`, `is missing: a '${type}' space is 2D`);
      placed = false;
    } else if (sample.y !== undefined && (!isFiniteNumber(sample.y) || Math.abs(sample.y) > FLOAT32_MAX)) {
      issues.add(`samples[${i}].y`, `is ${shown(sample.y)}: must be a finite number within ±3.4e38 (the Float32 range, as setBlendSpace's y)`);
      placed = false;
    } else ys[i] = sample.y ?? 0;
    const offset = sample.phaseOffset;
    if (offset !== undefined) {
      if (!isFiniteNumber(offset)) issues.add(`samples[${i}].phaseOffset`, `is ${shown(offset)}: must be a finite number (cycles)`);
      else phaseOffsets[i] = wrapPhase(offset);
    }
  }

  if (placed && known) {
    // Two clips at one point cannot be told apart, and would divide by zero below.
    for (let i = 1; i < n; i++) {
      for (let j = 0; j < i; j++) {
        if (xs[i] === xs[j] && (!planar || ys[i] === ys[j])) {
          const at = planar ? `(${xs[i]}, ${ys[i]})` : `x = ${xs[i]}`;
          issues.add(`samples[${i}]`, `is at ${at}, the position of samples[${j}]: each sample needs its own position`);
          break;
        }
      }
    }
  }

  let order: Uint32Array = EMPTY_U32;
  let tables: FreeformTables | null = null;
  if (issues.issues.length === 0) {
    if (type === '1d') order = sortByX(xs);
    else if (type === 'bilinear') order = findCorners(issues, xs, ys) ?? EMPTY_U32;
    else tables = buildFreeform(issues, xs, ys);
  }
  issues.throwIfAny();

  return Object.freeze({
    type,
    clips: Object.freeze(clips),
    syncBy,
    xs,
    ys,
    phaseOffsets,
    order,
    triangles: tables?.triangles ?? EMPTY_U32,
    hull: tables?.hull ?? EMPTY_U32,
    triangleFrames: tables?.triangleFrames ?? EMPTY_F64,
    hullEdges: tables?.hullEdges ?? EMPTY_F64,
  });
}

/**
 * The blend weights of the query point (x, y): writes one weight per sample into
 * `out[0 .. clips.length)`, in input order; entries past that are untouched. At most two
 * (`'1d'`), four (`'bilinear'`) or three (`'freeform'`) are non-zero; all are ≥ 0 and they sum
 * to 1.
 *
 * - `'1d'`: x clamped to the samples' range; the two samples around it get `1 − u` and `u`,
 *   `u = (x − xₖ) / (xₖ₊₁ − xₖ)`; at a sample, weight 1 on it. y is ignored.
 * - `'bilinear'`: (x, y) clamped to the rectangle; `u`, `v` its fractions along x and y; corners
 *   (x₀, y₀), (x₁, y₀), (x₀, y₁), (x₁, y₁) get `(1 − u)(1 − v)`, `u(1 − v)`, `(1 − u)v`, `uv`.
 * - `'freeform'`: at a sample, weight 1 on it; inside the hull, the barycentric coordinates
 *   (α, β, γ) of the Delaunay triangle that holds the point, so `Σ wᵢ·pᵢ = (x, y)`; outside,
 *   the point is projected to the nearest point of the hull: two weights on an edge, one at a
 *   vertex.
 *
 * A hot query: no validation, no throwing, no allocation (the dispatcher is small enough for
 * V8 to inline into the calling loop, and it hands the point to the kernels through a scratch
 * array, so no double is boxed). A non-finite x (or, in 2D, y) gives weight 1 on sample 0
 * rather than NaN. `out` must hold at least `clips.length` entries.
 * @example
 * const weights = new Float64Array(space.clips.length); // once
 * blendSpaceWeights(space, speed, 0, weights);          // per frame
 */
export function blendSpaceWeights(space: BlendSpace, x: number, y: number, out: Float64Array): void {
  const type = space.type;
  const planar = type !== '1d';
  if (!Number.isFinite(x) || (planar && !Number.isFinite(y))) {
    out.fill(0, 0, space.xs.length);
    out[0] = 1;
    return;
  }
  QUERY[0] = x;
  QUERY[1] = y;
  if (type === '1d') weights1d(space.order, space.xs, QUERY, out);
  else if (type === 'bilinear') weightsBilinear(space.order, space.xs, space.ys, QUERY, out);
  else weightsFreeform(space, space.xs, space.ys, QUERY, out);
}

/**
 * {@link blendSpaceWeights} at the point `point[0], point[1]` (y ignored by '1d' spaces): the
 * same weights, for callers whose point is in an array (a double passed to a call would be
 * boxed; `setBlendSpace`'s and `stateMachineSystem`'s shared path). No allocation.
 */
export function blendSpaceWeightsAt(space: BlendSpace, point: Float64Array, out: Float64Array): void {
  const type = space.type;
  if (!Number.isFinite(point[0]) || (type !== '1d' && !Number.isFinite(point[1]))) {
    out.fill(0, 0, space.xs.length);
    out[0] = 1;
    return;
  }
  if (type === '1d') weights1d(space.order, space.xs, point, out);
  else if (type === 'bilinear') weightsBilinear(space.order, space.xs, space.ys, point, out);
  else weightsFreeform(space, space.xs, space.ys, point, out);
}

/**
 * Chooses between the two hemispheres of directional locomotion, GEA's answer to backward
 * motion (legs would cross if backward clips were blended with forward ones): one space for
 * forward motion (samples with y ≥ 0) and one for backward (y ≤ 0), switched on the sign of
 * the forward velocity y. A band of ±`hysteresis` around y = 0 keeps the current choice, so
 * noise around sideways motion does not flicker between them; the caller plays the transition
 * between hemispheres when the result changes.
 *
 * Returns 1 (backward) when `y < −hysteresis`, 0 (forward) when `y > hysteresis`, else
 * `current` (also for NaN y). `hysteresis` is in y's units (default 0.05) and is not
 * validated. The spaces are not read — the rule depends on y alone; they are parameters so a
 * call names the pair it switches between. A hot query: no allocation, no throwing.
 * @example
 * hemisphere = pickHemisphere(forward, backward, vz, hemisphere);
 * blendSpaceWeights(hemisphere === 0 ? forward : backward, vx, vz, weights);
 */
export function pickHemisphere(forward: BlendSpace, backward: BlendSpace, y: number, current: 0 | 1, hysteresis = 0.05): 0 | 1 {
  if (y < -hysteresis) return 1;
  if (y > hysteresis) return 0;
  return current;
}

/**
 * `phase` (finite, cycles) wrapped into [0, 1) as float32 stores it: p − ⌊p⌋, and 0 where
 * float32 rounding would give 1 (1 − 2⁻⁶⁰ is below 1 as a double, not as a float32).
 */
function wrapPhase(phase: number): number {
  const u = phase - Math.floor(phase);
  return Math.fround(u) >= 1 ? 0 : u;
}

/** A value as an error message shows it: numbers as numbers, strings quoted (`"0.5"`, not 0.5). */
function shown(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

