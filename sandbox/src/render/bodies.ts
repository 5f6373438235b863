/**
 * GPU skinning in a pixi.js v8 shader. The skinning palettes stay where bitanim keeps them —
 * one Float32Array of 3×4 matrices, `eid × maxJoints × 12` floats per character (README,
 * "Data layout") — and that array *is* the texture: an rgba32float texture of 3 texels per
 * joint, uploaded each frame for the rows of live characters only (no copy on the CPU). Every
 * vertex fetches its ≤ 4 joints' matrices with `texelFetch`, blends them (linear blend
 * skinning) and places the result by its character's root transform (x, y, z, yaw).
 *
 * One draw call per body kind, not instanced: the body's vertices are repeated once per
 * character slot in a static buffer, and a vertex finds its slot as gl_VertexID ÷ vertices
 * per body; the slot's root transform, palette offset and colour come from a small float
 * texture written each frame. Measured in SwiftShader (software WebGL, 2 cores): an instanced
 * draw costs about 18 µs per instance on top of its triangles (5,000 instances of one
 * triangle: 89 ms; 630,000 triangles: 103 ms as one plain draw, 419 ms as 5,000 instances of
 * 126), so the repeated buffer is 3–4× faster for crowds.
 */
import { BufferImageSource, Geometry, Mesh, Shader, State, UniformGroup } from 'pixi.js';
import type { BodyGeometry } from '../assets';

/** Floats per instance: root x y z yaw, palette base texel, colour r g b. */
export const INSTANCE_FLOATS = 8;

const VERTEX = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
in vec3 aPosition;
in vec4 aJoints;   // joint indices (uint8, not normalized)
in vec4 aWeights;  // weights (unorm8)
uniform mat4 uViewProj;
uniform float uPaletteWidth;
uniform float uVertsPerBody;
uniform highp sampler2D uPalette;
// Two texels per character slot: (world x, y, z, yaw), (first palette texel, colour r g b).
uniform highp sampler2D uSlots;
out vec3 vWorld;
out vec3 vColor;

// Joint matrix: 12 floats, 3x4 column-major (m00 m10 m20 m01 m11 m21 m02 m12 m22 tx ty tz),
// in 3 consecutive texels of the palette texture.
mat4 joint(int base, float index) {
  int width = int(uPaletteWidth);
  int t = base + int(index + 0.5) * 3;
  vec4 a = texelFetch(uPalette, ivec2(t % width, t / width), 0);
  t += 1;
  vec4 b = texelFetch(uPalette, ivec2(t % width, t / width), 0);
  t += 1;
  vec4 c = texelFetch(uPalette, ivec2(t % width, t / width), 0);
  return mat4(vec4(a.xyz, 0.0), vec4(a.w, b.xy, 0.0), vec4(b.zw, c.x, 0.0), vec4(c.yzw, 1.0));
}

