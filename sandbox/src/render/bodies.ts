/**
 * GPU skinning in a pixi.js v8 shader. The skinning palettes stay where bitanim keeps them —
 * one Float32Array of 3×4 matrices, `eid × maxJoints × 12` floats per character (README,
 * "Data layout") — and that array *is* the texture: an rgba32float texture of 3 texels per
 * joint, uploaded each frame for the rows of live characters only (no copy on the CPU). One
 * instanced draw per body kind: every vertex fetches its ≤ 4 joints' matrices with
 * `texelFetch`, blends them (linear blend skinning), and places the result by the character's
 * root transform (x, y, z, yaw) from a per-instance attribute.
 */
import { Buffer, BufferImageSource, BufferUsage, Geometry, Mesh, Shader, State, UniformGroup } from 'pixi.js';
import type { BodyGeometry } from '../assets';

/** Floats per instance: root x y z yaw, palette base texel, colour r g b. */
export const INSTANCE_FLOATS = 8;

const VERTEX = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
in vec3 aPosition;
in vec3 aNormal;
in vec4 aJoints;
in vec4 aWeights;
in vec4 aRoot;   // per instance: world x y z, yaw
in vec4 aInfo;   // per instance: first palette texel, colour r g b
uniform mat4 uViewProj;
uniform float uPaletteWidth;
uniform highp sampler2D uPalette;
out vec3 vNormal;
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
  int base = int(aInfo.x + 0.5);
  mat4 skin = aWeights.x * joint(base, aJoints.x);
  if (aWeights.y > 0.0) skin += aWeights.y * joint(base, aJoints.y);
  if (aWeights.z > 0.0) skin += aWeights.z * joint(base, aJoints.z);
  if (aWeights.w > 0.0) skin += aWeights.w * joint(base, aJoints.w);
  vec4 model = skin * vec4(aPosition, 1.0);
  vec3 normal = mat3(skin) * aNormal;
  // Heading about +Y (bitanim's convention: x' = x cos + z sin, z' = -x sin + z cos).
  float c = cos(aRoot.w), s = sin(aRoot.w);
  vec3 world = vec3(c * model.x + s * model.z, model.y, -s * model.x + c * model.z) + aRoot.xyz;
  vNormal = vec3(c * normal.x + s * normal.z, normal.y, -s * normal.x + c * normal.z);
  vColor = aInfo.yzw;
  gl_Position = uViewProj * vec4(world, 1.0);
}
`;

const FRAGMENT = /* glsl */ `#version 300 es
precision mediump float;
in vec3 vNormal;
in vec3 vColor;
uniform vec3 uLight;
out vec4 fragColor;
void main() {
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
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
  });

  constructor(paletteWidth: number) {
    this.group.uniforms.uPaletteWidth = paletteWidth;
    const light = this.group.uniforms.uLight as Float32Array;
    const n = Math.hypot(light[0]!, light[1]!, light[2]!);
    for (let i = 0; i < 3; i++) light[i]! /= n;
  }

  setViewProj(matrix: Float32Array): void {
    (this.group.uniforms.uViewProj as Float32Array).set(matrix);
    this.group.update();
  }
}

/** One body (a mesh or capsules) drawn for up to `capacity` characters in one instanced draw. */
export class BodyBatch {
  readonly mesh: Mesh<Geometry, Shader>;
  /** Per-instance data, `INSTANCE_FLOATS` per character: fill the first `count` and call {@link commit}. */
  readonly instances: Float32Array;
  private readonly instanceBuffer: Buffer;
  private readonly geometry: Geometry;

  constructor(body: BodyGeometry, capacity: number, palette: PaletteTexture, uniforms: BodyUniforms) {
    this.instances = new Float32Array(Math.max(1, capacity) * INSTANCE_FLOATS);
    this.instanceBuffer = new Buffer({ data: this.instances, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST, label: 'body instances' });
    const stride = INSTANCE_FLOATS * 4;
    this.geometry = new Geometry({
      attributes: {
        aPosition: { buffer: body.positions, format: 'float32x3' },
        aNormal: { buffer: body.normals, format: 'float32x3' },
        aJoints: { buffer: body.joints, format: 'float32x4' },
        aWeights: { buffer: body.weights, format: 'float32x4' },
        aRoot: { buffer: this.instanceBuffer, format: 'float32x4', stride, offset: 0, instance: true },
        aInfo: { buffer: this.instanceBuffer, format: 'float32x4', stride, offset: 16, instance: true },
      },
      instanceCount: 0,
    });
    const shader = Shader.from({
      gl: { vertex: VERTEX, fragment: FRAGMENT, name: 'bitanim-skinned-body' },
      resources: { bodyUniforms: uniforms.group, uPalette: palette.source },
    });
    const state = new State();
    state.blend = false;
    state.depthTest = true;
    state.depthMask = true;
    state.culling = false;
    this.mesh = new Mesh({ geometry: this.geometry, shader, state });
  }

  /** Draw the first `count` instances (their data already in {@link instances}). */
  commit(count: number): void {
    this.instanceBuffer.update(count * INSTANCE_FLOATS * 4);
    this.geometry.instanceCount = count;
    this.mesh.visible = count > 0;
  }
}
