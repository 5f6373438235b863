/**
 * glTF 2.0 import: skins → {@link Skeleton}s, animations → {@link Clip}s (morph-target weights
 * → clip curves), skinned primitives and rigid ones on joints → {@link SkinnedMeshData},
 * through @gltf-transform/core.
 *
 * **Input.** A `.glb` or a `.gltf` JSON file with embedded (`data:`) buffers, told apart by
 * the GLB magic `glTF`. External buffer URIs are refused here and read by `loadGltfFile` (files
 * in the file's folder, `./gltfFile.ts`) and `loadGltfUrl` (same-origin URLs, `./gltfUrl.ts`);
 * images are never decoded (their bytes are handed on, see **Materials**). `EXT_meshopt_compression` views are
 * decoded first (`./gltf/meshopt.ts`); `KHR_mesh_quantization`'s integer attributes are read
 * as floats (normalized ones divided out), the dequantization a skinned mesh needs being in its
 * inverse bind matrices, as the extension requires; `KHR_draco_mesh_compression` is refused.
 * Every index, length and number is checked before use (`./gltf/validate.ts`), so a
 * malformed file gives one {@link AnimationError} naming the JSON path or byte offset, never
 * another exception, a hang or a huge allocation.
 *
 * **Units.** `scale` (metres per file unit, or `'cm'`, `'mm'`, `'in'`, `'ft'`, `'m'`; default 1,
 * glTF's metre) multiplies every length as it is read: joint rest and animated translations
 * (after the non-joint ancestors are composed in), the inverse bind matrices' translations
 * and mesh positions. That is the whole world scaled by s (S·M·S⁻¹ for every transform), so
 * rotations and scales are unchanged and skinned vertices come out × s. `height` instead picks
 * the s that makes the first skeleton's rest figure (its meshes skinned at rest, else its
 * joints; `restFigureHeight`) that tall. Without `height`, a rest figure outside
 * {@link PLAUSIBLE_FIGURE} metres gets a `units:` warning naming the likely unit or factor.
 *
 * **Skeletons.** One per distinct skin: skins with the same joint nodes and the same inverse
 * bind matrices share one (RobotExpressive's two hand skins). For each:
 * 1. Joint names are node names. A name already taken by an earlier joint of the skeleton
 *    gets `_1`, `_2`, … appended (three.js does the same), an empty one becomes `joint<i>`
 *    (i = its index in the skeleton); renames are listed in `warnings`.
 * 2. Joints are ordered parents first, keeping the skin's order where it already is; the
 *    inverse bind matrices and the meshes' `JOINTS_0` are remapped to that order.
 * 3. A joint's parent is its nearest ancestor node that is a joint of the skin (or none), and
 *    its rest transform is `N₁·N₂·…·Nₖ·L`: the non-joint nodes between (for a root joint, all
 *    its ancestors up to the scene root) composed with its own local transform, decomposed
 *    back into T, R, S (shear, which T·R·S cannot hold, is dropped with a warning). So model
 *    space is glTF world space and `model × inverseBind` is glTF's joint matrix; the skinned
 *    mesh node's own transform is ignored, as the specification requires.
 * 4. `inverseBind` is the skin's inverseBindMatrices with the bottom row dropped (identity
 *    when absent). The hip joint is createSkeleton's default.
 * 5. `attachments`: every child node of a joint that is no joint of any skin and has no mesh
 *    and no skin (RobotExpressive's `Head_end`, `Foot.L_end`), named after the node (`node<i>`
 *    when unnamed; repeats get `_1`, `_2`, …), its own T, R, S the offset (translation × `scale`).
 * 6. `curves`: the morph-target weights of the meshes bound to the skeleton (see **Morph
 *    targets**), in node order, each with the node's `weights` (else the mesh's, else 0) as
 *    its default.
 *
 * **Clips.** One per animation, on the skeleton whose joints it animates most (ties: the
 * first), `loop: true`, named after the animation (or `animation<i>`). Keys are resampled
 * uniformly over [0, D], D = the animation's last key time, at a rate chosen per clip
 * (`./gltf/resample.ts`):
 * 1. The key grid: the smallest whole rate g ≤ 1000 Hz with every key time on a multiple of
 *    1/g (24 for 24 fps keys; 120 for the Fox's Run, whose keys jump by 0.2 s = 4.8 frames).
 *    Frame f is at f/g, so every key is a frame; the clip's rate is g. Without a grid the
 *    rate starts at 30 and keeps D exactly: `round(D × rate)` intervals, rate `intervals / D`.
 * 2. The error: every joint's model-space position, the frames interpolated as the runtime
 *    does (lerp, and nlerp for rotations), against the file's own interpolation (LINEAR with
 *    slerp, STEP, CUBICSPLINE), at every frame and key instant and ¼, ½, ¾ between, in metres
 *    (file units × `scale`). Even with every key a frame, nlerp between frames is not slerp:
 *    the Fox's Walk is 0.61 mm off at 24 fps, the robot's Punch 74 mm.
 * 3. The lowest of g, 2g, 3g, 4g, 6g, 8g, … (≤ 1000 Hz) within `tolerance` (default 0.1 mm) is kept, and its error
 *    is `clip.importError`. When none is (STEP keys jump between two frames at any rate; the
 *    search also stops before a clip of 4M floats), the last rate that still helped is kept
 *    with a warning.
 * A given `frameRate` forces `round(D × frameRate)` intervals (rate `intervals / D`, D kept,
 * the loop seam on the last key), with a warning when that is more than 0.1 mm off. A
 * single-key animation (every channel has one key, at any time) is a constant pose: one
 * frame. Joints the animation does not animate hold their rest transform; a joint with
 * non-joint ancestors in between gets the composition of **Skeletons** point 3. An animation that animates
 * no joint at all (only morph weights, say) gives no clip, with a warning.
 *
 * **Morph targets.** A mesh's targets are curves named `<mesh>.<target>` — the target name
 * from `mesh.extras.targetNames` (three.js's convention), else its index; the mesh name as in
 * **Meshes** — listed on its skeleton (point 6). Each primitive returns its targets
 * (`morphTargets`: position deltas, and normal deltas when both the target and the primitive
 * have normals, in the mesh data's space, × `scale`). A `weights` channel on a node whose mesh
 * is bound to the clip's skeleton becomes the clip's curves of that mesh: its keys (STEP,
 * LINEAR as a plain lerp, CUBICSPLINE) sampled at the clip's frame instants; the frame rate is
 * chosen from the joints alone, so a weights key between frames is cut by the lerp between
 * frames (RobotExpressive's are on its frames).
 *
 * **Bounded work.** What a file makes the importer do is bounded by its distinct content, not by
 * how often its JSON refers to it: an animation that repeats an earlier one (the same channels and
 * samplers under another name) is read and resampled once and its clip shared — each copy is
 * that clip renamed, over the same frames — and every accessor, track and distinct animation is
 * decoded once whatever uses it. Past these limits a file is refused with an `AnimationError`
 * naming the limit and the count: 2²⁹ bytes of used accessors, each counted on its own since
 * @gltf-transform copies each out of its view (MAX_GLTF_ACCESSOR_BYTES: accessors aliasing one
 * buffer view), 2¹⁷ distinct animation channels (MAX_GLTF_CHANNELS), 2²⁵ decoded
 * key numbers — key times and output components — (MAX_GLTF_KEY_NUMBERS, counted before they are
 * decoded), 2²⁶ frame floats in the file's clips together (MAX_GLTF_CLIP_FLOATS, 256 MB; shared
 * frames counted once), besides one clip's own 2²⁶.
 *
 * **Ignored, with one warning line per animation and kind:** `weights` channels on nodes whose
 * mesh is not bound to the clip's skeleton, channels on non-joint ancestors of the joints (their rest transform is baked in), channels
 * on other nodes that are not joints of the clip's skeleton, channels without a target node
 * (extensions) or with an unknown path.
 *
 * **Meshes.** Every triangle-list primitive of a mesh on a node with a skin (other modes and
 * primitives without JOINTS_0/WEIGHTS_0 are skipped with a warning; a mesh and skin pair on
 * several nodes is read once, since the nodes' own transforms do not apply), and of a mesh on
 * a node without a skin that is, or is under, a joint: a **rigid mesh**, bound to the nearest
 * such joint J with weight 1 (`rigidJoint`), its bind positions B·P·v with B the inverse of
 * J's inverse bind matrix and P the node transforms from J down to the mesh node (so the
 * palette, J's model × inverse bind, places it where glTF does; normals by the inverse
 * transpose, renormalized). Meshes on no joint are not read. Weights are
 * renormalized to sum 1; a vertex whose weights sum to 0 gets weight 1 on its first joint
 * (counted in a warning). A `JOINTS_0` index beyond the skin is an error where its weight is
 * not 0, and is mapped to the skin's first joint where it is (it never contributes).
 * `TEXCOORD_0`, when present, becomes `uvs` (V×2 float32; normalized integers of
 * KHR_mesh_quantization divided out, so within 1/65535 or 1/255 of the floats quantized).
 *
 * **Materials.** Each skinned primitive carries its material ({@link GltfMaterial}), checked
 * before anything is read (`./gltf/materials.ts`): the base colour factor, the base colour
 * texture as the image's encoded bytes (from a buffer view, a `data:` URI, or a file or URL
 * beside the file that `loadGltfFile`/`loadGltfUrl` read; `loadGltf(bytes)` refuses an external
 * image), its MIME type and sampler (glTF enums, wraps default REPEAT), `doubleSided`,
 * `alphaMode` and `alphaCutoff`. A texture, sampler or image index out of range, an image with
 * no bytes or an unknown type, a factor outside [0, 1] is an error naming the primitive and
 * the material. Other material properties (metal/roughness, normal maps, …) are not read.
 */
