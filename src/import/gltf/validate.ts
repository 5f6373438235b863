/**
 * Checks a parsed glTF JSON document before @gltf-transform reads it, and builds the pruned
 * copy it reads.
 *
 * @gltf-transform trusts its input: an accessor past the end of its buffer view is silently
 * clamped or reads the neighbouring bytes, a huge `count` is allocated before anything is
 * read, a node index out of range becomes `undefined`, a cycle of children is accepted. So
 * every index, length and number the importer relies on is checked here against the real
 * byte lengths, and faults are collected in one `AnimationError` naming the JSON path
 * (`accessors[12].count`, `nodes[3] "b_Hip_01".rotation[2]`).
 *
 * The copy handed to @gltf-transform keeps only what animation import needs: buffers, the
 * buffer views and accessors that skins, bound primitives (their attributes and morph
 * targets) and animations (transform and `weights` outputs) use (the others become
 * one-element zero stubs, so corrupt data of meshes on no joint cannot fail the import),
 * nodes (with their `weights`), skins, the primitives, default weights and target names of
 * bound meshes — skinned ones, and rigid ones on nodes at or under a joint — and animations.
 * The materials of bound primitives (with their textures, samplers and images' bytes) are read and checked here
 * (`./materials.ts`) and handed on beside the copy; cameras, scenes, extensions and all else
 * are dropped. Images are never decoded.
 */
import { IssueList } from '../../assets/AnimationError.js';
import { decodeDataUri, WHERE } from './container.js';
import { MaterialReader, type GltfMaterial } from './materials.js';
import { isMeshoptFallback } from './meshopt.js';
import { decompose } from './transform.js';
import { AccessorUses, BufferViews, checkAccessors, FLOAT, INDEX_TYPES, type BufferInfo } from './validateAccessors.js';
import { Checker, isObject, show, type Json } from './validateJson.js';

/** What {@link validateGltf} hands on. */
export interface ValidatedGltf {
  /** The pruned glTF JSON for @gltf-transform's `readJSON`. */
  readonly json: Record<string, unknown>;
  /** Buffer bytes by the synthetic URI the pruned JSON uses (`__bitanim<i>.bin`). */
  readonly resources: Record<string, Uint8Array>;
  /** Parent node index of each node, −1 for a root. The hierarchy is a forest (checked). */
  readonly nodeParents: Int32Array;
  /** Each node's name, `''` when it has none. */
  readonly nodeNames: readonly string[];
  /** Meshes used by a node with a skin. */
  readonly skinnedMeshes: ReadonlySet<number>;
  /** Nodes that are joints of some skin. */
  readonly skinJoints: ReadonlySet<number>;
  /** The material of each primitive of each bound (skinned or rigid-on-a-joint) mesh, by mesh then primitive index (`[]` for a mesh on no joint). */
  readonly materials: ReadonlyArray<ReadonlyArray<GltfMaterial | null>>;
  /** Non-fatal findings, one line each. */
  readonly warnings: string[];
}

/** Buffer bytes from outside the glTF JSON and its GLB chunk. */
export interface BufferSources {
  /** External resources by URI, as `loadGltfFile`/`loadGltfUrl` read them; absent: external URIs are refused. */
  readonly external?: ReadonlyMap<string, Uint8Array>;
  /** Buffers decoded from EXT_meshopt_compression views, by buffer index (`./meshopt.ts`). */
  readonly decoded?: ReadonlyMap<number, Uint8Array>;
}

