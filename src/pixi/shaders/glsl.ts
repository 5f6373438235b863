/**
 * The crowd's GLSL 300 es shaders (WebGL 2). Vertex pulling: one draw of `slots × corners`
 * vertices and no vertex attributes; vertex `gl_VertexID` is corner `id mod corners` of slot
 * `id div corners`. The slot's root transform, entity id and tint (and morph weights, 4 per
 * texel after those 2) come from `uSlots`, the corner's body vertex (16 floats: position,
 * normal, UV, joints, weights; and with colours or morph targets a 5th texel: base colour, morph
 * row + 1) from `uVertices`, its joints' 3×4 matrices from the palette pool `uPalette` (3 texels
 * per joint). {@link SKIN_GLSL} is the morphing and skinning, shared with the GPU-vs-CPU
 * readback test.
 */

/**
 * The texel-fetch, morph-target and linear-blend-skinning functions (weights as given; weight 0
 * skipped, as `skinVertices`). Needs `uPalette`, `uVertices` and `uSlots` declared before it.
 */
export const SKIN_GLSL = /* glsl */ `
vec4 texelAt(highp sampler2D t, int i) {
  int w = textureSize(t, 0).x;
  return texelFetch(t, ivec2(i % w, i / w), 0);
}
// Joint matrix: 12 floats, 3x4 column-major (x axis, y axis, z axis, translation) in 3 texels.
mat4 jointMatrix(int base, float joint) {
  int t = base + int(joint + 0.5) * 3;
  vec4 a = texelAt(uPalette, t);
  vec4 b = texelAt(uPalette, t + 1);
  vec4 c = texelAt(uPalette, t + 2);
  return mat4(vec4(a.xyz, 0.0), vec4(a.w, b.xy, 0.0), vec4(b.zw, c.x, 0.0), vec4(c.yzw, 1.0));
}
// The skin matrix of a vertex: sum of weight x joint matrix over its non-zero weights.
mat4 skinMatrix(int base, vec4 joints, vec4 weights) {
  mat4 m = mat4(0.0);
  if (weights.x != 0.0) m += weights.x * jointMatrix(base, joints.x);
  if (weights.y != 0.0) m += weights.y * jointMatrix(base, joints.y);
  if (weights.z != 0.0) m += weights.z * jointMatrix(base, joints.z);
  if (weights.w != 0.0) m += weights.w * jointMatrix(base, joints.w);
  return m;
}
// Morph targets, before skinning (as skinVertices): p += sum w_k dp_k, n += sum w_k dn_k over the
// targets of weight != 0. row: the vertex's row of deltas (-1: none); its deltas start at texel
// base, 2 texels per (row, target); the weights are 4 per texel of uSlots from weightTexel.
void morphVertex(int row, int base, int targets, int weightTexel, inout vec3 p, inout vec3 n) {
  if (row < 0) return;
  for (int k = 0; k < targets; k++) {
    vec4 w4 = texelAt(uSlots, weightTexel + k / 4);
    float w = w4[k % 4];
    if (w == 0.0) continue;
    int t = base + (row * targets + k) * 2;
    vec4 a = texelAt(uVertices, t);
    vec4 b = texelAt(uVertices, t + 1);
    p += w * a.xyz;
    n += w * vec3(a.w, b.xy);
  }
}
`;

/** The vertex shader. */
export const VERTEX_GLSL = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
uniform mat4 uViewProj;
uniform vec4 uLight;
uniform vec4 uLightColor;
uniform vec4 uBodyInfo;        // corners per body, palette texels per entity
uniform vec4 uBaseColorFactor;
uniform vec4 uMorphInfo;       // morph deltas' first texel, morph targets, texels per corner, texels per slot
uniform highp sampler2D uPalette;
uniform highp sampler2D uVertices;
uniform highp sampler2D uSlots;
out vec3 vNormal;
out vec2 vUV;
out vec3 vTint;
${SKIN_GLSL}
void main() {
  int corners = int(uBodyInfo.x + 0.5);
  int slot = gl_VertexID / corners;
  int corner = gl_VertexID - slot * corners;
  int perCorner = int(uMorphInfo.z + 0.5);
  int perSlot = int(uMorphInfo.w + 0.5);
  vec4 root = texelAt(uSlots, slot * perSlot);
  vec4 info = texelAt(uSlots, slot * perSlot + 1);
  vec4 v0 = texelAt(uVertices, corner * perCorner);
  vec4 v1 = texelAt(uVertices, corner * perCorner + 1);
  vec4 joints = texelAt(uVertices, corner * perCorner + 2);
  vec4 weights = texelAt(uVertices, corner * perCorner + 3);
  vec3 bindP = v0.xyz;
  vec3 bindN = vec3(v0.w, v1.xy);
  vec3 color = vec3(1.0);
  if (perCorner > 4) {
    // Per-vertex base colour and morph row (bodies without either skip this texel).
    vec4 extra = texelAt(uVertices, corner * perCorner + 4);
    color = extra.rgb;
    morphVertex(int(extra.w + 0.5) - 1, int(uMorphInfo.x + 0.5), int(uMorphInfo.y + 0.5), slot * perSlot + 2, bindP, bindN);
  }
  mat4 skin = skinMatrix(int(info.x + 0.5) * int(uBodyInfo.y + 0.5), joints, weights);
  vec3 p = (skin * vec4(bindP, 1.0)).xyz;
  vec3 n = mat3(skin) * bindN;
  // Heading about +Y (bitanim's: x' = x cos + z sin, z' = -x sin + z cos), then the root position.
  float c = cos(root.w), s = sin(root.w);
  vec3 world = vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z) + root.xyz;
  vNormal = vec3(c * n.x + s * n.z, n.y, -s * n.x + c * n.z);
  vUV = v1.zw;
  vTint = info.yzw * color;
  gl_Position = uViewProj * vec4(world, 1.0);
}
`;

/** The fragment shader: base colour texture x factor x tint, lit by one directional light and ambient. */
export const FRAGMENT_GLSL = /* glsl */ `#version 300 es
precision highp float;
in vec3 vNormal;
in vec2 vUV;
in vec3 vTint;
uniform vec4 uLight;           // xyz: unit direction towards the light
uniform vec4 uLightColor;      // rgb: light colour x intensity; a: ambient
uniform vec4 uBaseColorFactor;
uniform sampler2D uBaseColor;
out vec4 fragColor;
void main() {
  vec4 base = texture(uBaseColor, vUV) * uBaseColorFactor;
  float diffuse = abs(dot(normalize(vNormal), uLight.xyz));
  fragColor = vec4(base.rgb * vTint * (uLightColor.a + uLightColor.rgb * diffuse), 1.0);
}
`;