import { Logger, WebIO, type Document, type GLTF, type Node } from '@gltf-transform/core';
import { AnimationError } from '../assets/AnimationError.js';
import type { Clip } from '../assets/Clip.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { buildClips, uniqueAnimations } from './gltf/clips.js';
import { readContainer, WHERE } from './gltf/container.js';
import { buildMeshes, type SkinnedMeshData } from './gltf/meshes.js';
import { decodeMeshopt } from './gltf/meshopt.js';
import { readExternalBuffers, type ResourceReader } from './gltf/resources.js';
import { IMPORT_TOLERANCE } from './gltf/resample.js';
import type { Context } from './gltf/shared.js';
import { addCurves, buildSkeletons } from './gltf/skeletons.js';
import { validateGltf, type ValidatedGltf } from './gltf/validate.js';
import { restFigureHeight } from './figureHeight.js';
import { figureUnitsWarning, parseScale, SCALE_EXPECTED, type UnitName, type UnitsWording } from './units.js';

/** Options of {@link loadGltf}. */
export interface GltfOptions {
  /**
   * Resampling rate in frames per second, finite and > 0. Default: per clip, the keys' own
   * rate, or a multiple of it that keeps every joint within 0.1 mm of the file's
   * interpolation (see the module comment and `Clip.importError`). Given, it is forced, with a
   * warning for a clip it puts more than 0.1 mm off.
   */
  frameRate?: number;
  /**
   * The file's unit, converted to metres at import: metres per file unit (finite, > 0) or a
   * unit name, `'m'`, `'cm'`, `'mm'`, `'in'`, `'ft'` (default 1: glTF's own unit, the metre).
   * Every length is multiplied by it — joint rest and animated translations, the translation
   * of the inverse bind matrices, mesh positions — so skinning gives the same shape, scaled;
   * rotations and scales are unchanged.
   */
  scale?: number | UnitName;
  /**
   * Largest model-space joint position error, metres, the rate search accepts, and above
   * which a forced `frameRate` is warned about; finite and > 0 (default 1e-4: 0.1 mm).
   */
  tolerance?: number;
  /**
   * The height, metres (finite, > 0), the first skeleton's rest figure is scaled to: the file
   * is read with the `scale` that makes its rest figure — the meshes bound to that skeleton,
   * skinned at the rest pose, or its joints when it has none (`restFigureHeight`) — this tall
   * along +Y. For a file in unknown units (`{ height: 1.8 }` for a person). Not with `scale`.
   */
  height?: number;
}

