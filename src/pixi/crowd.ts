/**
 * `createCrowdRenderer`: a pixi `Container` that draws every character of a world that was
 * given a body, skinned on the GPU: one draw call per body (`./batch.ts`), whatever the crowd's
 * size. When pixi renders it (its `onRender`, i.e. after your ticker's `step`), it fits the
 * camera to the screen, culls each character's bind sphere against the view, writes the slots
 * of the characters in view (root transform, entity id, tint), and uploads the palette rows
 * from the first to the last of them (`./palette.ts`). Reads the world's `RootMotion` and
 * `SkinPalette` (and, for bodies with morph targets, the characters' curve values through
 * `./morphWeights.ts`); writes nothing of the world.
 */
import { shownString } from '../assets/limits.js';
import { Container, UniformGroup, type DestroyOptions, type Renderer } from 'pixi.js';
import { hasComponent } from 'bitecs';
import { BodyBatch, SLOT_EID, SLOT_TINT, SLOT_WEIGHTS, SLOT_YAW } from './batch.js';
import { MAX_MORPH_TARGETS } from './bodyArrays.js';
import { morphWeightOf } from './morphWeights.js';
import { SPHERE_RADIUS } from './bodyData.js';
import { frustumPlanes, sphereVisible } from './frustum.js';
import { PaletteTexture } from './palette.js';
import { fail } from '../assets/AnimationError.js';
import { requireCharacter, requireOptions, requireWorld } from '../api/validation.js';
import type { AnimationWorld } from '../world.js';
import type { CharacterBody } from './body.js';
import { CrowdCamera, type CameraProjection } from './camera.js';

/** Options of {@link createCrowdRenderer}. */
export interface CrowdRendererOptions {
  /** The camera's projection (default `'orthographic'`); change it later on `crowd.camera`. */
  projection?: CameraProjection;
  /** Light and ambient (defaults: see {@link CrowdLight}); change them later on `crowd.light`. */
  light?: Partial<CrowdLight>;
  /** Whether the camera's width and height follow the renderer's screen each frame (default true). */
  fitCamera?: boolean;
}

/** One directional light and ambient light. */
export interface CrowdLight {
  /** Direction towards the light (any length; default [0.45, 0.8, 0.4]). */
  direction: [number, number, number];
  /** Light colour 0xRRGGBB (default 0xffffff). */
  color: number;
  /** Light intensity (default 0.75). */
  intensity: number;
  /** Ambient light, added to every surface (default 0.4). */
  ambient: number;
}

/** What the last frame drew. */
export interface CrowdFrameStats {
  /** Characters drawn (in view). */
  drawn: number;
  /** Characters culled (outside the view, or no longer characters of the world). */
  culled: number;
  /** Draw calls issued: one per body with a character in view. */
  drawCalls: number;
  /** CPU time of the crowd's per-frame update (cull, slots, uniforms, marking the uploads), ms. */
  updateMs: number;
}

/** Where uLightColor keeps the ambient light (its r g b: the light's colour × intensity). */
const AMBIENT = 3;

/** Options of {@link CrowdRenderer.setBody}. */
export interface SetBodyOptions {
  /** Colour multiplied into the body's material, 0xRRGGBB (default 0xffffff: none). */
  tint?: number;
}