/** Joints per skin: skeleton parents are Int16. */
const MAX_JOINTS = 0x7fff;
/** Primitive attributes the importer reads, with the element types each accepts; the others are pruned. */
const READ_ATTRIBUTES = ['POSITION', 'NORMAL', 'TEXCOORD_0', 'JOINTS_0', 'WEIGHTS_0'] as const;
const ATTRIBUTE_TYPES: Readonly<Record<(typeof READ_ATTRIBUTES)[number], readonly string[]>> = {
  POSITION: ['VEC3'], NORMAL: ['VEC3'], TEXCOORD_0: ['VEC2'], JOINTS_0: ['VEC4'], WEIGHTS_0: ['VEC4'],
};
/** Component types per attribute, where limited: UVs are float or (KHR_mesh_quantization) 8/16-bit integers. */
const ATTRIBUTE_COMPONENTS: Readonly<Partial<Record<(typeof READ_ATTRIBUTES)[number], readonly number[]>>> = {
  TEXCOORD_0: [FLOAT, 5120, 5121, 5122, 5123],
};
const INTERPOLATIONS = ['LINEAR', 'STEP', 'CUBICSPLINE'];
/** Component types of morph-target deltas and weights: float, or (KHR_mesh_quantization) normalized 8/16-bit integers. */
const TARGET_COMPONENTS: readonly number[] = [FLOAT, 5120, 5121, 5122, 5123];
/**
 * Required extensions the importer can ignore or honour: material, texture, light and metadata
 * extensions do not change skins, meshes or animations; KHR_mesh_quantization only widens the
 * accessor types, which are read through @gltf-transform's normalized getters;
 * EXT_meshopt_compression buffer views are decoded before validation (`./meshopt.ts`).
 */
const HARMLESS_EXTENSION = /^(KHR_mesh_quantization|EXT_meshopt_compression|KHR_materials_\w+|KHR_texture_\w+|EXT_texture_\w+|KHR_lights_punctual|KHR_xmp(_json_ld)?|KHR_animation_pointer|EXT_lights_\w+)$/;

/** The document's top-level arrays (each `[]` when absent). */
interface Arrays {
  readonly buffers: unknown[];
  readonly bufferViews: unknown[];
  readonly accessors: unknown[];
  readonly meshes: unknown[];
  readonly nodes: unknown[];
  readonly skins: unknown[];
  readonly animations: unknown[];
}

/** What the readers share: the fault list and its readers, the warnings, the accessor uses, the document's arrays. */
interface Context {
  readonly c: Checker;
  readonly issues: IssueList;
  readonly warnings: string[];
  readonly uses: AccessorUses;
  readonly doc: Arrays;
  /** The skinned primitives, for their materials once the buffer views are known. */
  readonly primitives: Array<{ readonly mesh: number; readonly prim: unknown; readonly path: string }>;
}

/** The node hierarchy as read. */
interface NodeTable {
  /** The pruned nodes (set once every node is read). */
  out: Json[];
  readonly names: string[];
  readonly parents: Int32Array;
  readonly skinnedMeshes: Set<number>;
  /** `nodes[i]`, with the node's name when it has one, for messages. */
  readonly label: (i: number) => string;
}

/**
 * Checks `json` (from a file of `format`, with GLB binary chunk `bin`) and builds the pruned
 * document. Throws one `AnimationError` listing every fault found (up to 64).
 *
 * Stages, each throwing what it found before the next relies on it: the document (an object,
 * glTF 2.x, no unsupported required extension); its top-level arrays; then buffers, nodes,
 * skins, meshes and animations, which record the accessors they use; then the used accessors
 * and the buffer views they read.
 */
export function validateGltf(json: unknown, bin: Uint8Array | null, sources: BufferSources = {}): ValidatedGltf {
  const issues = new IssueList(WHERE);
  const c = new Checker(issues);
  const root = checkDocument(c, json);
  const doc = readArrays(c, root);
  const cx: Context = { c, issues, warnings: [], uses: new AccessorUses(c, doc.accessors.length), doc, primitives: [] };

  const buffers = readBuffers(cx, bin, sources);
  const nodes = readNodes(cx);
  const outSkins = doc.skins.map((def, i) => readSkin(cx, def, i, nodes));
  const skinJoints = new Set<number>();
  for (const skin of outSkins) for (const joint of (skin['joints'] as unknown[])) if (Number.isInteger(joint)) skinJoints.add(joint as number);
  const boundMeshes = findBoundMeshes(doc.nodes, nodes, skinJoints);
  const outMeshes = doc.meshes.map((def, i) => readMesh(cx, def, i, boundMeshes));
  const outAnimations = doc.animations.map((def, i) => readAnimation(cx, def, i));
  issues.throwIfAny();

  const views = new BufferViews(c, doc.bufferViews, buffers.info);
  const outAccessors = checkAccessors(c, doc.accessors, cx.uses, views);
  const materials = readMaterials(cx, root, views, buffers.resources, sources);
  issues.throwIfAny();

  const pruned: Json = {
    asset: { version: '2.0' },
    buffers: buffers.out,
    bufferViews: views.prune(),
    accessors: outAccessors,
    meshes: outMeshes,
    nodes: nodes.out,
    skins: outSkins,
    animations: outAnimations,
  };
  return { json: pruned, resources: buffers.resources, nodeParents: nodes.parents, nodeNames: nodes.names, skinnedMeshes: nodes.skinnedMeshes, skinJoints, materials, warnings: cx.warnings };
}

