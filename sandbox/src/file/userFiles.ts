/**
 * Your own files in the sandbox (`?view=file`, ./fileView.ts): a `.glb`, a `.gltf` with its
 * `.bin` (and images) dropped or picked together, or a `.bvh` capture; or a served file by URL
 * (`?file=URL`). Each becomes a {@link UserFigure}: its first skeleton, its clips, the meshes
 * bound to that skeleton, the importer's warnings and how its lengths became metres.
 *
 * Units: a glTF file is read as metres (glTF's unit) first. When `loadGltf` warns that the rest
 * figure is implausible for a character in metres (outside 0.25–10 m, its `units:` warning:
 * a root node scale of 0.0012, or centimetres), it is read again with `{ height: 1.8 }`, which
 * scales the skinned rest figure to 1.8 m; the warning stays in the list, with what was done.
 * A BVH capture is read the same way: as given, then scaled to a 1.7 m figure (its joints) when
 * its figure is outside the same range.
 */
import { loadGltf, loadGltfUrl, parseBvh, type Clip, type GltfOptions, type GltfResult, type Skeleton, type SkinnedMeshData } from 'bitanim';
import { affine } from 'bitanim/kernels';

/** A character or capture read from the user's file, in metres. */
export interface UserFigure {
  /** The file's name (the `.gltf`'s for a split file). */
  readonly name: string;
  readonly kind: 'gltf' | 'bvh';
  readonly skeleton: Skeleton;
  /** Every clip of the skeleton, in file order. */
  readonly clips: readonly Clip[];
  /** The meshes bound to the skeleton (none for a capture). */
  readonly meshes: readonly SkinnedMeshData[];
  /** The importer's warnings, then the sandbox's own notes. */
  readonly warnings: readonly string[];
  /** How the file's lengths became metres, e.g. `glTF metres` or `{ height: 1.8 } (the file's figure is 0.206 m)`. */
  readonly units: string;
  /** The rest figure's height, metres, as shown (joints only for a capture). */
  readonly height: number;
}

/** Extensions the sandbox reads, for the file input's `accept`. */
export const ACCEPTED = '.glb,.gltf,.bin,.bvh,.png,.jpg,.jpeg,.webp,.ktx2';

/** Heights taken for a figure in metres without rescaling: `loadGltf`'s range. */
const PLAUSIBLE: readonly [number, number] = [0.25, 10];

/** The user's files, sorted into characters (glTF) and captures (BVH); files that failed, by name. */
export interface ReadFiles {
  readonly figures: UserFigure[];
  readonly errors: string[];
}