/** The pixi container that draws a world's characters; made by {@link createCrowdRenderer}. */
export class CrowdRenderer extends Container {
  /** The camera the characters are drawn through. */
  readonly camera: CrowdCamera = new CrowdCamera();
  /** The world whose palettes and root transforms are drawn. */
  readonly world: AnimationWorld;
  /** Body of each entity id, or undefined (index = eid). */
  private readonly bodies: (CharacterBody | undefined)[] = [];
  /** Tint of each entity id, 0xRRGGBB. */
  private readonly tints: Uint32Array;
  /** Tint of each entity id as r g b in [0, 1]. */
  private readonly tintRgb: Float32Array;
  /** Index of each entity id in its batch's members. */
  private readonly memberIndex: Int32Array;
  /** Per entity id, {@link MAX_MORPH_TARGETS} entries: its body's target k → its skeleton's curve index (−1: the skeleton has no such curve). */
  private readonly curveMaps: Int16Array;
  /** Morph weights set by {@link CrowdRenderer.setMorphWeights} (the skeleton's curve order), per entity id. */
  private readonly overrides: (Float32Array | undefined)[] = [];
  private readonly batches = new Map<CharacterBody, BodyBatch>();
  private readonly palette: PaletteTexture;
  private readonly scene: UniformGroup;
  private readonly planes = new Float64Array(24);
  private bodyCount = 0;
  /** The light; change its fields any time (read each frame). */
  readonly light: CrowdLight;
  /** Whether the camera follows the renderer's screen size. */
  fitCamera: boolean;
  /** What the last frame drew, and its CPU cost. */
  readonly stats: CrowdFrameStats = { drawn: 0, culled: 0, drawCalls: 0, updateMs: 0 };

  /** Use {@link createCrowdRenderer}. */
  constructor(world: AnimationWorld, options: CrowdRendererOptions) {
    super({ label: 'bitanim-crowd' });
    this.world = world;
    this.tints = new Uint32Array(world.maxEntities + 1);
    this.tintRgb = new Float32Array((world.maxEntities + 1) * 3);
    this.memberIndex = new Int32Array(world.maxEntities + 1);
    this.curveMaps = new Int16Array((world.maxEntities + 1) * MAX_MORPH_TARGETS).fill(-1);
    this.palette = new PaletteTexture(world.components.SkinPalette.data, world.maxJoints);
    this.scene = new UniformGroup({
      uViewProj: { value: new Float32Array(16), type: 'mat4x4<f32>' },
      uLight: { value: new Float32Array(4), type: 'vec4<f32>' },
      uLightColor: { value: new Float32Array(4), type: 'vec4<f32>' },
    });
    this.light = { direction: [0.45, 0.8, 0.4], color: 0xffffff, intensity: 0.75, ambient: 0.4, ...options.light };
    this.fitCamera = options.fitCamera ?? true;
    if (options.projection !== undefined) this.camera.projection = options.projection;
    this.camera.update();
    this.onRender = (renderer: Renderer) => {
      for (const batch of this.batches.values()) batch.ensureGlProgram();
      this.update(renderer.screen.width, renderer.screen.height);
    };
  }

  /**
   * Prepares the frame's draw: fits the camera to `width` × `height` (when {@link CrowdRenderer.fitCamera}),
   * culls, writes the slots of the characters in view and marks the palette rows and slots for
   * upload (pixi copies them to the GPU when it draws). pixi calls it before drawing the crowd
   * (`onRender`); call it yourself only to draw without pixi's render loop. No allocation.
   */
  update(width = this.camera.width, height = this.camera.height): void {
    const start = performance.now();
    const camera = this.camera;
    if (this.fitCamera && (camera.width !== width || camera.height !== height)) {
      camera.width = width;
      camera.height = height;
    }
    camera.update();
    frustumPlanes(this.planes, camera.viewProj);
    this.writeSceneUniforms();
    const ecs = this.world.ecs, character = this.world.components.Character;
    const { x: X, y: Y, z: Z, yaw: YAW } = this.world.components.RootMotion;
    const planes = this.planes, rgb = this.tintRgb;
    let first = Infinity, last = -1, drawn = 0, culled = 0, calls = 0;
    for (const batch of this.batches.values()) {
      const members = batch.members, slots = batch.slots, sphere = batch.body.sphere;
      const slotFloats = batch.slotFloats, targets = batch.targets;
      const sx = sphere[0], sy = sphere[1], sz = sphere[2], radius = sphere[SPHERE_RADIUS];
      let n = 0;
      for (let i = 0; i < batch.size; i++) {
        const eid = members[i];
        const x = X[eid], y = Y[eid], z = Z[eid], yaw = YAW[eid];
        const c = Math.cos(yaw), s = Math.sin(yaw);
        if (!sphereVisible(planes, x + c * sx + s * sz, y + sy, z - s * sx + c * sz, radius) || !hasComponent(ecs, eid, character)) {
          culled++;
          continue;
        }
        const o = n * slotFloats;
        slots[o] = x;
        slots[o + 1] = y;
        slots[o + 2] = z;
        slots[o + SLOT_YAW] = yaw;
        slots[o + SLOT_EID] = eid;
        slots[o + SLOT_TINT] = rgb[eid * 3];
        slots[o + SLOT_TINT + 1] = rgb[eid * 3 + 1];
        slots[o + SLOT_TINT + 2] = rgb[eid * 3 + 2];
        if (targets > 0) this.writeWeights(slots, o + SLOT_WEIGHTS, eid, targets);
        if (eid < first) first = eid;
        if (eid > last) last = eid;
        n++;
      }
      batch.commit(n);
      drawn += n;
      if (n > 0) calls++;
    }
    if (last >= 0) this.palette.upload(first, last);
    const stats = this.stats;
    stats.drawn = drawn;
    stats.culled = culled;
    stats.drawCalls = calls;
    stats.updateMs = performance.now() - start;
  }