/** The options {@link loadGltf} takes. */
const GLTF_OPTIONS: readonly string[] = ['frameRate', 'scale', 'tolerance', 'height'];

export { PLAUSIBLE_FIGURE } from './units.js';

export type { SkinnedMeshData } from './gltf/meshes.js';
export type { GltfMaterial } from './gltf/materials.js';

/** What {@link loadGltf} returns. */
export interface GltfResult {
  /** One per distinct skin (same joints and inverse bind matrices → one skeleton). */
  readonly skeletons: Skeleton[];
  /** One per animation that animates joints, on the skeleton whose joints it animates most. */
  readonly clips: Clip[];
  /** One per triangle primitive bound to a skeleton: skinned, or rigid on a joint (`rigidJoint`). */
  readonly meshes: SkinnedMeshData[];
  /** Things ignored or repaired, one line each. */
  readonly warnings: string[];
}

/**
 * Reads a glTF 2.0 file (`.glb` or `.gltf` with embedded buffers) into skeletons (with
 * attachments and morph curves), clips (with morph-weight curves) and mesh data (skinned, and
 * rigid meshes on joints, with their morph targets). Meshopt-compressed (`EXT_meshopt_compression`) and quantized
 * (`KHR_mesh_quantization`) files are decoded. See the module comment for the policies; for a
 * `.gltf` with its `.bin` beside it use `loadGltfFile` (Node) or `loadGltfUrl`.
 *
 * @throws AnimationError for a bad or unknown option (`frameRate`, `scale`, `tolerance`, `height`; `height` with `scale`), and for malformed input, naming the JSON path or byte offset: truncated
 * GLB, wrong magic, JSON that is not glTF, external URIs, accessors out of range, joint
 * indices out of range, non-finite transforms or keys, unsupported required extensions
 * (`KHR_draco_mesh_compression` among them), malformed compressed views, bad materials,
 * textures, samplers or images of skinned primitives, external images; and for a file past the
 * limits on its animation work (module comment, **Bounded work**), naming the limit and the count.
 * @example
 * const { skeletons, clips, meshes } = await loadGltf(new Uint8Array(await (await fetch('fox.glb')).arrayBuffer()), { scale: 'cm' });
 */