/** What to do instead of a required extension bitanim does not decode, by name. */
const INSTEAD: Readonly<Record<string, string>> = {
  KHR_draco_mesh_compression: ' (bitanim has no Draco decoder: export without Draco, or with EXT_meshopt_compression, e.g. `gltfpack -c` or `gltf-transform meshopt`)',
};

/** The document itself: an object with a glTF 2.x `asset` and only supported required extensions. Throws on a fault. */
function checkDocument(c: Checker, json: unknown): Json {
  const issues = c.issues;
  if (!isObject(json)) {
    issues.add('JSON', `is ${Array.isArray(json) ? 'an array' : typeof json}: a glTF file is a JSON object with an "asset"`);
    issues.throwIfAny();
  }
  const root = json as Json;
  const asset = root['asset'];
  if (!isObject(asset)) {
    issues.add('asset', 'is missing: the JSON is not a glTF document (a glTF file has "asset": { "version": "2.0" })');
    issues.throwIfAny();
  }
  const version = (asset as Json)['version'];
  if (typeof version !== 'string' || !/^2\.\d+$/.test(version)) {
    issues.add('asset.version', `is ${show(version)}: only glTF 2.x is supported`);
  }
  for (const [i, name] of c.array(root, 'extensionsRequired', 'extensionsRequired').entries()) {
    if (typeof name !== 'string') issues.add(`extensionsRequired[${i}]`, 'must be a string');
    else if (!HARMLESS_EXTENSION.test(name)) issues.add(`extensionsRequired[${i}]`, `"${name}" is required by the file but not supported${INSTEAD[name] ?? ''}`);
  }
  issues.throwIfAny();
  return root;
}

/** The top-level arrays the importer reads. Throws when one is not an array. */
function readArrays(c: Checker, root: Json): Arrays {
  const arrays: Arrays = {
    buffers: c.array(root, 'buffers', 'buffers'),
    bufferViews: c.array(root, 'bufferViews', 'bufferViews'),
    accessors: c.array(root, 'accessors', 'accessors'),
    meshes: c.array(root, 'meshes', 'meshes'),
    nodes: c.array(root, 'nodes', 'nodes'),
    skins: c.array(root, 'skins', 'skins'),
    animations: c.array(root, 'animations', 'animations'),
  };
  c.issues.throwIfAny();
  return arrays;
}

/**
 * Buffers: external URIs are read from `external` (the bytes `loadGltfFile` or `loadGltfUrl`
 * fetched, by URI) and refused outright without it (`loadGltf(bytes)`); a missing or short
 * payload is a fault only for a buffer that a used buffer view reads (see `BufferViews`), so it
 * is kept in `info`.
 */
function readBuffers(cx: Context, bin: Uint8Array | null, sources: BufferSources): { out: Json[]; info: BufferInfo[]; resources: Record<string, Uint8Array> } {
  const resources: Record<string, Uint8Array> = {};
  const info: BufferInfo[] = [];
  const out = cx.doc.buffers.map((def, i) => {
    const key = `__bitanim${i}.bin`;
    const buffer: BufferInfo = { length: 0, fault: null, reported: false };
    info[i] = buffer;
    const data = readBuffer(cx, def, i, bin, sources, buffer);
    if (data && !buffer.fault) resources[key] = data;
    return { byteLength: buffer.length, uri: key };
  });
  return { out, info, resources };
}