  /** Writes the `targets` morph weights of `eid` (then zeros to the texel's end) at `slots[o]`. */
  private writeWeights(slots: Float32Array, o: number, eid: number, targets: number): void {
    const map = this.curveMaps, base = eid * MAX_MORPH_TARGETS, override = this.overrides[eid];
    let k = 0;
    for (; k < targets; k++) {
      const curve = map[base + k];
      slots[o + k] = curve < 0 ? 0 : override !== undefined ? override[curve] : morphWeightOf(this.world, eid, curve);
    }
    for (; (k & 3) !== 0; k++) slots[o + k] = 0;
  }

  /** Frees the crowd's GPU objects (its draws, slot textures and palette texture; not the bodies, which others may share). */
  override destroy(options?: DestroyOptions): void {
    for (const batch of this.batches.values()) batch.destroy();
    this.batches.clear();
    this.palette.source.destroy();
    super.destroy(options);
  }

  private writeSceneUniforms(): void {
    const u = this.scene.uniforms as { uViewProj: Float32Array; uLight: Float32Array; uLightColor: Float32Array };
    u.uViewProj.set(this.camera.viewProj);
    const d = this.light.direction;
    const n = Math.hypot(d[0], d[1], d[2]) || 1;
    u.uLight[0] = d[0] / n;
    u.uLight[1] = d[1] / n;
    u.uLight[2] = d[2] / n;
    const color = this.light.color, k = this.light.intensity / 255;
    u.uLightColor[0] = ((color >> 16) & 255) * k;
    u.uLightColor[1] = ((color >> 8) & 255) * k;
    u.uLightColor[2] = (color & 255) * k;
    u.uLightColor[AMBIENT] = this.light.ambient;
    this.scene.update();
  }

