/**
 * The crowd's pixi programs, made once: a `GlProgram` of the GLSL and a `GpuProgram` of the
 * WGSL whose bind group layout declares the rgba32float data textures (palette, vertices,
 * slots) `'unfilterable-float'` — pixi's generated layout says `'float'`, which WebGPU accepts
 * for rgba32float only with the optional `float32-filterable` feature. The `GlProgram` is made
 * on first use by a renderer ({@link crowdGlProgram}): pixi's GlProgram asks a canvas for the
 * fragment precision, and a crowd must stay usable in Node (no DOM) until it is drawn.
 */
import { GlProgram, GpuProgram } from 'pixi.js';
import { FRAGMENT_GLSL, VERTEX_GLSL } from './glsl.js';
import { CROWD_WGSL } from './wgsl.js';

/** The textures read with texelFetch/textureLoad only. */
export const DATA_TEXTURES = ['uPalette', 'uVertices', 'uSlots'] as const;

let gpuProgram: GpuProgram | null = null;
let glProgram: GlProgram | null = null;

/** The GLSL program (shared by every body batch), made on first call: needs a DOM. */
export function crowdGlProgram(): GlProgram {
  glProgram ??= GlProgram.from({ vertex: VERTEX_GLSL, fragment: FRAGMENT_GLSL, name: 'bitanim-crowd' });
  return glProgram;
}

/** The WGSL program (shared by every body batch): its bindings name the resources of both programs. */
export function crowdGpuProgram(): GpuProgram {
  if (gpuProgram !== null) return gpuProgram;
  const gpu = GpuProgram.from({
    name: 'bitanim-crowd',
    vertex: { source: CROWD_WGSL, entryPoint: 'mainVertex' },
    fragment: { source: CROWD_WGSL, entryPoint: 'mainFragment' },
  });
  for (const group of gpu.structsAndGroups.groups) {
    if (!(DATA_TEXTURES as readonly string[]).includes(group.name)) continue;
    const entry = gpu.gpuLayout[group.group]?.find((e) => e.binding === group.binding);
    if (entry?.texture) entry.texture.sampleType = 'unfilterable-float';
  }
  gpuProgram = gpu;
  return gpu;
}