/** Buffer `i`'s bytes (GLB chunk, data: URI or external resource), its usable length and fault written to `buffer`. */
function readBuffer(cx: Context, def: unknown, i: number, bin: Uint8Array | null, sources: BufferSources, buffer: BufferInfo): Uint8Array | null {
  const path = `buffers[${i}]`;
  if (!isObject(def)) {
    buffer.fault = 'must be an object';
    return null;
  }
  const byteLength = def['byteLength'];
  const uri = def['uri'];
  let data: Uint8Array | null = null;
  let source = 'GLB binary chunk';
  const external = sources.external;
  const decoded = sources.decoded?.get(i);
  if (decoded) {
    data = decoded;
    source = 'EXT_meshopt_compression decoding';
  } else if (isMeshoptFallback(def)) {
    // Only compressed views may point here, and those were decoded into buffers of their own.
    buffer.fault = 'is an EXT_meshopt_compression fallback buffer: only compressed buffer views may use it';
  } else if (uri === undefined) {
    if (i === 0 && bin) data = bin;
    else buffer.fault = i === 0 ? 'has no uri and the file has no GLB binary chunk' : 'has no uri: only buffer 0 of a GLB may use the binary chunk';
  } else if (typeof uri !== 'string') {
    buffer.fault = 'has a uri that is not a string';
  } else if (/^data:/i.test(uri)) {
    data = decodeDataUri(uri, `${path}.uri`);
    source = 'data: URI';
  } else if (external) {
    data = external.get(uri) ?? null; // absent only when byteLength is bad, which is reported below
    source = `resource "${uri}"`;
    if (!data) buffer.fault = `"${uri}" was not read`;
  } else {
    cx.issues.add(`${path}.uri`, `"${uri.length > 80 ? `${uri.slice(0, 80)}…` : uri}" is an external resource: not supported by loadGltf(bytes) (load the file with loadGltfFile or loadGltfUrl, which read resources beside it, or embed buffers: .glb or data: URIs)`);
  }
  if (typeof byteLength !== 'number' || !Number.isInteger(byteLength) || byteLength < 1) {
    buffer.fault ??= `has byteLength ${show(byteLength)}: must be an integer ≥ 1`;
  } else if (data && data.byteLength < byteLength) {
    buffer.fault ??= `has byteLength ${byteLength} but the ${source} holds only ${data.byteLength} bytes: the file is truncated`;
  }
  if (data && !buffer.fault) buffer.length = byteLength as number;
  return data;
}

/** Nodes: names, indices, finite transforms, and a forest (one parent each, no cycles). */
function readNodes(cx: Context): NodeTable {
  const nodes = cx.doc.nodes;
  const names = nodes.map((def) => (isObject(def) && typeof def['name'] === 'string' ? def['name'] : ''));
  const label = (i: number): string => `nodes[${i}]${names[i] ? ` "${names[i]}"` : ''}`;
  const table: NodeTable = { out: [], names, parents: new Int32Array(nodes.length).fill(-1), skinnedMeshes: new Set<number>(), label };
  table.out = nodes.map((def, i) => readNode(cx, def, i, table));
  checkForest(cx.issues, table.parents, label);
  return table;
}

/** Node `i`: its children (recording their parent), mesh, skin and transform. */
function readNode(cx: Context, def: unknown, i: number, table: NodeTable): Json {
  const { c, doc } = cx;
  const path = table.label(i);
  const out: Json = { name: table.names[i] };
  if (!c.object(def, path)) return out;
  const children = readChildren(cx, def, i, path, table);
  if (children.length) out['children'] = children;
  const mesh = c.index(def, 'mesh', path, doc.meshes.length, 'meshes');
  const skin = c.index(def, 'skin', path, doc.skins.length, 'skins');
  if (mesh !== undefined) out['mesh'] = mesh;
  if (skin !== undefined) out['skin'] = skin;
  if (mesh !== undefined && skin !== undefined) table.skinnedMeshes.add(mesh);
  const weights = c.numbers(def, 'weights', path);
  if (weights) out['weights'] = weights;
  readTransform(cx, def, path, out);
  return out;
}

/** Node `i`'s children: node indices other than itself, each with no other parent; sets their parent. */
function readChildren(cx: Context, def: Json, i: number, path: string, table: NodeTable): number[] {
  const { c, issues } = cx;
  const count = cx.doc.nodes.length;
  const parents = table.parents;
  const out: number[] = [];
  c.array(def, 'children', `${path}.children`).forEach((child, k) => {
    if (!Number.isInteger(child) || (child as number) < 0 || (child as number) >= count) {
      issues.add(`${path}.children[${k}]`, `is ${show(child)}: not a node index (0..${count - 1})`);
    } else if (child === i) {
      issues.add(`${path}.children[${k}]`, 'is the node itself');
    } else if (parents[child as number] !== -1) {
      issues.add(`${path}.children[${k}]`, `${table.label(child as number)} is already a child of ${table.label(parents[child as number])}: a node has one parent`);
    } else {
      parents[child as number] = i;
      out.push(child as number);
    }
  });
  return out;
}

