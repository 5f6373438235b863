/**
 * `pixiFox.html?selftest=skin`: the GPU's skinned Fox — and the whole Robot with its
 * expressions' morph targets — against `skinVertices` on the CPU. A WebGL 2
 * transform-feedback pass runs bitanim/pixi's own GLSL (`SKIN_GLSL`: the crowd's texel fetches,
 * morph targets and linear blend skinning, with the vertex texture read as the crowd's vertex
 * shader reads it) over the body's corner texture and the world's palette pool laid out as the
 * crowd uploads it, the morph weights in a slot texel, and reads the skinned positions back;
 * `skinVertices` skins each mesh on the CPU with the same weights. Result: the largest
 * difference, in the model's units, over several poses.
 */
import { createAnimationWorld, getSkinPalette, loadGltf, play, spawnCharacter, step, type SkinnedMeshData } from 'bitanim';
import { skinVertices } from 'bitanim/kernels';
import { createCharacterBody, paletteLayout, SKIN_GLSL, type CharacterBody } from 'bitanim/pixi';

const VERTEX = `#version 300 es
precision highp float;
precision highp int;
uniform highp sampler2D uPalette;
uniform highp sampler2D uVertices;
uniform highp sampler2D uSlots;
uniform int uBase;
uniform ivec4 uMorph; // morph deltas' first texel, targets, texels per corner
out vec3 vSkinned;
${SKIN_GLSL}
void main() {
  int corner = gl_VertexID;
  int perCorner = uMorph.z;
  vec4 v0 = texelAt(uVertices, corner * perCorner);
  vec4 v1 = texelAt(uVertices, corner * perCorner + 1);
  vec3 p = v0.xyz;
  vec3 n = vec3(v0.w, v1.xy);
  if (perCorner > 4) {
    vec4 extra = texelAt(uVertices, corner * perCorner + 4);
    morphVertex(int(extra.w + 0.5) - 1, uMorph.x, uMorph.y, 0, p, n);
  }
  mat4 skin = skinMatrix(uBase, texelAt(uVertices, corner * perCorner + 2), texelAt(uVertices, corner * perCorner + 3));
  vSkinned = (skin * vec4(p, 1.0)).xyz;
  gl_Position = vec4(0.0);
}
`;
const FRAGMENT = `#version 300 es
precision highp float;
out vec4 color;
void main() { color = vec4(0.0); }
`;

/** Result of one model's selftest. */
export interface SkinResult {
  poses: number;
  vertices: number;
  /** Largest |GPU − CPU| coordinate, model units. */
  maxError: number;
  /** Largest |coordinate| of the skinned model. */
  maxExtent: number;
  /** Largest distance a morph target moved a skinned vertex (CPU, with the weights against without): 0 without targets. */
  maxMorph: number;
  /** Morph targets applied. */
  targets: number;
}

/** Result of the selftest: the Fox (`SkinResult` at the top level) and the whole Robot with morph weights. */
export interface SkinSelftest extends SkinResult { robot: SkinResult }

export async function skinSelftest(foxGlb: Uint8Array, robotGlb: Uint8Array): Promise<SkinSelftest> {
  const fox = await loadGltf(foxGlb, { scale: 'cm' });
  const foxResult = readBack(fox.meshes.slice(0, 1), fox.skeletons[0]!, fox.clips.find((c) => c.name === 'Walk')!, 24, () => []);
  // The Robot as the file has it (about 4.6 units tall): its 19 primitives in one body, the head's three expressions.
  const robot = await loadGltf(robotGlb);
  const robotMeshes = robot.meshes.filter((m) => m.skeleton === 0);
  const robotResult = readBack(robotMeshes, robot.skeletons[0]!, robot.clips.find((c) => c.name === 'Dance') ?? robot.clips[0]!, 48,
    (pose) => [0.2 + 0.13 * pose, pose % 2 === 0 ? 0.9 : 0, 1 - 0.15 * pose]);
  return { ...foxResult, robot: robotResult };
}

type Loaded = Awaited<ReturnType<typeof loadGltf>>;

