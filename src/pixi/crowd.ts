/**
 * `createCrowdRenderer`: a pixi `Container` that draws every character of a world that was
 * given a body. This increment holds the bookkeeping — which body and tint each character has,
 * checked at the boundary — and the camera; the GPU skinning (palette texture, one draw per
 * body kind and texture) comes next.
 */
import { Container } from 'pixi.js';
import { fail } from '../assets/AnimationError.js';
import { requireCharacter, requireOptions, requireWorld } from '../api/validation.js';
import type { AnimationWorld } from '../world.js';
import type { CharacterBody } from './body.js';
import { CrowdCamera, type CameraProjection } from './camera.js';

/** Options of {@link createCrowdRenderer}. */
export interface CrowdRendererOptions {
  /** The camera's projection (default `'orthographic'`); change it later on `crowd.camera`. */
  projection?: CameraProjection;
}

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
  private bodyCount = 0;

  /** Use {@link createCrowdRenderer}. */
  constructor(world: AnimationWorld, options: CrowdRendererOptions) {
    super({ label: 'bitanim-crowd' });
    this.world = world;
    this.tints = new Uint32Array(world.maxEntities + 1);
    if (options.projection !== undefined) this.camera.projection = options.projection;
    this.camera.update();
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
    if (this.bodies[eid] === undefined) this.bodyCount++;
    this.bodies[eid] = body;
    this.tints[eid] = tint;
  }

  /** Stops drawing character `eid`; returns whether it had a body. Any integer is accepted. */
  removeBody(eid: number): boolean {
    if (!Number.isInteger(eid) || eid < 0 || eid >= this.bodies.length || this.bodies[eid] === undefined) return false;
    this.bodies[eid] = undefined;
    this.tints[eid] = 0;
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
 * {@link CrowdRenderer.setBody}, through {@link CrowdRenderer.camera}.
 * @throws AnimationError when `world` is not an animation world or `options` is not an object.
 */
export function createCrowdRenderer(world: AnimationWorld, options?: CrowdRendererOptions): CrowdRenderer {
  const where = 'createCrowdRenderer';
  requireWorld(world, where);
  requireOptions(options, where);
  const projection = options?.projection;
  if (projection !== undefined && projection !== 'orthographic' && projection !== 'perspective') {
    fail(where, 'options.projection', `is ${String(projection)}: must be 'orthographic' or 'perspective'`);
  }
  return new CrowdRenderer(world, options ?? {});
}