/** A node's TRS (finite, a non-zero rotation) or matrix, decomposed to TRS, written to `out`. */
function readTransform(cx: Context, def: Json, path: string, out: Json): void {
  const { c, issues, warnings } = cx;
  const translation = c.numbers(def, 'translation', path, 3);
  const rotation = c.numbers(def, 'rotation', path, 4);
  const scale = c.numbers(def, 'scale', path, 3);
  const matrix = c.numbers(def, 'matrix', path, 16);
  if (rotation && Math.hypot(...rotation) < 1e-6) issues.add(`${path}.rotation`, 'is a zero quaternion: a rotation needs a unit quaternion');
  if (matrix) {
    if (translation || rotation || scale) warnings.push(`${path} has both "matrix" and TRS: the matrix is used`);
    const affine = new Float64Array([...matrix.slice(0, 3), ...matrix.slice(4, 7), ...matrix.slice(8, 11), ...matrix.slice(12, 15)]);
    const pose = new Float64Array(10);
    if (!decompose(pose, 0, affine, 0)) warnings.push(`${path}.matrix has shear, which a T·R·S transform cannot hold: the shear is dropped`);
    out['translation'] = Array.from(pose.subarray(0, 3));
    out['rotation'] = Array.from(pose.subarray(3, 7));
    out['scale'] = Array.from(pose.subarray(7, 10));
  } else {
    if (translation) out['translation'] = translation;
    if (rotation) out['rotation'] = rotation;
    if (scale) out['scale'] = scale;
  }
}

function checkForest(issues: IssueList, parents: Int32Array, label: (i: number) => string): void {
  // 0 = not visited, 1 = on the current upward walk, 2 = known to reach a root.
  const state = new Uint8Array(parents.length);
  const walk: number[] = [];
  for (let start = 0; start < parents.length; start++) {
    let node = start;
    while (node >= 0 && state[node] === 0) {
      state[node] = 1;
      walk.push(node);
      node = parents[node];
    }
    if (node >= 0 && state[node] === 1) {
      issues.add(label(node), 'is its own ancestor: the node hierarchy has a cycle');
      for (const n of walk) parents[n] = -1; // keep later walks finite
    }
    for (const n of walk) state[n] = 2;
    walk.length = 0;
  }
}

/** Skin `i`: distinct joints in range (at most `MAX_JOINTS`), its inverse bind matrices (a use), its skeleton root. */
function readSkin(cx: Context, def: unknown, i: number, nodes: NodeTable): Json {
  const { c, issues } = cx;
  const path = `skins[${i}]`;
  const out: Json = { joints: [] };
  if (!c.object(def, path)) return out;
  if (typeof def['name'] === 'string') out['name'] = def['name'];
  const joints = c.array(def, 'joints', `${path}.joints`);
  if (joints.length === 0) issues.add(`${path}.joints`, 'is missing or empty: a skin needs at least one joint');
  if (joints.length > MAX_JOINTS) issues.add(`${path}.joints`, `has ${joints.length} joints; at most ${MAX_JOINTS} are supported`);
  const count = nodes.names.length;
  const seen = new Map<number, number>();
  joints.forEach((joint, k) => {
    if (!Number.isInteger(joint) || (joint as number) < 0 || (joint as number) >= count) {
      issues.add(`${path}.joints[${k}]`, `is ${show(joint)}: out of range of the ${count} nodes`);
    } else if (seen.has(joint as number)) {
      issues.add(`${path}.joints[${k}]`, `repeats joints[${seen.get(joint as number)}] (${nodes.label(joint as number)})`);
    } else {
      seen.set(joint as number, k);
    }
  });
  out['joints'] = joints;
  const ibm = cx.uses.use(def, 'inverseBindMatrices', path, ['MAT4'], [FLOAT]);
  if (ibm !== undefined) out['inverseBindMatrices'] = ibm;
  c.index(def, 'skeleton', path, count, 'nodes');
  return out;
}

