/** The ground plane: a quad at y = 0 with a metre grid (5 m lines stronger) and an arena ring. */
import { Geometry, Mesh, Shader, State, UniformGroup } from 'pixi.js';

const VERTEX = /* glsl */ `#version 300 es
precision highp float;
in vec2 aGround;
uniform mat4 uViewProj;
out vec2 vWorld;
void main() {
  vWorld = aGround;
  gl_Position = uViewProj * vec4(aGround.x, 0.0, aGround.y, 1.0);
}
`;

const FRAGMENT = /* glsl */ `#version 300 es
precision highp float;
in vec2 vWorld;
uniform float uArena;
out vec4 fragColor;
float grid(vec2 p, float spacing, float width) {
  vec2 q = p / spacing;
  vec2 w = fwidth(q);
  vec2 d = abs(fract(q - 0.5) - 0.5) / w;
  // Fade lines out as they crowd together (under ~8 pixels apart).
  float fade = 1.0 - smoothstep(0.06, 0.15, max(w.x, w.y));
  return (1.0 - clamp(min(d.x, d.y) - width, 0.0, 1.0)) * fade;
}
void main() {
  vec3 base = vec3(0.16, 0.18, 0.21);
  float fine = grid(vWorld, 1.0, 0.0);
  float coarse = grid(vWorld, 5.0, 0.5);
  vec3 color = mix(base, vec3(0.22, 0.25, 0.29), fine);
  color = mix(color, vec3(0.30, 0.34, 0.40), coarse);
  float r = length(vWorld);
  float ring = 1.0 - clamp(abs(r - uArena) / fwidth(r) - 1.0, 0.0, 1.0);
  color = mix(color, vec3(0.55, 0.45, 0.25), ring * step(0.01, uArena));
  fragColor = vec4(color, 1.0);
}
`;

export class Ground {
  readonly mesh: Mesh<Geometry, Shader>;
  readonly uniforms = new UniformGroup({
    uViewProj: { value: new Float32Array(16), type: 'mat4x4<f32>' },
    uArena: { value: 0, type: 'f32' },
  });

  constructor(halfSize: number) {
    const s = halfSize;
    const geometry = new Geometry({
      attributes: { aGround: { buffer: new Float32Array([-s, -s, s, -s, s, s, -s, s]), format: 'float32x2' } },
      indexBuffer: new Uint32Array([0, 1, 2, 0, 2, 3]),
    });
    const shader = Shader.from({ gl: { vertex: VERTEX, fragment: FRAGMENT, name: 'bitanim-ground' }, resources: { groundUniforms: this.uniforms } });
    const state = new State();
    state.blend = false;
    state.depthTest = true;
    state.depthMask = true;
    state.culling = false;
    this.mesh = new Mesh({ geometry, shader, state });
  }

  update(viewProj: Float32Array, arenaRadius: number): void {
    (this.uniforms.uniforms.uViewProj as Float32Array).set(viewProj);
    this.uniforms.uniforms.uArena = arenaRadius;
    this.uniforms.update();
  }
}
