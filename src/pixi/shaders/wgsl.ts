/**
 * The crowd's WGSL shaders (WebGPU): the same vertex pulling, skinning and lighting as
 * `./glsl.ts`, with the same resource names (pixi binds one `resources` object to both).
 * Bindings: group 0 — `sceneUniforms` (uViewProj, uLight, uLightColor), `uPalette`; group 1 —
 * `bodyUniforms` (uBodyInfo, uBaseColorFactor, uMorphInfo), `uVertices`, `uSlots`, `uBaseColor`,
 * `uBaseColorSampler`. The data textures are rgba32float read with `textureLoad`
 * (unfilterable: `./program.ts` declares them so in the bind group layout).
 */

/** Vertex and fragment entry points in one module. */
export const CROWD_WGSL = /* wgsl */ `
struct SceneUniforms {
  uViewProj: mat4x4<f32>,
  uLight: vec4<f32>,
  uLightColor: vec4<f32>,
};
struct BodyUniforms {
  uBodyInfo: vec4<f32>,
  uBaseColorFactor: vec4<f32>,
  uMorphInfo: vec4<f32>,
};
@group(0) @binding(0) var<uniform> sceneUniforms: SceneUniforms;
@group(0) @binding(1) var uPalette: texture_2d<f32>;
@group(1) @binding(0) var<uniform> bodyUniforms: BodyUniforms;
@group(1) @binding(1) var uVertices: texture_2d<f32>;
@group(1) @binding(2) var uSlots: texture_2d<f32>;
@group(1) @binding(3) var uBaseColor: texture_2d<f32>;
@group(1) @binding(4) var uBaseColorSampler: sampler;

struct VSOutput {
  @builtin(position) position: vec4<f32>,
  @location(0) normal: vec3<f32>,
  @location(1) uv: vec2<f32>,
  @location(2) tint: vec3<f32>,
};

fn texelAt(t: texture_2d<f32>, i: i32) -> vec4<f32> {
  let w = i32(textureDimensions(t, 0).x);
  return textureLoad(t, vec2<i32>(i % w, i / w), 0);
}

fn jointMatrix(base: i32, joint: f32) -> mat4x4<f32> {
  let t = base + i32(joint + 0.5) * 3;
  let a = texelAt(uPalette, t);
  let b = texelAt(uPalette, t + 1);
  let c = texelAt(uPalette, t + 2);
  return mat4x4<f32>(vec4<f32>(a.xyz, 0.0), vec4<f32>(a.w, b.xy, 0.0), vec4<f32>(b.zw, c.x, 0.0), vec4<f32>(c.yzw, 1.0));
}

fn skinMatrix(base: i32, joints: vec4<f32>, weights: vec4<f32>) -> mat4x4<f32> {
  var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
  if (weights.x != 0.0) { m = m + jointMatrix(base, joints.x) * weights.x; }
  if (weights.y != 0.0) { m = m + jointMatrix(base, joints.y) * weights.y; }
  if (weights.z != 0.0) { m = m + jointMatrix(base, joints.z) * weights.z; }
  if (weights.w != 0.0) { m = m + jointMatrix(base, joints.w) * weights.w; }
  return m;
}

struct Morphed {
  p: vec3<f32>,
  n: vec3<f32>,
};

// Morph targets before skinning: GLSL's morphVertex (p + sum w_k dp_k, n + sum w_k dn_k).
fn morphVertex(row: i32, base: i32, targets: i32, weightTexel: i32, p: vec3<f32>, n: vec3<f32>) -> Morphed {
  var out = Morphed(p, n);
  if (row < 0) { return out; }
  for (var k = 0; k < targets; k = k + 1) {
    let w4 = texelAt(uSlots, weightTexel + k / 4);
    let w = w4[k % 4];
    if (w == 0.0) { continue; }
    let t = base + (row * targets + k) * 2;
    let a = texelAt(uVertices, t);
    let b = texelAt(uVertices, t + 1);
    out.p = out.p + a.xyz * w;
    out.n = out.n + vec3<f32>(a.w, b.xy) * w;
  }
  return out;
}

@vertex
fn mainVertex(@builtin(vertex_index) vertexIndex: u32) -> VSOutput {
  let corners = i32(bodyUniforms.uBodyInfo.x + 0.5);
  let id = i32(vertexIndex);
  let slot = id / corners;
  let corner = id - slot * corners;
  let morphInfo = bodyUniforms.uMorphInfo;
  let perCorner = i32(morphInfo.z + 0.5);
  let perSlot = i32(morphInfo.w + 0.5);
  let root = texelAt(uSlots, slot * perSlot);
  let info = texelAt(uSlots, slot * perSlot + 1);
  let v0 = texelAt(uVertices, corner * perCorner);
  let v1 = texelAt(uVertices, corner * perCorner + 1);
  let joints = texelAt(uVertices, corner * perCorner + 2);
  let weights = texelAt(uVertices, corner * perCorner + 3);
  var morphed = Morphed(v0.xyz, vec3<f32>(v0.w, v1.xy));
  var color = vec3<f32>(1.0);
  if (perCorner > 4) {
    let extra = texelAt(uVertices, corner * perCorner + 4);
    color = extra.rgb;
    morphed = morphVertex(i32(extra.w + 0.5) - 1, i32(morphInfo.x + 0.5), i32(morphInfo.y + 0.5), slot * perSlot + 2, morphed.p, morphed.n);
  }
  let skin = skinMatrix(i32(info.x + 0.5) * i32(bodyUniforms.uBodyInfo.y + 0.5), joints, weights);
  let p = (skin * vec4<f32>(morphed.p, 1.0)).xyz;
  let n = mat3x3<f32>(skin[0].xyz, skin[1].xyz, skin[2].xyz) * morphed.n;
  let c = cos(root.w);
  let s = sin(root.w);
  let world = vec3<f32>(c * p.x + s * p.z, p.y, -s * p.x + c * p.z) + root.xyz;
  var out: VSOutput;
  // The camera's clip depth is WebGL's (-1 … 1); WebGPU's is 0 … 1.
  let clip = sceneUniforms.uViewProj * vec4<f32>(world, 1.0);
  out.position = vec4<f32>(clip.xy, (clip.z + clip.w) * 0.5, clip.w);
  out.normal = vec3<f32>(c * n.x + s * n.z, n.y, -s * n.x + c * n.z);
  out.uv = v1.zw;
  out.tint = info.yzw * color;
  return out;
}

@fragment
fn mainFragment(in: VSOutput) -> @location(0) vec4<f32> {
  let base = textureSample(uBaseColor, uBaseColorSampler, in.uv) * bodyUniforms.uBaseColorFactor;
  let diffuse = abs(dot(normalize(in.normal), sceneUniforms.uLight.xyz));
  let light = sceneUniforms.uLightColor;
  return vec4<f32>(base.rgb * in.tint * (light.a + light.rgb * diffuse), 1.0);
}
`;