/** The material of every skinned primitive, by mesh and primitive index (images read from the checked views). */
function readMaterials(cx: Context, root: Json, views: BufferViews, resources: Record<string, Uint8Array>, sources: BufferSources): Array<Array<GltfMaterial | null>> {
  const reader = new MaterialReader(cx.c, root, cx.warnings, {
    view: (index, path) => views.view(index, path),
    buffer: (i) => resources[`__bitanim${i}.bin`] ?? null,
    ...(sources.external ? { external: sources.external } : {}),
  });
  const out: Array<Array<GltfMaterial | null>> = cx.doc.meshes.map(() => []);
  for (const { mesh, prim, path } of cx.primitives) out[mesh].push(isObject(prim) ? reader.read(prim, path) : null);
  return out;
}

/**
 * Meshes the importer reads: those on a node with a skin, and those on a node without one
 * that is, or is under, a joint of some skin (rigid meshes on joints).
 */
function findBoundMeshes(defs: readonly unknown[], nodes: NodeTable, skinJoints: ReadonlySet<number>): Set<number> {
  const out = new Set(nodes.skinnedMeshes);
  defs.forEach((def, n) => {
    const mesh = isObject(def) ? def['mesh'] : undefined;
    if (!Number.isInteger(mesh) || !isObject(def) || def['skin'] !== undefined) return;
    for (let a = n; a >= 0; a = nodes.parents[a]) {
      if (skinJoints.has(a)) {
        out.add(mesh as number);
        return;
      }
    }
  });
  return out;
}

/** Mesh `i`: the primitives of a skinned or rigid-on-a-joint mesh, its default weights and target names; another mesh keeps only its name (it is not read). */
function readMesh(cx: Context, def: unknown, i: number, boundMeshes: ReadonlySet<number>): Json {
  const c = cx.c;
  const path = `meshes[${i}]`;
  const out: Json = { primitives: [] };
  if (!c.object(def, path)) return out;
  if (typeof def['name'] === 'string') out['name'] = def['name'];
  if (!boundMeshes.has(i)) return out; // meshes on no joint are not read
  const weights = c.numbers(def, 'weights', path);
  if (weights) out['weights'] = weights;
  const extras = def['extras'];
  if (isObject(extras) && Array.isArray(extras['targetNames'])) out['extras'] = { targetNames: extras['targetNames'].map((t) => (typeof t === 'string' ? t : '')) };
  const label = typeof def['name'] === 'string' && def['name'] ? `${path} ${show(def['name'])}` : path;
  out['primitives'] = c.array(def, 'primitives', `${path}.primitives`).map((prim, p) => {
    cx.primitives.push({ mesh: i, prim, path: `${label}.primitives[${p}]` });
    return readPrimitive(cx, prim, `${path}.primitives[${p}]`);
  });
  return out;
}

/** A skinned primitive: its mode, the attributes the importer reads and its indices (uses), warnings for what is dropped. */
function readPrimitive(cx: Context, prim: unknown, ppath: string): Json {
  const { c, issues, warnings, uses } = cx;
  const outPrim: Json = { attributes: {} };
  if (!c.object(prim, ppath)) return outPrim;
  const mode = c.int(prim, 'mode', ppath, 0, 6, false);
  if (mode !== undefined) outPrim['mode'] = mode;
  const attributes = prim['attributes'];
  if (!isObject(attributes)) {
    issues.add(`${ppath}.attributes`, 'must be an object');
    return outPrim;
  }
  const outAttributes: Json = {};
  const apath = `${ppath}.attributes`;
  for (const name of READ_ATTRIBUTES) {
    const index = uses.use(attributes, name, apath, ATTRIBUTE_TYPES[name], ATTRIBUTE_COMPONENTS[name]);
    if (index !== undefined) outAttributes[name] = index;
  }
  outPrim['attributes'] = outAttributes;
  const extra = Object.keys(attributes).filter((a) => /^(JOINTS|WEIGHTS)_[1-9]/.test(a));
  if (extra.length) warnings.push(`${ppath} has ${extra.join(', ')}: only the first 4 influences (JOINTS_0, WEIGHTS_0) are read`);
  if (prim['targets'] !== undefined) {
    outPrim['targets'] = c.array(prim, 'targets', `${ppath}.targets`).map((target, k) => {
      const tpath = `${ppath}.targets[${k}]`;
      const outTarget: Json = {};
      if (!c.object(target, tpath)) return outTarget;
      for (const name of ['POSITION', 'NORMAL'] as const) {
        const index = uses.use(target, name, tpath, ['VEC3'], TARGET_COMPONENTS);
        if (index !== undefined) outTarget[name] = index;
      }
      return outTarget;
    });
  }
  const indices = uses.use(prim, 'indices', ppath, ['SCALAR'], INDEX_TYPES);
  if (indices !== undefined) outPrim['indices'] = indices;
  return outPrim;
}

