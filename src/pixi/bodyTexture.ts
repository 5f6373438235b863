/**
 * A body's base colour texture, decoded in the browser: `createImageBitmap` of a `Blob` of the
 * glTF image's bytes, asynchronously. Until it decodes — and for good if it fails, or where
 * there is no `createImageBitmap` (Node) — {@link BodyTexture.source} is a 1×1 white texture,
 * so the body draws in its base colour factor; a failure is a pixi warning naming the mesh.
 * Nothing here touches the DOM at import time.
 */
import { ImageSource, Texture, warn, type TextureSource, type TextureSourceOptions } from 'pixi.js';
import type { GltfMaterial } from '../import/gltf/materials.js';

/** Where a body's base colour texture is. */
export type BodyTextureStatus = 'none' | 'decoding' | 'ready' | 'failed';

type Decode = (blob: Blob) => Promise<unknown>;

const WRAP: Record<number, 'repeat' | 'clamp-to-edge' | 'mirror-repeat'> = { 10497: 'repeat', 33071: 'clamp-to-edge', 33648: 'mirror-repeat' };

/** The sampler of a glTF texture as pixi texture style options. */
export function samplerStyle(sampler: NonNullable<GltfMaterial['baseColorTexture']>['sampler']): Partial<TextureSourceOptions> {
  const min = sampler.minFilter ?? 9987;
  const mipmapped = min >= 9984;
  return {
    addressModeU: WRAP[sampler.wrapS] ?? 'repeat',
    addressModeV: WRAP[sampler.wrapT] ?? 'repeat',
    magFilter: sampler.magFilter === 9728 ? 'nearest' : 'linear',
    minFilter: min === 9728 || min === 9984 || min === 9986 ? 'nearest' : 'linear',
    mipmapFilter: min === 9984 || min === 9985 ? 'nearest' : 'linear',
    autoGenerateMipmaps: mipmapped,
  };
}

/** The base colour texture of a body: white until (and unless) its image decodes. */
export class BodyTexture {
  /** What the shader samples: the decoded image, or 1×1 white. */
  source: TextureSource = Texture.WHITE.source;
  /** `'none'` (no texture in the material), `'decoding'`, `'ready'` or `'failed'` (drawn in the base colour factor). */
  status: BodyTextureStatus = 'none';
  /** Resolves when decoding ends: true when the texture is in use. */
  readonly ready: Promise<boolean>;

  constructor(meshName: string, material: GltfMaterial | null) {
    const texture = material?.baseColorTexture ?? null;
    if (texture === null) {
      this.ready = Promise.resolve(false);
      return;
    }
    const decode = (globalThis as { createImageBitmap?: Decode }).createImageBitmap;
    const fallback = (reason: string): false => {
      this.status = 'failed';
      warn(`bitanim/pixi: mesh "${meshName}": its base colour texture (${texture.mimeType}, ${texture.image.length} bytes) ${reason}; drawing its base colour factor instead`);
      return false;
    };
    if (typeof decode !== 'function') {
      this.ready = Promise.resolve(fallback('cannot be decoded here (no createImageBitmap)'));
      return;
    }
    this.status = 'decoding';
    const blob = new Blob([texture.image as Uint8Array<ArrayBuffer>], { type: texture.mimeType });
    this.ready = decode(blob).then(
      (bitmap) => {
        this.source = new ImageSource({ resource: bitmap as ImageSource['resource'], label: `bitanim-body ${meshName}`, ...samplerStyle(texture.sampler) });
        this.status = 'ready';
        return true;
      },
      (error: unknown) => fallback(`failed to decode (${error instanceof Error ? error.message : String(error)})`),
    );
  }
}