void main() {
  int slot = gl_VertexID / int(uVertsPerBody + 0.5);
  int slotWidth = textureSize(uSlots, 0).x;
  int s0 = slot * 2, s1 = slot * 2 + 1;
  vec4 aRoot = texelFetch(uSlots, ivec2(s0 % slotWidth, s0 / slotWidth), 0);
  vec4 aInfo = texelFetch(uSlots, ivec2(s1 % slotWidth, s1 / slotWidth), 0);
  int base = int(aInfo.x + 0.5);
  vec4 weights = aWeights / dot(aWeights, vec4(1.0));
  mat4 skin = weights.x * joint(base, aJoints.x);
  if (weights.y > 0.0) skin += weights.y * joint(base, aJoints.y);
  if (weights.z > 0.0) skin += weights.z * joint(base, aJoints.z);
  if (weights.w > 0.0) skin += weights.w * joint(base, aJoints.w);
  vec4 model = skin * vec4(aPosition, 1.0);
  // Heading about +Y (bitanim's convention: x' = x cos + z sin, z' = -x sin + z cos).
  float c = cos(aRoot.w), s = sin(aRoot.w);
  vec3 world = vec3(c * model.x + s * model.z, model.y, -s * model.x + c * model.z) + aRoot.xyz;
  vWorld = world;
  vColor = aInfo.yzw;
  gl_Position = uViewProj * vec4(world, 1.0);
}
`;

const FRAGMENT = /* glsl */ `#version 300 es
precision mediump float;
in vec3 vWorld;
in vec3 vColor;
uniform vec3 uLight;
uniform vec3 uView;   // unit vector from the scene towards the camera
out vec4 fragColor;
void main() {
  // Flat shading: the triangle's normal from the screen-space derivatives of its position,
  // turned towards the camera.
  vec3 n = normalize(cross(dFdx(vWorld), dFdy(vWorld)));
  if (dot(n, uView) < 0.0) n = -n;
  float diffuse = max(dot(n, uLight), 0.0);
  float sky = 0.5 + 0.5 * n.y;
  fragColor = vec4(vColor * (0.28 + 0.22 * sky + 0.62 * diffuse), 1.0);
}
`;

/**
 * The palette pool of a world as a float texture. `width` texels per row holds whole
 * characters (a power-of-two number of them), so `texel = eid × maxJoints × 3 + joint × 3 + c`
 * maps to (texel mod width, texel div width).
 */
export class PaletteTexture {
  readonly source: BufferImageSource;
  readonly width: number;
  readonly texelsPerEntity: number;

  /**
   * @param pool the world's SkinPalette data ((maxEntities + 1) × maxJoints × 12 floats);
   *   maxEntities + 1 must be a multiple of 64.
   */
  constructor(pool: Float32Array, maxJoints: number) {
    this.texelsPerEntity = maxJoints * 3;
    const rows = pool.length / 4 / this.texelsPerEntity; // maxEntities + 1
    let perRow = 1;
    while (perRow < 64 && this.texelsPerEntity * perRow * 2 <= 4096 && rows % (perRow * 2) === 0) perRow *= 2;
    this.width = this.texelsPerEntity * perRow;
    const height = rows / perRow;
    if (!Number.isInteger(height)) throw new Error(`palette pool of ${rows} rows is not a multiple of ${perRow}`);
    this.source = new BufferImageSource({
      resource: pool,
      width: this.width,
      height,
      format: 'rgba32float',
      scaleMode: 'nearest',
      autoGenerateMipmaps: false,
      // Matrices, not colours: never premultiply (it would scale m00 m10 m20 by m01, …).
      alphaMode: 'no-premultiply-alpha',
    });
  }

  /** Uploads the palettes of entity ids first … last (inclusive). */
  upload(firstEid: number, lastEid: number): void {
    if (lastEid < firstEid) return;
    this.source.update(firstEid * this.texelsPerEntity, (lastEid + 1) * this.texelsPerEntity);
  }
}

/** Shared uniforms of every body batch (camera and light). */
export class BodyUniforms {
  readonly group = new UniformGroup({
    uViewProj: { value: new Float32Array(16), type: 'mat4x4<f32>' },
    uPaletteWidth: { value: 1, type: 'f32' },
    uLight: { value: new Float32Array([0.45, 0.8, 0.4]), type: 'vec3<f32>' },
    uView: { value: new Float32Array([0, 1, 0]), type: 'vec3<f32>' },
  });

  constructor(paletteWidth: number) {
    this.group.uniforms.uPaletteWidth = paletteWidth;
    const light = this.group.uniforms.uLight as Float32Array;
    const n = Math.hypot(light[0]!, light[1]!, light[2]!);
    for (let i = 0; i < 3; i++) light[i]! /= n;
  }

  /** Camera: its view-projection matrix and the unit direction from the scene to it. */
  setCamera(matrix: Float32Array, view: ArrayLike<number>): void {
    (this.group.uniforms.uViewProj as Float32Array).set(matrix);
    (this.group.uniforms.uView as Float32Array).set([view[0]!, view[1]!, view[2]!]);
    this.group.update();
  }
}

/** Character slots per row of the slot texture (2 texels each). */
const SLOTS_PER_ROW = 512;

/**
 * One body (a mesh or capsules) drawn for up to `slots` characters in one draw call. Grow it
 * with {@link reserve}; fill the first `count` slots of {@link instances} and call
 * {@link commit}.
 */
export class BodyBatch {
  readonly mesh: Mesh<Geometry, Shader>;
  /** Per-slot data, `INSTANCE_FLOATS` per character: x y z yaw, first palette texel, r g b. */
  instances: Float32Array;
  private slotSource: BufferImageSource;
  private geometry: Geometry;
  private slots = 0;
  private readonly shader: Shader;

  constructor(private readonly body: BodyGeometry, slots: number, palette: PaletteTexture, uniforms: BodyUniforms) {
    this.instances = new Float32Array(SLOTS_PER_ROW * INSTANCE_FLOATS);
    this.slotSource = this.createSlotSource(1);
    this.geometry = this.createGeometry(0);
    this.shader = Shader.from({
      gl: { vertex: VERTEX, fragment: FRAGMENT, name: 'bitanim-skinned-body' },
      resources: {
        bodyUniforms: new UniformGroup({ uVertsPerBody: { value: body.vertexCount, type: 'f32' } }),
        sceneUniforms: uniforms.group,
        uPalette: palette.source,
        uSlots: this.slotSource,
      },
    });
    const state = new State();
    state.blend = false;
    state.depthTest = true;
    state.depthMask = true;
    state.culling = false;
    this.mesh = new Mesh({ geometry: this.geometry, shader: this.shader, state });
    this.mesh.visible = false;
    this.reserve(slots);
  }

  /** Makes room for at least `slots` characters (rounded up to a whole row of the slot texture). */
  reserve(slots: number): void {
    if (slots <= this.slots) return;
    const rows = Math.max(1, Math.ceil(slots / SLOTS_PER_ROW));
    this.slots = rows * SLOTS_PER_ROW;
    const old = this.instances;
    this.instances = new Float32Array(this.slots * INSTANCE_FLOATS);
    this.instances.set(old.subarray(0, Math.min(old.length, this.instances.length)));
    this.slotSource.destroy();
    this.slotSource = this.createSlotSource(rows);
    this.shader.resources.uSlots = this.slotSource;
    const geometry = this.createGeometry(this.slots);
    this.mesh.geometry = geometry;
    this.geometry.destroy(true);
    this.geometry = geometry;
  }

  /** Draws the first `count` slots (their data already in {@link instances}). */
  commit(count: number): void {
    this.reserve(count);
    if (count > 0) this.slotSource.update(0, count * 2);
    this.geometry.indexCount = count * this.body.indices.length;
    this.mesh.visible = count > 0;
  }

  /** A texture over {@link instances}, which holds `rows` rows. */
  private createSlotSource(rows: number): BufferImageSource {
    return new BufferImageSource({
      resource: this.instances,
      width: SLOTS_PER_ROW * 2,
      height: rows,
      format: 'rgba32float',
      scaleMode: 'nearest',
      autoGenerateMipmaps: false,
      alphaMode: 'no-premultiply-alpha',
    });
  }

  /** The body repeated `slots` times (vertex v of slot k at index k·V + v). */
  private createGeometry(slots: number): Geometry {
    const body = this.body;
    const V = body.vertexCount, I = body.indices.length;
    const n = Math.max(1, slots);
    const positions = new Float32Array(n * V * 3);
    const joints = new Uint8Array(n * V * 4);
    const weights = new Uint8Array(n * V * 4);
    const indices = new Uint32Array(n * I);
    const jointBytes = Uint8Array.from(body.joints);
    const weightBytes = Uint8Array.from(body.weights, (w: number) => Math.round(w * 255));
    for (let k = 0; k < n; k++) {
      positions.set(body.positions, k * V * 3);
      joints.set(jointBytes, k * V * 4);
      weights.set(weightBytes, k * V * 4);
      const offset = k * V;
      for (let i = 0; i < I; i++) indices[k * I + i] = body.indices[i]! + offset;
    }
    return new Geometry({
      attributes: {
        aPosition: { buffer: positions, format: 'float32x3' },
        aJoints: { buffer: joints, format: 'uint8x4' },
        aWeights: { buffer: weights, format: 'unorm8x4' },
      },
      indexBuffer: indices,
    });
  }
}