  /**
   * Draws character `eid` with `body` (replacing its body, if it had one).
   * @throws AnimationError when `eid` is not a character of the world (e.g. removed), the body
   *   uses more joints than the world's `maxJoints` or the character's skeleton has, or the
   *   tint is not an integer in [0, 0xffffff].
   */
  setBody(eid: number, body: CharacterBody, options?: SetBodyOptions): void {
    const where = 'setBody';
    const skeleton = requireCharacter(this.world, eid, where);
    if (typeof body !== 'object' || body === null || typeof body.jointCount !== 'number' || body.geometry === undefined) {
      fail(where, 'body', 'must be a CharacterBody (from createCharacterBody)');
    }
    if (body.jointCount > this.world.maxJoints) {
      fail(where, 'body', `mesh "${body.name}" uses ${body.jointCount} joints: more than the world's maxJoints (${this.world.maxJoints})`);
    }
    if (body.jointCount > skeleton.jointCount) {
      fail(where, 'body', `mesh "${body.name}" uses ${body.jointCount} joints: more than character ${eid}'s skeleton has (${skeleton.jointCount})`);
    }
    requireOptions(options, where);
    const tint = options?.tint ?? 0xffffff;
    if (!Number.isInteger(tint) || tint < 0 || tint > 0xffffff) fail(where, 'options.tint', `is ${tint}: must be an integer 0xRRGGBB in [0, 0xffffff]`);
    const previous = this.bodies[eid];
    if (previous !== body) {
      if (previous !== undefined) this.leave(eid, previous);
      else this.bodyCount++;
      let batch = this.batches.get(body);
      if (batch === undefined) {
        batch = new BodyBatch(body, this.palette.source, this.palette.layout.texelsPerEntity, this.scene);
        this.batches.set(body, batch);
        this.addChild(batch.mesh);
      }
      this.memberIndex[eid] = batch.add(eid);
      this.bodies[eid] = body;
      const base = eid * MAX_MORPH_TARGETS;
      this.curveMaps.fill(-1, base, base + MAX_MORPH_TARGETS);
      body.morphTargets.forEach((name, k) => {
        this.curveMaps[base + k] = skeleton.curves.findIndex((curve) => curve.name === name);
      });
    }
    this.writeTint(eid, tint);
  }

  /**
   * Changes the tint of character `eid` (0xRRGGBB, multiplied into its body's material), which
   * must have a body: the next frame draws it. Cheap enough for every character every frame
   * (no allocation; it does not re-check the character as {@link CrowdRenderer.setBody} does).
   * @throws AnimationError when `eid` has no body, or `tint` is not an integer in [0, 0xffffff].
   */
  setTint(eid: number, tint: number): void {
    if (!(Number.isInteger(tint) && tint >= 0 && tint <= 0xffffff)) fail('setTint', 'tint', `is ${shownString(tint)}: must be an integer 0xRRGGBB in [0, 0xffffff]`);
    if (this.bodies[eid] === undefined) fail('setTint', 'eid', `is ${shownString(eid)}: it has no body (give it one with setBody)`);
    this.writeTint(eid, tint);
  }

  /**
   * Sets the morph weights character `eid` is drawn with, overriding the world's curve values
   * (the `Curves` component, when the world has one): one weight per curve of its skeleton, in
   * `skeleton.curves` order (as `getCurves` returns them), e.g. `[angry, surprised, sad]` for the
   * Robot. A body's morph target takes the weight of the curve of its name; a target whose
   * curve the skeleton lacks stays at 0. `null` removes the override, and so does
   * {@link CrowdRenderer.removeBody}. The next frame draws it; no allocation after the first call for `eid`.
   * @throws AnimationError when `eid` is not a character of the world, or `weights` is not
   *   null or as many finite numbers as the skeleton has curves.
   */
  setMorphWeights(eid: number, weights: ArrayLike<number> | null): void {
    const where = 'setMorphWeights';
    const skeleton = requireCharacter(this.world, eid, where);
    if (weights === null) {
      this.overrides[eid] = undefined;
      return;
    }
    const count = skeleton.curves.length;
    if (typeof weights !== 'object' || typeof weights.length !== 'number' || weights.length !== count) {
      fail(where, 'weights', `must be ${count} numbers (one per curve of the skeleton: ${skeleton.curves.map((c) => c.name).join(', ') || 'none'}) or null`);
    }
    for (let i = 0; i < count; i++) if (!Number.isFinite(weights[i])) fail(where, `weights[${i}]`, `is ${shownString(weights[i])}: must be finite`);
    let stored = this.overrides[eid];
    if (stored === undefined || stored.length !== count) stored = this.overrides[eid] = new Float32Array(count);
    for (let i = 0; i < count; i++) stored[i] = weights[i];
  }

  /** The morph weights set for `eid` with {@link CrowdRenderer.setMorphWeights} (a copy), or null when none is set. */
  morphWeightsOf(eid: number): Float32Array | null {
    const stored = Number.isInteger(eid) && eid >= 0 ? this.overrides[eid] : undefined;
    return stored === undefined ? null : stored.slice();
  }

