/**
 * One body's draw: a pixi `Mesh` with no vertex attributes whose one draw call covers every
 * character of that body in view — `drawn × body.corners` vertices, pulled by the shader
 * (`./shaders/`). Per character slot 2 rgba32float texels of {@link BodyBatch.slots}: (root x,
 * y, z, yaw), (entity id, tint r, g, b); the crowd writes the first `drawn` slots each frame and
 * {@link BodyBatch.commit}s them. The members (entity ids) live in a dense list.
 */
import { BufferImageSource, Geometry, Mesh, RendererType, Shader, State, UniformGroup } from 'pixi.js';
import type { CharacterBody } from './body.js';
import { crowdGlProgram, crowdGpuProgram } from './shaders/program.js';

/** Floats per slot of a body without morph targets: root x y z yaw, entity id, tint r g b. */
export const SLOT_FLOATS = 8;
/** Float offset of the morph weights in a slot (a body with morph targets: 4 per texel, as many texels as it needs). */
export const SLOT_WEIGHTS = 8;
/** Float offset of the root's yaw in a slot (x y z at 0 … 2). */
export const SLOT_YAW = 3;
/** Float offset of the entity id in a slot. */
export const SLOT_EID = 4;
/** Float offset of the tint (r g b) in a slot. */
export const SLOT_TINT = 5;
/** Texels per row of the slot texture. */
const SLOT_ROW_TEXELS = 1024;

/** A geometry with no attributes whose vertex count the batch sets. */
class PulledGeometry extends Geometry {
  /** Vertices drawn. */
  count = 0;
  override get vertexCount(): number {
    return this.count;
  }
}

/** Every character of one body, drawn in one call. */
export class BodyBatch {
  /** The pixi mesh (a child of the crowd container). */
  readonly mesh: Mesh<Geometry, Shader>;
  /** Entity ids of the members, first {@link size}. */
  members = new Int32Array(16);
  /** Members. */
  size = 0;
  /** Slot data, {@link slotFloats} per slot. */
  slots: Float32Array;
  /** Floats per slot: {@link SLOT_FLOATS}, plus 4 per started group of 4 morph targets. */
  readonly slotFloats: number;
  /** The body's morph targets (weights per slot). */
  readonly targets: number;
  private slotSource: BufferImageSource;
  private readonly geometry = new PulledGeometry();
  private readonly shader: Shader;
  private readonly bodyUniforms: UniformGroup;
  private baseColor: unknown = null;

  constructor(readonly body: CharacterBody, palette: BufferImageSource, texelsPerEntity: number, scene: UniformGroup) {
    this.targets = body.morphTargets.length;
    this.slotFloats = SLOT_FLOATS + 4 * Math.ceil(this.targets / 4);
    this.slots = new Float32Array(SLOT_ROW_TEXELS * 4);
    this.slotSource = slotSource(this.slots);
    this.bodyUniforms = new UniformGroup({
      uBodyInfo: { value: Float32Array.of(body.corners, texelsPerEntity, 0, 0), type: 'vec4<f32>' },
      uBaseColorFactor: { value: Float32Array.from(body.baseColorFactor), type: 'vec4<f32>' },
      uMorphInfo: { value: Float32Array.of(body.morphBase, this.targets, body.texelsPerCorner, this.slotFloats / 4), type: 'vec4<f32>' },
    });
    this.shader = new Shader({
      gpuProgram: crowdGpuProgram(),
      compatibleRenderers: RendererType.WEBGL | RendererType.WEBGPU,
      resources: {
        sceneUniforms: scene,
        uPalette: palette,
        bodyUniforms: this.bodyUniforms,
        uVertices: body.cornerSource,
        uSlots: this.slotSource,
        uBaseColor: body.texture.source,
        uBaseColorSampler: body.texture.source.style,
      },
    });
    this.baseColor = body.texture.source;
    const state = State.for2d();
    state.blend = false;
    state.depthTest = true;
    state.depthMask = true;
    state.culling = false;
    this.mesh = new Mesh({ geometry: this.geometry, shader: this.shader, state, label: `bitanim-crowd ${body.name}` });
  }

  /** Gives the shader its GLSL program (made on first draw: pixi's GlProgram needs a DOM). */
  ensureGlProgram(): void {
    if (!this.shader.glProgram) this.shader.glProgram = crowdGlProgram();
  }

  /** Adds a member; returns its index in {@link members}. */
  add(eid: number): number {
    if (this.size === this.members.length) {
      const grown = new Int32Array(this.size * 2);
      grown.set(this.members);
      this.members = grown;
    }
    this.members[this.size] = eid;
    this.reserve(this.size + 1);
    return this.size++;
  }

  /** Removes the member at `index` (the last one moves there); returns the entity id moved, or −1. */
  removeAt(index: number): number {
    const last = --this.size;
    if (index === last) return -1;
    this.members[index] = this.members[last];
    return this.members[index];
  }

  /** Draws the first `drawn` slots (their data already written), with the body's current texture. */
  commit(drawn: number): void {
    if (drawn > 0) this.slotSource.update(0, (drawn * this.slotFloats) / 4);
    this.geometry.count = drawn * this.body.corners;
    const source = this.body.texture.source;
    if (source !== this.baseColor) {
      this.baseColor = source;
      this.shader.resources.uBaseColor = source;
      this.shader.resources.uBaseColorSampler = source.style;
    }
  }

  /** Vertices the last commit draws. */
  get vertexCount(): number {
    return this.geometry.count;
  }

  /** Frees the GPU objects (not the body's). */
  destroy(): void {
    this.mesh.destroy();
    this.shader.destroy();
    this.slotSource.destroy();
  }

  /** Room for `n` slots (whole rows; the slot texture is replaced when it grows). */
  private reserve(n: number): void {
    if (n * this.slotFloats <= this.slots.length) return;
    const rows = Math.ceil((n * this.slotFloats) / (SLOT_ROW_TEXELS * 4)) * 2;
    const grown = new Float32Array(rows * SLOT_ROW_TEXELS * 4);
    grown.set(this.slots);
    this.slots = grown;
    const old = this.slotSource;
    this.slotSource = slotSource(grown);
    this.shader.resources.uSlots = this.slotSource;
    old.destroy();
  }
}

function slotSource(data: Float32Array): BufferImageSource {
  return new BufferImageSource({
    resource: data,
    width: SLOT_ROW_TEXELS,
    height: data.length / (SLOT_ROW_TEXELS * 4),
    format: 'rgba32float',
    scaleMode: 'nearest',
    autoGenerateMipmaps: false,
    alphaMode: 'no-premultiply-alpha',
    label: 'bitanim-crowd-slots',
  });
}
