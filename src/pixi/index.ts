/**
 * `bitanim/pixi` — skinned characters in pixi.js v8 (an optional peer dependency; the main
 * entry `bitanim` never imports pixi.js). `createCharacterBody` builds a mesh's GPU geometry
 * once; `createCrowdRenderer` returns the `Container` that draws a world's characters through
 * its `camera`. Work in progress (issue 20): the GPU skinning draw is not in yet.
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
  type BodyArrays,
} from './bodyArrays.js';
export { CrowdCamera, type CameraProjection } from './camera.js';
export { createCrowdRenderer, CrowdRenderer, type CrowdRendererOptions, type SetBodyOptions } from './crowd.js';
export { paletteLayout, PaletteTexture, TEXELS_PER_JOINT, PALETTE_MAX_SIDE, type PaletteLayout } from './palette.js';
