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
 * buffer views and accessors that skins, skinned primitives and animations use (the others
 * become one-element zero stubs, so corrupt texture coordinates or images cannot fail the
 * import), nodes, skins, the primitives of skinned meshes and animations. Images, textures,
 * materials, cameras, scenes and extensions are dropped: they are never decoded.
 */
import { IssueList } from '../../assets/AnimationError.js';
import { decodeDataUri, WHERE } from './container.js';
import { decompose } from './transform.js';

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
  /** Non-fatal findings, one line each. */
  readonly warnings: string[];
}

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const FLOAT = 5126;
const INDEX_TYPES = [5121, 5123, 5125] as const;
/** Elements of an accessor with no buffer view (zero-filled), allocated without backing bytes. */
const MAX_UNBACKED_COMPONENTS = 1 << 24;
/** Joints per skin: skeleton parents are Int16. */
const MAX_JOINTS = 0x7fff;
/** Primitive attributes the importer reads; the others are pruned. */
const READ_ATTRIBUTES = ['POSITION', 'NORMAL', 'JOINTS_0', 'WEIGHTS_0'] as const;
const INTERPOLATIONS = ['LINEAR', 'STEP', 'CUBICSPLINE'];
/**
 * Required extensions the importer can ignore or honour: material, texture, light and metadata
 * extensions do not change skins, meshes or animations; KHR_mesh_quantization only widens the
 * accessor types, which are read through @gltf-transform's normalized getters.
 */
const HARMLESS_EXTENSION = /^(KHR_mesh_quantization|KHR_materials_\w+|KHR_texture_\w+|EXT_texture_\w+|KHR_lights_punctual|KHR_xmp(_json_ld)?|KHR_animation_pointer|EXT_lights_\w+)$/;

type Json = Record<string, unknown>;

/** One use of an accessor, with the element types and component types that use accepts. */
interface AccessorUse {
  readonly path: string;
  readonly types: readonly string[];
  readonly componentTypes?: readonly number[];
}

/** A JSON value for a message: numbers as JS prints them (1e400 parses to Infinity), others as JSON, cut short. */
const show = (v: unknown): string => (typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)).slice(0, 60));

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks `json` (from a file of `format`, with GLB binary chunk `bin`) and builds the pruned
 * document. Throws one `AnimationError` listing every fault found (up to 64).
 */