  /** Stores `tint` (valid) for `eid`, packed and as r g b. */
  private writeTint(eid: number, tint: number): void {
    this.tints[eid] = tint;
    this.tintRgb[eid * 3] = ((tint >> 16) & 255) / 255;
    this.tintRgb[eid * 3 + 1] = ((tint >> 8) & 255) / 255;
    this.tintRgb[eid * 3 + 2] = (tint & 255) / 255;
  }

  /** Takes `eid` out of its body's batch (the batch goes when it empties). */
  private leave(eid: number, body: CharacterBody): void {
    const batch = this.batches.get(body);
    if (batch === undefined) return;
    const moved = batch.removeAt(this.memberIndex[eid]);
    if (moved >= 0) this.memberIndex[moved] = this.memberIndex[eid];
    if (batch.size === 0) {
      this.removeChild(batch.mesh);
      batch.destroy();
      this.batches.delete(body);
    }
  }

  /** Stops drawing character `eid`; returns whether it had a body. Any integer is accepted. */
  removeBody(eid: number): boolean {
    if (!Number.isInteger(eid) || eid < 0 || eid >= this.bodies.length) return false;
    const body = this.bodies[eid];
    if (body === undefined) return false;
    this.leave(eid, body);
    this.bodies[eid] = undefined;
    this.tints[eid] = 0;
    this.overrides[eid] = undefined;
    this.bodyCount--;
    return true;
  }

  /** The body of character `eid`, or null. */
  bodyOf(eid: number): CharacterBody | null {
    return (Number.isInteger(eid) && eid >= 0 ? this.bodies[eid] : undefined) ?? null;
  }

  /** The tint of character `eid` (0xRRGGBB), or −1 when it has no body. */
  tintOf(eid: number): number {
    return this.bodyOf(eid) === null ? -1 : this.tints[eid];
  }

  /** How many characters have a body. */
  get characterCount(): number {
    return this.bodyCount;
  }
}

/**
 * A pixi `Container` drawing the characters of `world` given a body with
 * {@link CrowdRenderer.setBody}, through {@link CrowdRenderer.camera}: add it to your stage and
 * it draws the world's current palettes whenever pixi renders (step the world first in your
 * ticker). One draw call per body in view; the palette pool is uploaded as a float texture.
 * @throws AnimationError when `world` is not an animation world, `options` is not an object or
 *   holds a bad value, or the world's palettes cannot fit a texture (see `paletteLayout`).
 */
export function createCrowdRenderer(world: AnimationWorld, options?: CrowdRendererOptions): CrowdRenderer {
  const where = 'createCrowdRenderer';
  requireWorld(world, where);
  requireOptions(options, where);
  const projection = options?.projection;
  const light = options?.light;
  if (light !== undefined) {
    requireOptions(light, where);
    const d = light.direction;
    if (d !== undefined && (!Array.isArray(d) || d.length !== 3 || !d.every(Number.isFinite) || Math.hypot(d[0], d[1], d[2]) === 0)) {
      fail(where, 'options.light.direction', 'must be 3 finite numbers, not all 0');
    }
    for (const key of ['intensity', 'ambient'] as const) {
      const v = light[key];
      if (v !== undefined && !(Number.isFinite(v) && v >= 0)) fail(where, `options.light.${key}`, `is ${shownString(v)}: must be a finite number ≥ 0`);
    }
    const color = light.color;
    if (color !== undefined && !(Number.isInteger(color) && color >= 0 && color <= 0xffffff)) fail(where, 'options.light.color', `is ${shownString(color)}: must be an integer 0xRRGGBB`);
  }
  if (projection !== undefined && projection !== 'orthographic' && projection !== 'perspective') {
    fail(where, 'options.projection', `is ${shownString(projection)}: must be 'orthographic' or 'perspective'`);
  }
  return new CrowdRenderer(world, options ?? {});
}