/** Animation `i`: its samplers, then its channels (which record the outputs of transform channels as uses). */
function readAnimation(cx: Context, def: unknown, i: number): Json {
  const c = cx.c;
  const path = `animations[${i}]`;
  const out: Json = { samplers: [], channels: [] };
  if (!c.object(def, path)) return out;
  if (typeof def['name'] === 'string') out['name'] = def['name'];
  const samplers = c.array(def, 'samplers', `${path}.samplers`);
  const channels = c.array(def, 'channels', `${path}.channels`);
  out['samplers'] = samplers.map((s, k) => readSampler(cx, s, `${path}.samplers[${k}]`));
  out['channels'] = channels.map((ch, k) => readChannel(cx, ch, `${path}.channels[${k}]`, samplers, path));
  return out;
}

/** A sampler: its input (a use: float times), output index and interpolation. */
function readSampler(cx: Context, s: unknown, spath: string): Json {
  const { c, issues } = cx;
  if (!c.object(s, spath)) return {};
  const input = cx.uses.use(s, 'input', spath, ['SCALAR'], [FLOAT]);
  const output = c.index(s, 'output', spath, cx.doc.accessors.length, 'accessors');
  if (input === undefined) issues.add(`${spath}.input`, 'is missing');
  if (output === undefined) issues.add(`${spath}.output`, 'is missing');
  const interpolation = s['interpolation'] ?? 'LINEAR';
  if (typeof interpolation !== 'string' || !INTERPOLATIONS.includes(interpolation)) {
    issues.add(`${spath}.interpolation`, `is ${show(interpolation)}: must be LINEAR, STEP or CUBICSPLINE`);
  }
  return { input, output, interpolation };
}

/** A channel: its sampler and target; a transform channel records its sampler's output as a use (VEC4 rotation, VEC3 otherwise). */
function readChannel(cx: Context, ch: unknown, cpath: string, samplers: readonly unknown[], path: string): Json {
  const { c, issues } = cx;
  if (!c.object(ch, cpath)) return {};
  const sampler = c.index(ch, 'sampler', cpath, samplers.length, 'samplers of the animation');
  if (sampler === undefined) issues.add(`${cpath}.sampler`, 'is missing');
  const target = ch['target'];
  if (!isObject(target)) {
    issues.add(`${cpath}.target`, 'must be an object');
    return {};
  }
  const node = c.index(target, 'node', `${cpath}.target`, cx.doc.nodes.length, 'nodes');
  const targetPath = target['path'];
  if (typeof targetPath !== 'string') issues.add(`${cpath}.target.path`, 'must be a string');
  const outTarget: Json = { path: targetPath };
  if (node !== undefined) outTarget['node'] = node;
  // Outputs of transform channels are read: check them; others (weights, pointers) are not.
  const samplerDef = sampler !== undefined ? samplers[sampler] : undefined;
  if (isObject(samplerDef) && (targetPath === 'translation' || targetPath === 'scale' || targetPath === 'rotation')) {
    cx.uses.use(samplerDef, 'output', `${path}.samplers[${sampler}]`, [targetPath === 'rotation' ? 'VEC4' : 'VEC3']);
  } else if (isObject(samplerDef) && targetPath === 'weights') {
    cx.uses.use(samplerDef, 'output', `${path}.samplers[${sampler}]`, ['SCALAR'], TARGET_COMPONENTS);
  }
  return { sampler, target: outTarget };
}