export function validateGltf(json: unknown, bin: Uint8Array | null): ValidatedGltf {
  const issues = new IssueList(WHERE);
  const warnings: string[] = [];
  const c = new Checker(issues);

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
    else if (!HARMLESS_EXTENSION.test(name)) issues.add(`extensionsRequired[${i}]`, `"${name}" is required by the file but not supported`);
  }
  issues.throwIfAny();

  const buffers = c.array(root, 'buffers', 'buffers');
  const bufferViews = c.array(root, 'bufferViews', 'bufferViews');
  const accessors = c.array(root, 'accessors', 'accessors');
  const meshes = c.array(root, 'meshes', 'meshes');
  const nodes = c.array(root, 'nodes', 'nodes');
  const skins = c.array(root, 'skins', 'skins');
  const animations = c.array(root, 'animations', 'animations');
  issues.throwIfAny();

  // Buffers: external URIs are refused outright; a missing or short payload is a fault only
  // for a buffer that a used buffer view reads (see `checkView`).
  const resources: Record<string, Uint8Array> = {};
  const bufferInfo: BufferInfo[] = [];
  const outBuffers = buffers.map((def, i) => {
    const path = `buffers[${i}]`;
    const key = `__bitanim${i}.bin`;
    const info: BufferInfo = { length: 0, fault: null, reported: false };
    bufferInfo[i] = info;
    if (!isObject(def)) {
      info.fault = 'must be an object';
      return { byteLength: 0, uri: key };
    }
    const byteLength = def['byteLength'];
    const uri = def['uri'];
    let data: Uint8Array | null = null;
    let source = 'GLB binary chunk';
    if (uri === undefined) {
      if (i === 0 && bin) data = bin;
      else info.fault = i === 0 ? 'has no uri and the file has no GLB binary chunk' : 'has no uri: only buffer 0 of a GLB may use the binary chunk';
    } else if (typeof uri !== 'string') {
      info.fault = 'has a uri that is not a string';
    } else if (/^data:/i.test(uri)) {
      data = decodeDataUri(uri, `${path}.uri`);
      source = 'data: URI';
    } else {
      issues.add(`${path}.uri`, `"${uri.length > 80 ? `${uri.slice(0, 80)}…` : uri}" is an external resource: not supported (embed buffers: .glb or data: URIs)`);
    }
    if (typeof byteLength !== 'number' || !Number.isInteger(byteLength) || byteLength < 1) {
      info.fault ??= `has byteLength ${show(byteLength)}: must be an integer ≥ 1`;
    } else if (data && data.byteLength < byteLength) {
      info.fault ??= `has byteLength ${byteLength} but the ${source} holds only ${data.byteLength} bytes: the file is truncated`;
    }
    if (data && !info.fault) {
      resources[key] = data;
      info.length = byteLength as number;
    }
    return { byteLength: info.length, uri: key };
  });

  // Nodes: names, indices, finite transforms, and a forest (one parent each, no cycles).
  const nodeNames = nodes.map((def) => (isObject(def) && typeof def['name'] === 'string' ? def['name'] : ''));
  const label = (i: number) => `nodes[${i}]${nodeNames[i] ? ` "${nodeNames[i]}"` : ''}`;
  const nodeParents = new Int32Array(nodes.length).fill(-1);
  const skinnedMeshes = new Set<number>();
  const outNodes = nodes.map((def, i) => {
    const path = label(i);
    const out: Json = { name: nodeNames[i] };
    if (!c.object(def, path)) return out;
    const children = c.array(def, 'children', `${path}.children`);
    const outChildren: number[] = [];
    children.forEach((child, k) => {
      if (!Number.isInteger(child) || (child as number) < 0 || (child as number) >= nodes.length) {
        issues.add(`${path}.children[${k}]`, `is ${show(child)}: not a node index (0..${nodes.length - 1})`);
      } else if (child === i) {
        issues.add(`${path}.children[${k}]`, 'is the node itself');
      } else if (nodeParents[child as number] !== -1) {
        issues.add(`${path}.children[${k}]`, `${label(child as number)} is already a child of ${label(nodeParents[child as number])}: a node has one parent`);
      } else {
        nodeParents[child as number] = i;
        outChildren.push(child as number);
      }
    });
    if (outChildren.length) out['children'] = outChildren;
    const mesh = c.index(def, 'mesh', path, meshes.length, 'meshes');
    const skin = c.index(def, 'skin', path, skins.length, 'skins');
    if (mesh !== undefined) out['mesh'] = mesh;
    if (skin !== undefined) out['skin'] = skin;
    if (mesh !== undefined && skin !== undefined) skinnedMeshes.add(mesh);

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
    return out;
  });
  checkForest(issues, nodeParents, label);

  // Accessor uses: collected first, then each used accessor is range-checked once.
  const uses = new Map<number, AccessorUse[]>();
  const use = (owner: Json, key: string, path: string, types: readonly string[], componentTypes?: readonly number[]): number | undefined => {
    const index = c.index(owner, key, path, accessors.length, 'accessors');
    if (index === undefined) return undefined;
    const list = uses.get(index) ?? [];
    list.push({ path: `${path}.${key}`, types, ...(componentTypes ? { componentTypes } : {}) });
    uses.set(index, list);
    return index;
  };

  const outSkins = skins.map((def, i) => {
    const path = `skins[${i}]`;
    const out: Json = { joints: [] };
    if (!c.object(def, path)) return out;
    if (typeof def['name'] === 'string') out['name'] = def['name'];
    const joints = c.array(def, 'joints', `${path}.joints`);
    if (joints.length === 0) issues.add(`${path}.joints`, 'is missing or empty: a skin needs at least one joint');
    if (joints.length > MAX_JOINTS) issues.add(`${path}.joints`, `has ${joints.length} joints; at most ${MAX_JOINTS} are supported`);
    const seen = new Map<number, number>();
    joints.forEach((joint, k) => {
      if (!Number.isInteger(joint) || (joint as number) < 0 || (joint as number) >= nodes.length) {
        issues.add(`${path}.joints[${k}]`, `is ${show(joint)}: out of range of the ${nodes.length} nodes`);
      } else if (seen.has(joint as number)) {
        issues.add(`${path}.joints[${k}]`, `repeats joints[${seen.get(joint as number)}] (${label(joint as number)})`);
      } else {
        seen.set(joint as number, k);
      }
    });
    out['joints'] = joints;
    const ibm = use(def, 'inverseBindMatrices', path, ['MAT4'], [FLOAT]);
    if (ibm !== undefined) out['inverseBindMatrices'] = ibm;
    c.index(def, 'skeleton', path, nodes.length, 'nodes');
    return out;
  });

  const outMeshes = meshes.map((def, i) => {
    const path = `meshes[${i}]`;
    const out: Json = { primitives: [] };
    if (!c.object(def, path)) return out;
    if (typeof def['name'] === 'string') out['name'] = def['name'];
    if (!skinnedMeshes.has(i)) return out; // rigid meshes are not read
    const primitives = c.array(def, 'primitives', `${path}.primitives`);
    out['primitives'] = primitives.map((prim, p) => {
      const ppath = `${path}.primitives[${p}]`;
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
      const expect: Record<(typeof READ_ATTRIBUTES)[number], readonly string[]> = {
        POSITION: ['VEC3'], NORMAL: ['VEC3'], JOINTS_0: ['VEC4'], WEIGHTS_0: ['VEC4'],
      };
      for (const name of READ_ATTRIBUTES) {
        const index = use(attributes, name, apath, expect[name]);
        if (index !== undefined) outAttributes[name] = index;
      }
      outPrim['attributes'] = outAttributes;
      const extra = Object.keys(attributes).filter((a) => /^(JOINTS|WEIGHTS)_[1-9]/.test(a));
      if (extra.length) warnings.push(`${ppath} has ${extra.join(', ')}: only the first 4 influences (JOINTS_0, WEIGHTS_0) are read`);
      if (Array.isArray(prim['targets']) && prim['targets'].length) warnings.push(`${ppath} has ${prim['targets'].length} morph targets: ignored`);
      const indices = use(prim, 'indices', ppath, ['SCALAR'], INDEX_TYPES);
      if (indices !== undefined) outPrim['indices'] = indices;
      return outPrim;
    });
    return out;
  });

  const outAnimations = animations.map((def, i) => {
    const path = `animations[${i}]`;
    const out: Json = { samplers: [], channels: [] };
    if (!c.object(def, path)) return out;
    if (typeof def['name'] === 'string') out['name'] = def['name'];
    const samplers = c.array(def, 'samplers', `${path}.samplers`);
    const channels = c.array(def, 'channels', `${path}.channels`);
    out['samplers'] = samplers.map((s, k) => {
      const spath = `${path}.samplers[${k}]`;
      const outSampler: Json = {};
      if (!c.object(s, spath)) return outSampler;
      const input = use(s, 'input', spath, ['SCALAR'], [FLOAT]);
      const output = c.index(s, 'output', spath, accessors.length, 'accessors');
      if (input === undefined) issues.add(`${spath}.input`, 'is missing');
      if (output === undefined) issues.add(`${spath}.output`, 'is missing');
      const interpolation = s['interpolation'] ?? 'LINEAR';
      if (typeof interpolation !== 'string' || !INTERPOLATIONS.includes(interpolation)) {
        issues.add(`${spath}.interpolation`, `is ${show(interpolation)}: must be LINEAR, STEP or CUBICSPLINE`);
      }
      return { input, output, interpolation };
    });
    out['channels'] = channels.map((ch, k) => {
      const cpath = `${path}.channels[${k}]`;
      const outChannel: Json = {};
      if (!c.object(ch, cpath)) return outChannel;
      const sampler = c.index(ch, 'sampler', cpath, samplers.length, 'samplers of the animation');
      if (sampler === undefined) issues.add(`${cpath}.sampler`, 'is missing');
      const target = ch['target'];
      if (!isObject(target)) {
        issues.add(`${cpath}.target`, 'must be an object');
        return outChannel;
      }
      const node = c.index(target, 'node', `${cpath}.target`, nodes.length, 'nodes');
      const targetPath = target['path'];
      if (typeof targetPath !== 'string') issues.add(`${cpath}.target.path`, 'must be a string');
      const outTarget: Json = { path: targetPath };
      if (node !== undefined) outTarget['node'] = node;
      // Outputs of transform channels are read: check them; others (weights, pointers) are not.
      const samplerDef = sampler !== undefined ? samplers[sampler] : undefined;
      if (isObject(samplerDef) && (targetPath === 'translation' || targetPath === 'scale' || targetPath === 'rotation')) {
        use(samplerDef, 'output', `${path}.samplers[${sampler}]`, [targetPath === 'rotation' ? 'VEC4' : 'VEC3']);
      }
      return { sampler, target: outTarget };
    });
    return out;
  });
  issues.throwIfAny();

  // Used accessors: type, component type, and every byte inside its buffer view.
  const usedViews = new Set<number>();
  const checkedViews = new Map<number, Json | null>();
  const view = (index: unknown, path: string): Json | null => {
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= bufferViews.length) {
      issues.add(path, `is ${String(index)}: not a buffer view index (0..${bufferViews.length - 1})`);
      return null;
    }
    const i = index as number;
    if (!checkedViews.has(i)) checkedViews.set(i, checkView(c, bufferViews[i], `bufferViews[${i}]`, bufferInfo));
    usedViews.add(i);
    return checkedViews.get(i)!;
  };
  const outAccessors = accessors.map((def, i) => {
    const list = uses.get(i);
    if (!list) return { componentType: FLOAT, type: 'SCALAR', count: 1 }; // unused: a zero stub
    const path = `accessors[${i}]`;
    if (!c.object(def, path)) return { componentType: FLOAT, type: 'SCALAR', count: 1 };
    return checkAccessor(c, def, path, list, view);
  });
  issues.throwIfAny();

  const firstUsed = usedViews.values().next();
  const stubBuffer = firstUsed.done ? 0 : (bufferViews[firstUsed.value] as Json)['buffer'];
  const outViews = bufferViews.map((def, i) => {
    if (!usedViews.has(i)) return { buffer: stubBuffer, byteOffset: 0, byteLength: 0 };
    const d = def as Json;
    const out: Json = { buffer: d['buffer'], byteOffset: d['byteOffset'] ?? 0, byteLength: d['byteLength'] };
    if (d['byteStride'] !== undefined) out['byteStride'] = d['byteStride'];
    return out;
  });

  const pruned: Json = {
    asset: { version: '2.0' },
    buffers: outBuffers,
    bufferViews: usedViews.size ? outViews : [],
    accessors: outAccessors,
    meshes: outMeshes,
    nodes: outNodes,
    skins: outSkins,
    animations: outAnimations,
  };
  return { json: pruned, resources, nodeParents, nodeNames, skinnedMeshes, warnings };
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

