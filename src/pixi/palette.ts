/**
 * The world's palette pool as a float texture, without a copy: the pool (`(maxEntities + 1) ×
 * maxJoints × 12` floats: one 3×4 matrix per joint) *is* an rgba32float texture of 3 texels per
 * joint. A row of the texture holds `perRow` whole characters (a power of two dividing the
 * pool's rows), so texel `eid × maxJoints × 3 + joint × 3 + c` is at (texel mod width, texel div
 * width) and a character's texels are one contiguous range: uploading the live rows only is an
 * update of texels first … last.
 */
import { BufferImageSource } from 'pixi.js';
import { fail } from '../assets/AnimationError.js';
import { MATRIX_STRIDE } from '../math/layout.js';

/** Texels per joint matrix (12 floats, rgba). */
export const TEXELS_PER_JOINT = 3;
/** The largest texture side every WebGL 2 / WebGPU device offers (WebGL 2 guarantees 2048; WebGPU 8192; 4096 is near universal). */
export const PALETTE_MAX_SIDE = 4096;

/** How a palette pool is laid out as a texture. */
export interface PaletteLayout {
  /** Texels per character: maxJoints × 3. */
  readonly texelsPerEntity: number;
  /** Characters per texture row. */
  readonly perRow: number;
  /** Texture width, texels (texelsPerEntity × perRow). */
  readonly width: number;
  /** Texture height, texels (rows ÷ perRow). */
  readonly height: number;
}

/**
 * The texture layout of a pool of `rows` characters of `maxJoints` joints: the most characters
 * per row (a power of two, at most 64, dividing `rows`) that keeps the width ≤ `maxSide`.
 * @throws AnimationError (where `createCrowdRenderer`) when a character's palette is wider or
 *   the pool taller than `maxSide`.
 */
export function paletteLayout(rows: number, maxJoints: number, maxSide = PALETTE_MAX_SIDE): PaletteLayout {
  const where = 'createCrowdRenderer';
  const texelsPerEntity = maxJoints * TEXELS_PER_JOINT;
  if (texelsPerEntity > maxSide) fail(where, 'world.maxJoints', `is ${maxJoints}: a palette of ${texelsPerEntity} texels is wider than a ${maxSide}-texel texture row (at most ${Math.floor(maxSide / TEXELS_PER_JOINT)} joints)`);
  let perRow = 1;
  while (perRow < 64 && texelsPerEntity * perRow * 2 <= maxSide && rows % (perRow * 2) === 0) perRow *= 2;
  const height = rows / perRow;
  if (height > maxSide) {
    fail(where, 'world.maxEntities', `is ${rows - 1}: its palettes need a texture ${height} texels tall (${perRow} per row), more than ${maxSide}; make maxEntities + 1 a multiple of 64 or smaller`);
  }
  return { texelsPerEntity, perRow, width: texelsPerEntity * perRow, height };
}

/** The palette pool as a pixi texture source over the pool's own memory. */
export class PaletteTexture {
  /** The texture source (rgba32float, nearest, never premultiplied: its texels are matrices). */
  readonly source: BufferImageSource;
  /** The layout. */
  readonly layout: PaletteLayout;

  /**
   * @param pool - the world's `SkinPalette` data ((maxEntities + 1) × maxJoints × 12 floats).
   * @throws AnimationError as {@link paletteLayout}.
   */
  constructor(pool: Float32Array, maxJoints: number) {
    this.layout = paletteLayout(pool.length / (maxJoints * MATRIX_STRIDE), maxJoints);
    this.source = new BufferImageSource({
      resource: pool,
      width: this.layout.width,
      height: this.layout.height,
      format: 'rgba32float',
      scaleMode: 'nearest',
      autoGenerateMipmaps: false,
      alphaMode: 'no-premultiply-alpha',
    });
  }

  /** Uploads the palettes of entity ids `firstEid` … `lastEid` (inclusive); nothing when last < first. */
  upload(firstEid: number, lastEid: number): void {
    if (lastEid < firstEid) return;
    this.source.update(firstEid * this.layout.texelsPerEntity, (lastEid + 1) * this.layout.texelsPerEntity);
  }
}
