/**
 * The crowd's WGSL (WebGPU) parses, and binds the same resources as its GLSL (WebGL 2): pixi
 * gives one `resources` object to both programs, by name. wgsl_reflect parses the module;
 * the GLSL's uniforms are read from its declarations.
 */
import { describe, expect, it } from 'vitest';
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { FRAGMENT_GLSL, VERTEX_GLSL } from '../../src/pixi/shaders/glsl.js';
import { CROWD_WGSL } from '../../src/pixi/shaders/wgsl.js';

/** `uniform <type> <name>;` declarations of a GLSL source, name → type. */
function glslUniforms(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/^uniform\s+(?:highp\s+|mediump\s+)?(\w+)\s+(\w+);/gm)) out.set(m[2]!, m[1]!);
  return out;
}

describe('the crowd shaders (WGSL against GLSL)', () => {
  const reflect = new WgslReflect(CROWD_WGSL);
  const glsl = new Map([...glslUniforms(VERTEX_GLSL), ...glslUniforms(FRAGMENT_GLSL)]);

  it('parses, with one vertex and one fragment entry point as pixi is told (mainVertex, mainFragment)', () => {
    expect(reflect.entry.vertex.map((f) => f.name)).toEqual(['mainVertex']);
    expect(reflect.entry.fragment.map((f) => f.name)).toEqual(['mainFragment']);
    expect(reflect.entry.vertex[0]!.outputs.map((o) => o.name).sort()).toEqual(['normal', 'position', 'tint', 'uv']);
  });

  it('its uniform structs hold exactly the GLSL\'s plain uniforms, with the same types', () => {
    const members = reflect.uniforms.flatMap((u) => (u.type as unknown as { members: { name: string; type: { name: string; format?: { name: string } } }[] }).members);
    const wgslTypes = new Map(members.map((m) => [m.name, `${m.type.name}<${m.type.format?.name ?? ''}>`]));
    const plain = [...glsl].filter(([, type]) => !type.startsWith('sampler'));
    expect([...wgslTypes.keys()].sort()).toEqual(plain.map(([name]) => name).sort());
    const expected: Record<string, string> = { mat4: 'mat4x4<f32>', vec4: 'vec4<f32>' };
    for (const [name, type] of plain) expect(wgslTypes.get(name), name).toBe(expected[type]);
    expect(reflect.uniforms.map((u) => `${u.group}:${u.binding}:${u.name}`).sort()).toEqual(['0:0:sceneUniforms', '1:0:bodyUniforms']);
  });

  it('its textures are the GLSL\'s samplers, by name; the base colour has a sampler of its own; no binding is used twice', () => {
    const samplers = [...glsl].filter(([, type]) => type === 'sampler2D').map(([name]) => name).sort();
    expect(reflect.textures.map((t) => t.name).sort()).toEqual(samplers);
    expect(reflect.textures.every((t) => t.type.name === 'texture_2d')).toBe(true);
    expect(reflect.samplers.map((s) => s.name)).toEqual(['uBaseColorSampler']);
    const slots = [...reflect.uniforms, ...reflect.textures, ...reflect.samplers].map((v) => `${v.group}:${v.binding}`);
    expect(new Set(slots).size).toBe(slots.length);
  });

  it('both morph the bind vertex before skinning with the same function, reading the same uMorphInfo', () => {
    const names = reflect.functions.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['texelAt', 'jointMatrix', 'skinMatrix', 'morphVertex', 'mainVertex']));
    expect(VERTEX_GLSL).toMatch(/void morphVertex\(int row, int base, int targets, int weightTexel, inout vec3 p, inout vec3 n\)/);
    expect(reflect.functions.find((f) => f.name === 'morphVertex')!.arguments.map((a) => a.name)).toEqual(['row', 'base', 'targets', 'weightTexel', 'p', 'n']);
    // Morphing comes before the skin matrix is applied, in both.
    expect(VERTEX_GLSL.indexOf('morphVertex(int(extra.w')).toBeLessThan(VERTEX_GLSL.indexOf('skin * vec4(bindP, 1.0)'));
    expect(CROWD_WGSL.indexOf('morphVertex(i32(extra.w')).toBeLessThan(CROWD_WGSL.indexOf('skin * vec4<f32>(morphed.p, 1.0)'));
  });
});