export async function loadGltf(bytes: Uint8Array, options: GltfOptions = {}): Promise<GltfResult> {
  return loadGltfWith(bytes, options, null);
}

/**
 * {@link loadGltf} with external buffers read through `reader` (null: refused). What
 * `loadGltfFile` and `loadGltfUrl` call; the reader's own `AnimationError`s pass through.
 */
export async function loadGltfWith(bytes: Uint8Array, options: GltfOptions, reader: ResourceReader | null): Promise<GltfResult> {
  try {
    return await importGltf(bytes, options, reader);
  } catch (error) {
    if (error instanceof AnimationError) throw error;
    // A fault the checks missed: still an AnimationError, never another exception.
    throw new AnimationError(WHERE, [{ path: 'file', message: `could not be read: ${messageOf(error)}` }]);
  }
}

async function importGltf(bytes: Uint8Array, options: GltfOptions, reader: ResourceReader | null): Promise<GltfResult> {
  if (options === null || typeof options !== 'object') throw new AnimationError(WHERE, [{ path: 'options', message: `is ${String(options)}: must be an object` }]);
  const unknown = Object.keys(options).filter((key) => !GLTF_OPTIONS.includes(key));
  if (unknown.length) {
    throw new AnimationError(WHERE, unknown.map((key) => ({ path: `options.${key}`, message: `is an unknown option: loadGltf takes ${GLTF_OPTIONS.join(', ')}` })));
  }
  const height = options.height ?? null;
  if (height !== null && (typeof height !== 'number' || !Number.isFinite(height) || height <= 0)) {
    throw new AnimationError(WHERE, [{ path: 'options.height', message: `is ${String(height)}: must be a finite number > 0 (metres)` }]);
  }
  if (height !== null && options.scale !== undefined) {
    throw new AnimationError(WHERE, [{ path: 'options.height', message: 'is given with options.scale: height sets the scale (the rest figure that tall); give one of them' }]);
  }
  const frameRate = options.frameRate ?? null;
  if (frameRate !== null && (typeof frameRate !== 'number' || !Number.isFinite(frameRate) || frameRate <= 0)) {
    throw new AnimationError(WHERE, [{ path: 'options.frameRate', message: `is ${String(frameRate)}: must be a finite number > 0` }]);
  }
  const scale = options.scale === undefined ? 1 : parseScale(options.scale);
  if (Number.isNaN(scale)) {
    throw new AnimationError(WHERE, [{ path: 'options.scale', message: `is ${JSON.stringify(options.scale) ?? String(options.scale)}: must be ${SCALE_EXPECTED}` }]);
  }
  const tolerance = options.tolerance ?? IMPORT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance <= 0) {
    throw new AnimationError(WHERE, [{ path: 'options.tolerance', message: `is ${String(tolerance)}: must be a finite number > 0 (metres)` }]);
  }
  const container = readContainer(bytes);
  const external = reader ? await readExternalBuffers(container.json, reader) : null;
  const meshopt = await decodeMeshopt(container.json, container.bin, external);
  const valid = validateGltf(meshopt.json, container.bin, { ...(external ? { external } : {}), decoded: meshopt.decoded });
  const warnings = valid.warnings;
  const unique = uniqueAnimations(valid.json); // a repeated animation is built, read and resampled once
  const document = await readDocument({ ...valid, json: unique.json });
  const root = document.getRoot();
  const nodes = root.listNodes();
  const nodeIndex = new Map<Node, number>(nodes.map((node, i) => [node, i]));
  let ctx: Context = { valid, nodes, nodeIndex, warnings, frameRate, scale, tolerance };
  const validationWarnings = warnings.length;

  let bindings = buildSkeletons(ctx, root.listSkins());
  let rigs = [...new Set(bindings.map((b) => b.rig))];
  let built = buildMeshes(ctx, bindings, root.listSkins(), root.listMeshes(), rigs);
  const figure = rigs.length ? restFigureHeight(rigs[0].skeleton, built.meshes.filter((m) => m.skeleton === 0)) : null;
  if (height !== null) {
    // The figure measured at scale 1, then everything read again at the scale that makes it
    // `height` tall (lengths are linear in the scale; the rate search needs metres).
    if (!figure || !(figure.height > 0)) {
      throw new AnimationError(WHERE, [{ path: 'options.height', message: `cannot be met: ${figure ? 'the rest figure has no height (its joints and meshes lie at one level)' : 'the file has no skeleton'}` }]);
    }
    warnings.length = validationWarnings; // the first pass's are said again by the second
    ctx = { ...ctx, scale: height / figure.height };
    bindings = buildSkeletons(ctx, root.listSkins());
    rigs = [...new Set(bindings.map((b) => b.rig))];
    built = buildMeshes(ctx, bindings, root.listSkins(), root.listMeshes(), rigs);
  }
  const units = height === null && figure ? figureUnitsWarning(figure.height, gltfWording(figure.from, options.scale !== undefined)) : null;
  // Each skeleton's curves: the morph weights of the meshes bound to it, in node order.
  for (const rig of rigs) {
    const curves = new Map<string, number>();
    for (const m of built.morphs.values()) {
      if (m.rig === rig.index) m.names.forEach((name, k) => curves.has(name) || curves.set(name, m.defaults[k]));
    }
    addCurves(rig, [...curves].map(([name, value]) => ({ name, default: value })));
  }
  const clips = buildClips(ctx, rigs, root.listAnimations(), built.morphs, unique.copies);
  if (units) warnings.push(units);
  return { skeletons: rigs.map((r) => r.skeleton), clips, meshes: built.meshes, warnings };
}

/** loadGltf's words for {@link figureUnitsWarning}: its `height` and `scale` options. */
function gltfWording(from: 'mesh' | 'joints', scaled: boolean): UnitsWording {
  return {
    figure: from === 'mesh' ? 'its skinned meshes' : 'its joints',
    read: scaled ? 'after options.scale' : 'read as metres (glTF\'s unit)',
    smallCause: 'shrunk by a node scale or a unit larger than the metre',
    scaleFix: (factor) => `{ height: 1.8 } (metres; scales it ×${factor})`,
    unitFix: (name) => `{ scale: '${name}' }`,
  };
}

async function readDocument(valid: ValidatedGltf): Promise<Document> {
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
  try {
    return await io.readJSON({
      json: valid.json as unknown as GLTF.IGLTF,
      resources: valid.resources as Record<string, Uint8Array<ArrayBuffer>>,
    });
  } catch (error) {
    throw new AnimationError(WHERE, [{ path: '@gltf-transform (reading the checked JSON)', message: messageOf(error) }]);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
