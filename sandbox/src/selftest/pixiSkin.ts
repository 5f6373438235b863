/**
 * `pixiFox.html?selftest=skin`: the GPU's skinned Fox against `skinVertices` on the CPU. A
 * WebGL 2 transform-feedback pass runs bitanim/pixi's own skinning GLSL (`SKIN_GLSL`: the
 * crowd's texel fetches and linear blend skinning) over the body's corner texture and the
 * world's palette pool laid out as the crowd uploads it, and reads the skinned positions back;
 * `skinVertices` skins the mesh on the CPU. Result: the largest difference, metres, over
 * several poses of the Walk.
 */
import { createAnimationWorld, getSkinPalette, loadGltf, play, spawnCharacter, step } from 'bitanim';
import { skinVertices } from 'bitanim/kernels';
import { createCharacterBody, paletteLayout, SKIN_GLSL } from 'bitanim/pixi';

const VERTEX = `#version 300 es
precision highp float;
precision highp int;
uniform highp sampler2D uPalette;
uniform highp sampler2D uVertices;
uniform int uBase;
out vec3 vSkinned;
${SKIN_GLSL}
void main() {
  int corner = gl_VertexID;
  vec4 v0 = texelAt(uVertices, corner * 4);
  mat4 skin = skinMatrix(uBase, texelAt(uVertices, corner * 4 + 2), texelAt(uVertices, corner * 4 + 3));
  vSkinned = (skin * vec4(v0.xyz, 1.0)).xyz;
  gl_Position = vec4(0.0);
}
`;
const FRAGMENT = `#version 300 es
precision highp float;
out vec4 color;
void main() { color = vec4(0.0); }
`;

/** Result of the selftest. */
export interface SkinSelftest { poses: number; vertices: number; maxError: number; maxExtent: number }

export async function skinSelftest(foxGlb: Uint8Array): Promise<SkinSelftest> {
  const { skeletons, clips, meshes } = await loadGltf(foxGlb, { scale: 'cm' });
  const mesh = meshes[0]!;
  const world = createAnimationWorld({ maxEntities: 63, maxJoints: 24 });
  spawnCharacter(world, skeletons[0]!);
  const eid = spawnCharacter(world, skeletons[0]!); // not the first row: the palette base offset is exercised
  play(world, eid, clips.find((c) => c.name === 'Walk')!);
  const body = createCharacterBody(mesh, null);
  const corners = body.corners;
  const image = body.cornerSource.resource as Float32Array;
  const pool = world.components.SkinPalette.data;
  const layout = paletteLayout(world.maxEntities + 1, world.maxJoints);

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
  const out = gl.createBuffer()!;
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, out);
  gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, corners * 12, gl.STREAM_READ);
  const feedback = gl.createTransformFeedback()!;

  const gpu = new Float32Array(corners * 3);
  const cpu = new Float32Array(mesh.positions.length);
  let maxError = 0, maxExtent = 0, poses = 0;
  for (let pose = 0; pose < 6; pose++) {
    step(world, 0.11);
    texture(0, 'uPalette', pool, layout.width, layout.height);
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
    skinVertices(getSkinPalette(world, eid), mesh.positions, mesh.joints, mesh.weights, cpu);
    for (let k = 0; k < corners; k++) {
      const v = body.arrays.indices[k]!;
      for (let c = 0; c < 3; c++) {
        maxError = Math.max(maxError, Math.abs(gpu[k * 3 + c]! - cpu[v * 3 + c]!));
        maxExtent = Math.max(maxExtent, Math.abs(cpu[v * 3 + c]!));
      }
    }
    poses++;
  }
  return { poses, vertices: corners, maxError, maxExtent };
}