/** A buffer's usable length, or why it cannot be read. */
interface BufferInfo {
  length: number;
  fault: string | null;
  /** The fault is listed once, for the first view that reads the buffer. */
  reported: boolean;
}

function checkView(c: Checker, def: unknown, path: string, buffers: BufferInfo[]): Json | null {
  if (!c.object(def, path)) return null;
  const buffer = c.index(def, 'buffer', path, buffers.length, 'buffers');
  const offset = c.int(def, 'byteOffset', path, 0, Number.MAX_SAFE_INTEGER, false) ?? 0;
  const length = c.int(def, 'byteLength', path, 1, Number.MAX_SAFE_INTEGER, true);
  const stride = c.int(def, 'byteStride', path, 4, 252, false);
  if (buffer === undefined) c.issues.add(`${path}.buffer`, 'is missing');
  if (buffer === undefined || length === undefined) return null;
  const info = buffers[buffer];
  if (info.fault) {
    if (!info.reported) c.issues.add(`buffers[${buffer}] (read by ${path})`, info.fault);
    info.reported = true;
    return null;
  }
  if (offset + length > info.length) {
    c.issues.add(path, `bytes ${offset}..${offset + length} are out of range of buffers[${buffer}] (${info.length} bytes)`);
    return null;
  }
  return { offset, length, stride };
}