/** Reads the dropped or picked files: every `.glb`, `.gltf` (its resources from the other files, by name) and `.bvh`. */
export async function readUserFiles(files: readonly File[]): Promise<ReadFiles> {
  const byName = new Map(files.map((file) => [file.name, file]));
  const figures: UserFigure[] = [], errors: string[] = [];
  const main = files.filter((file) => /\.(glb|gltf|bvh)$/i.test(file.name));
  if (main.length === 0) errors.push(`${files.map((f) => f.name).join(', ') || 'nothing'}: no .glb, .gltf or .bvh among them`);
  for (const file of main) {
    try {
      if (/\.bvh$/i.test(file.name)) figures.push(readBvh(file.name, await file.text()));
      else if (/\.glb$/i.test(file.name)) {
        const bytes = new Uint8Array(await file.arrayBuffer());
        figures.push(await readGltf(file.name, (options) => loadGltf(bytes, options)));
      } else {
        // A .gltf names its buffers and images by URI: serve them from the other dropped files.
        const folder = 'file:///dropped/';
        const fetchDropped = async (url: string) => {
          const name = decodeURIComponent(url.slice(folder.length));
          const found = byName.get(name) ?? byName.get(name.split('/').pop() ?? name);
          return found ? new Response(found) : new Response(null, { status: 404, statusText: `${name} was not dropped with ${file.name}` });
        };
        figures.push(await readGltf(file.name, (options) => loadGltfUrl(folder + encodeURIComponent(file.name), { ...options, fetch: fetchDropped })));
      }
    } catch (error) {
      errors.push(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { figures, errors };
}

/** Reads a file the page's server (or any CORS-enabled one) serves: `.glb`, `.gltf` (its buffers beside it) or `.bvh`. */
export async function readServedFile(url: string): Promise<UserFigure> {
  const absolute = new URL(url, location.href).href;
  const name = decodeURIComponent(new URL(absolute).pathname.split('/').pop() || absolute);
  if (/\.bvh$/i.test(name)) {
    const response = await fetch(absolute);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return readBvh(name, await response.text());
  }
  return readGltf(name, (options) => loadGltfUrl(absolute, options));
}

/** Reads a glTF file as metres, and again with `{ height: 1.8 }` when its units warning says it is not (module comment). */
async function readGltf(name: string, read: (options: GltfOptions) => Promise<GltfResult>): Promise<UserFigure> {
  let result = await read({});
  const units = result.warnings.find((w) => w.startsWith('units:'));
  let how = 'glTF metres (as the file says)';
  if (units) {
    result = await read({ height: 1.8 });
    how = '{ height: 1.8 }: the rest figure read as metres was implausible (see the units warning)';
  }
  const skeleton = result.skeletons[0];
  if (!skeleton) throw new Error('has no skin: nothing to animate');
  const meshes = result.meshes.filter((m) => m.skeleton === 0);
  const warnings = units ? [...result.warnings, units] : result.warnings;
  return {
    name, kind: 'gltf', skeleton,
    clips: result.clips.filter((clip) => clip.skeleton === skeleton),
    meshes, warnings, units: how,
    height: figureHeight(skeleton, meshes),
  };
}

/** Reads a BVH capture; scaled to a 1.7 m figure (its joints) when it is outside the plausible range as given. */
function readBvh(name: string, text: string): UserFigure {
  const clipName = name.replace(/\.bvh$/i, '');
  let result = parseBvh(text, { name: clipName });
  let height = jointHeight(result.skeleton);
  let how = 'as the file gives them';
  if (height > 0 && (height < PLAUSIBLE[0] || height > PLAUSIBLE[1])) {
    const scale = 1.7 / height;
    result = parseBvh(text, { name: clipName, scale });
    how = `scale ${Number(scale.toPrecision(3))}: its figure (joints) was ${Number(height.toPrecision(3))} units tall, now 1.7 m`;
    height = jointHeight(result.skeleton);
  }
  return { name, kind: 'bvh', skeleton: result.skeleton, clips: [result.clip], meshes: [], warnings: result.warnings, units: how, height };
}

/** The rest joints' model-space matrices (12 floats each). */
function restModel(skeleton: Skeleton): Float64Array {
  const out = new Float64Array(skeleton.jointCount * 12), local = new Float64Array(12);
  for (let j = 0; j < skeleton.jointCount; j++) {
    affine.fromSQT(local, 0, skeleton.rest, j * 10);
    const p = skeleton.parents[j]!;
    if (p < 0) out.set(local, j * 12);
    else affine.multiply(out, j * 12, out, p * 12, local, 0);
  }
  return out;
}

/** The rest joints' extent along +Y. */
function jointHeight(skeleton: Skeleton): number {
  const model = restModel(skeleton);
  let lo = Infinity, hi = -Infinity;
  for (let j = 0; j < skeleton.jointCount; j++) {
    lo = Math.min(lo, model[j * 12 + 10]!);
    hi = Math.max(hi, model[j * 12 + 10]!);
  }
  return hi - lo;
}

/** The rest figure's height: the meshes skinned at rest (Σ wᵢ · Rest_jᵢ · InverseBind_jᵢ · v), else the joints. */
function figureHeight(skeleton: Skeleton, meshes: readonly SkinnedMeshData[]): number {
  if (meshes.length === 0) return jointHeight(skeleton);
  const model = restModel(skeleton);
  const skin = new Float64Array(skeleton.jointCount * 12);
  for (let j = 0; j < skeleton.jointCount; j++) affine.multiply(skin, j * 12, model, j * 12, skeleton.inverseBind, j * 12);
  let lo = Infinity, hi = -Infinity;
  const point = new Float64Array(3), moved = new Float64Array(3);
  for (const mesh of meshes) {
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      let y = 0;
      for (let i = 0; i < 4; i++) {
        const w = mesh.weights[v * 4 + i]!;
        if (w === 0) continue;
        point.set(mesh.positions.subarray(v * 3, v * 3 + 3));
        affine.transformPoint(moved, 0, skin, mesh.joints[v * 4 + i]! * 12, point, 0);
        y += w * moved[1]!;
      }
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  }
  return hi - lo;
}