/** Skins `meshes` (one body) on the GPU and the CPU over 6 poses of `clip`, with morph weights (in body target order) per pose. */
function readBack(meshes: readonly SkinnedMeshData[], skeleton: Loaded['skeletons'][number], clip: Loaded['clips'][number], maxJoints: number, weightsAt: (pose: number) => number[]): SkinResult {
  const world = createAnimationWorld({ maxEntities: 63, maxJoints });
  spawnCharacter(world, skeleton);
  const eid = spawnCharacter(world, skeleton); // not the first row: the palette base offset is exercised
  play(world, eid, clip);
  const body: CharacterBody = createCharacterBody(meshes.length === 1 ? meshes[0]! : meshes, null);
  const corners = body.corners;
  const image = body.cornerSource.resource as Float32Array;
  const pool = world.components.SkinPalette.data;
  const layout = paletteLayout(world.maxEntities + 1, world.maxJoints);
  const targets = body.morphTargets.length;

  const gl = document.createElement('canvas').getContext('webgl2')!;
  const shader = (type: number, source: string): WebGLShader => {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s) ?? 'compile');
    return s;
  };
  const program = gl.createProgram()!;
  gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.transformFeedbackVaryings(program, ['vSkinned'], gl.INTERLEAVED_ATTRIBS);
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program) ?? 'link');
  gl.useProgram(program);
  const texture = (unit: number, name: string, data: Float32Array, width: number, height: number): WebGLTexture => {
    const t = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, height, 0, gl.RGBA, gl.FLOAT, data);
    gl.uniform1i(gl.getUniformLocation(program, name), unit);
    return t;
  };
  texture(1, 'uVertices', image, body.cornerSource.width, body.cornerSource.height);
  gl.uniform1i(gl.getUniformLocation(program, 'uBase'), eid * layout.texelsPerEntity);
  gl.uniform4i(gl.getUniformLocation(program, 'uMorph'), body.morphBase, targets, body.texelsPerCorner, 0);
  const slot = new Float32Array(8); // the weights, 4 per texel, as the crowd writes them after a slot's root and tint
  const out = gl.createBuffer()!;
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, out);
  gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, corners * 12, gl.STREAM_READ);
  const feedback = gl.createTransformFeedback()!;

  const gpu = new Float32Array(corners * 3);
  const cpu = new Float32Array(body.arrays.vertexCount * 3);
  const plain = new Float32Array(body.arrays.vertexCount * 3);
  let maxError = 0, maxExtent = 0, maxMorph = 0, poses = 0;
  for (let pose = 0; pose < 6; pose++) {
    step(world, 0.11);
    texture(0, 'uPalette', pool, layout.width, layout.height);
    const weights = weightsAt(pose);
    slot.fill(0);
    slot.set(weights);
    texture(2, 'uSlots', slot, 2, 1);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, feedback);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, out);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, corners);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, out);
    gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, gpu);
    // The CPU: each mesh on its own, its targets' weights found by curve name.
    const palette = getSkinPalette(world, eid);
    meshes.forEach((mesh, i) => {
      const at = body.arrays.firstVertex[i]! * 3, count = mesh.positions.length;
      const own = mesh.morphTargets.map((t) => weights[body.morphTargets.indexOf(t.name)] ?? 0);
      skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, cpu.subarray(at, at + count), mesh.morphTargets, own);
      skinVertices(palette, mesh.positions, mesh.joints, mesh.weights, plain.subarray(at, at + count));
    });
    for (let k = 0; k < corners; k++) {
      const v = body.arrays.indices[k]!;
      maxMorph = Math.max(maxMorph, Math.hypot(cpu[v * 3]! - plain[v * 3]!, cpu[v * 3 + 1]! - plain[v * 3 + 1]!, cpu[v * 3 + 2]! - plain[v * 3 + 2]!));
      for (let c = 0; c < 3; c++) {
        maxError = Math.max(maxError, Math.abs(gpu[k * 3 + c]! - cpu[v * 3 + c]!));
        maxExtent = Math.max(maxExtent, Math.abs(cpu[v * 3 + c]!));
      }
    }
    poses++;
  }
  return { poses, vertices: corners, maxError, maxExtent, maxMorph, targets };
}