function checkAccessor(
  c: Checker, def: Json, path: string, list: readonly AccessorUse[], view: (index: unknown, path: string) => Json | null,
): Json {
  const componentType = def['componentType'];
  const type = def['type'];
  const componentBytes = typeof componentType === 'number' ? COMPONENT_BYTES[componentType] : undefined;
  const size = typeof type === 'string' ? TYPE_SIZE[type] : undefined;
  if (componentBytes === undefined) c.issues.add(`${path}.componentType`, `is ${String(componentType)}: not a glTF component type`);
  if (size === undefined) c.issues.add(`${path}.type`, `is ${show(type)}: not a glTF accessor type`);
  const count = c.int(def, 'count', path, 1, 2 ** 32, true);
  const byteOffset = c.int(def, 'byteOffset', path, 0, Number.MAX_SAFE_INTEGER, false) ?? 0;
  const normalized = def['normalized'];
  if (normalized !== undefined && typeof normalized !== 'boolean') c.issues.add(`${path}.normalized`, 'must be true or false');
  for (const u of list) {
    if (typeof type === 'string' && !u.types.includes(type)) c.issues.add(path, `is ${type}, but ${u.path} needs ${u.types.join(' or ')}`);
    if (u.componentTypes && typeof componentType === 'number' && !u.componentTypes.includes(componentType)) {
      c.issues.add(`${path}.componentType`, `is ${componentType}, but ${u.path} needs ${u.componentTypes.join(' or ')}`);
    }
  }
  const out: Json = { componentType, type, count, byteOffset };
  if (normalized === true) out['normalized'] = true;
  if (componentBytes === undefined || size === undefined || count === undefined) return out;
  const elementBytes = componentBytes * size;

  if (def['bufferView'] !== undefined) {
    const v = view(def['bufferView'], `${path}.bufferView`);
    if (v) {
      const stride = (v['stride'] as number | undefined) ?? elementBytes;
      const end = byteOffset + stride * (count - 1) + elementBytes;
      if (stride < elementBytes) c.issues.add(path, `elements of ${elementBytes} bytes do not fit the buffer view's byteStride ${stride}`);
      else if (end > (v['length'] as number)) {
        c.issues.add(path, `${count} elements from byte ${byteOffset} need ${end} bytes: out of range of bufferViews[${String(def['bufferView'])}] (${String(v['length'])} bytes)`);
      }
    }
    out['bufferView'] = def['bufferView'];
  } else if (count * size > MAX_UNBACKED_COMPONENTS) {
    c.issues.add(`${path}.count`, `is ${count} with no buffer view: more than the ${MAX_UNBACKED_COMPONENTS} zero-filled components allowed`);
  }

  const sparse = def['sparse'];
  if (sparse !== undefined) {
    const spath = `${path}.sparse`;
    if (!c.object(sparse, spath)) return out;
    const n = c.int(sparse, 'count', spath, 1, count, true);
    const indices = sparse['indices'];
    const values = sparse['values'];
    if (!c.object(indices, `${spath}.indices`) || !c.object(values, `${spath}.values`) || n === undefined) return out;
    const indexType = indices['componentType'];
    if (typeof indexType !== 'number' || !(INDEX_TYPES as readonly number[]).includes(indexType)) {
      c.issues.add(`${spath}.indices.componentType`, `is ${String(indexType)}: must be 5121, 5123 or 5125`);
      return out;
    }
    const parts: Array<[Json, string, number]> = [[indices, `${spath}.indices`, COMPONENT_BYTES[indexType] * n], [values, `${spath}.values`, elementBytes * n]];
    for (const [part, ppath, bytes] of parts) {
      const v = view(part['bufferView'], `${ppath}.bufferView`);
      const offset = c.int(part, 'byteOffset', ppath, 0, Number.MAX_SAFE_INTEGER, false) ?? 0;
      if (!v) continue;
      if (v['stride'] !== undefined) c.issues.add(`${ppath}.bufferView`, 'has a byteStride: sparse data must be tightly packed');
      if (offset + bytes > (v['length'] as number)) c.issues.add(ppath, `${bytes} bytes from byte ${offset} are out of range of its buffer view (${String(v['length'])} bytes)`);
    }
    out['sparse'] = {
      count: n,
      indices: { bufferView: indices['bufferView'], byteOffset: indices['byteOffset'] ?? 0, componentType: indexType },
      values: { bufferView: values['bufferView'], byteOffset: values['byteOffset'] ?? 0 },
    };
  }
  return out;
}

