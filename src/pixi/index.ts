/**
 * `bitanim/pixi` — skinned characters in pixi.js v8 (an optional peer dependency; the main
 * entry `bitanim` never imports pixi.js). `createCharacterBody` builds a mesh's GPU geometry
 * once; `createCrowdRenderer` returns the `Container` that draws a world's characters through
 * its `camera`, skinned on the GPU (WebGL 2 or WebGPU, as the pixi `Application` chose), one
 * draw call per body; a body may be a whole character of several meshes, its morph targets
 * applied on the GPU with each character's weights. Guide: docs/pixi.md.
 * @packageDocumentation
 */
export { createCharacterBody, type CharacterBody } from './body.js';
export {
  buildBodyArrays,
  vertexNormals,
  BODY_STRIDE,
  BODY_POSITION,
  BODY_NORMAL,
  BODY_UV,
  BODY_JOINTS,
  BODY_WEIGHTS,
  MAX_MORPH_TARGETS,
  MORPH_DELTA_FLOATS,
  MORPH_DELTA_NORMAL,
  type BodyArrays,
  type BodyMorphs,
  type MorphMesh,
} from './bodyArrays.js';
export { CrowdCamera, type CameraProjection } from './camera.js';
export { createCrowdRenderer, CrowdRenderer, type CrowdRendererOptions, type SetBodyOptions, type CrowdLight, type CrowdFrameStats } from './crowd.js';
export { BodyTexture, type BodyTextureStatus } from './bodyTexture.js';
export { SKIN_GLSL, VERTEX_GLSL, FRAGMENT_GLSL } from './shaders/glsl.js';
export { CROWD_WGSL } from './shaders/wgsl.js';
export { paletteLayout, PaletteTexture, TEXELS_PER_JOINT, PALETTE_MAX_SIDE, type PaletteLayout } from './palette.js';