/** Small typed readers over untrusted JSON that record a fault instead of throwing. */
class Checker {
  constructor(readonly issues: IssueList) {}

  object(v: unknown, path: string): v is Json {
    if (isObject(v)) return true;
    this.issues.add(path, 'must be an object');
    return false;
  }

  /** `owner[key]` as an array; `[]` when absent or (with a fault) not an array. */
  array(owner: Json, key: string, path: string): unknown[] {
    const v = owner[key];
    if (v === undefined) return [];
    if (Array.isArray(v)) return v;
    this.issues.add(path, 'must be an array');
    return [];
  }

  /** `owner[key]` as an integer in [min, max]; undefined when absent or faulty. */
  int(owner: Json, key: string, path: string, min: number, max: number, required: boolean): number | undefined {
    const v = owner[key];
    if (v === undefined) {
      if (required) this.issues.add(`${path}.${key}`, 'is missing');
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.issues.add(`${path}.${key}`, `is ${show(v)}: must be an integer in [${min}, ${max}]`);
      return undefined;
    }
    return v;
  }

  /** `owner[key]` as an index below `length` into the named array; undefined when absent or faulty. */
  index(owner: Json, key: string, path: string, length: number, what: string): number | undefined {
    const v = owner[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= length) {
      const why = typeof v === 'number' && Number.isInteger(v) ? 'out of range of' : 'not an index into';
      this.issues.add(`${path}.${key}`, `is ${show(v)}: ${why} the ${length} ${what}`);
      return undefined;
    }
    return v;
  }

  /** `owner[key]` as exactly `n` finite numbers; undefined when absent or faulty. */
  numbers(owner: Json, key: string, path: string, n: number): number[] | undefined {
    const v = owner[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length !== n) {
      this.issues.add(`${path}.${key}`, `must be an array of ${n} numbers`);
      return undefined;
    }
    let ok = true;
    v.forEach((x, k) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        this.issues.add(`${path}.${key}[${k}]`, `is ${show(x)}: not a finite number`);
        ok = false;
      }
    });
    return ok ? (v as number[]) : undefined;
  }
}
