/**
 * Drawing the crowd with bitanim/pixi (docs/pixi.md): one crowd renderer per world
 * (`createCrowdRenderer`, its `camera` the view's), every character given the body the
 * "bodies" setting picks — the Fox's textured mesh, capsules on every bone, or coarse capsules,
 * each a `createCharacterBody` built once per character kind — and its colour as its tint
 * (`setTint` each frame: its motion LOD level's colour, else its own; the textured Fox is drawn
 * untinted). Also the lure and follower markers.
 */
import { getFollowPosition, type AnimationWorld } from 'bitanim';
import { createCrowdRenderer, type CharacterBody, type CrowdCamera, type CrowdRenderer } from 'bitanim/pixi';
import type { Container, Graphics } from 'pixi.js';
import { bodiesOf } from '../assets';
import { copyView } from '../render/camera';
import type { CrowdSim } from './simulation';
import { AUTO_CAPSULE_LIMIT, AUTO_MESH_LIMIT, LOD_COLORS, type CrowdSettings } from './settings';

/** `rgb` (components in [0, 1]) from `offset` as 0xRRGGBB. */
export function packColor(rgb: ArrayLike<number>, offset = 0): number {
  return (Math.round(rgb[offset]! * 255) << 16) | (Math.round(rgb[offset + 1]! * 255) << 8) | Math.round(rgb[offset + 2]! * 255);
}

/** Colour per LOD level as 0xRRGGBB. */
const LOD_TINTS = LOD_COLORS.map((color) => packColor(color));
/** Frames the renderer's CPU time is kept for (its median). */
const RENDER_FRAMES = 120;

export class CrowdBodies {
  /** The renderer of the current world (made by {@link rebuild}). */
  crowd!: CrowdRenderer;
  /** Characters per LOD level drawn this frame. */
  readonly levels = new Uint32Array(LOD_COLORS.length);
  /** What the bodies are, for the overlay. */
  label = '';
  trianglesPerFrame = 0;
  /** The renderer's CPU time per frame (`crowd.stats.updateMs`) of the last frames drawn, a ring. */
  private readonly rendererMs = new Float64Array(RENDER_FRAMES);
  private rendererFrames = 0;
  /** Characters given a body (slots 0 … withBody − 1 of the agents). */
  private withBody = 0;
  /** The body drawn last frame: the renderer's median starts over when it changes. */
  private body: CharacterBody | null = null;
  /** The crowd's own per-frame update (its `onRender`), detached while a threaded frame runs. */
  private onRender: CrowdRenderer['onRender'] = null;

  /** `noDraw`: the debug switch `?draw=0` (nothing drawn, to time the CPU side alone). */
  constructor(private readonly scene: Container, private readonly noDraw: boolean) {}

  /** The camera the crowd is drawn through. */
  get camera(): CrowdCamera {
    return this.crowd.camera;
  }

  /** A new renderer for `world` (the old one destroyed, its view kept). */
  rebuild(world: AnimationWorld): void {
    const old = this.crowd as CrowdRenderer | undefined;
    const crowd = (this.crowd = createCrowdRenderer(world, { fitCamera: false }));
    if (old) {
      copyView(crowd.camera, old.camera);
      old.destroy();
    }
    this.onRender = crowd.onRender;
    this.scene.addChild(crowd);
    crowd.visible = !this.noDraw;
    if (this.noDraw) crowd.onRender = null;
    this.withBody = 0;
    this.body = null;
    this.rendererFrames = 0;
  }

  /** Whether the crowd refreshes its draw data when pixi renders (not while a threaded frame writes the world: it draws the last one). */
  set live(live: boolean) {
    if (this.noDraw) return;
    const hook = live ? this.onRender : null;
    if (this.crowd.onRender !== hook) this.crowd.onRender = hook;
  }

  /** After pixi drew a frame the crowd refreshed: keep its CPU time. */
  recordFrame(): void {
    this.rendererMs[this.rendererFrames++ % RENDER_FRAMES] = this.crowd.stats.updateMs;
  }

  /** The renderer's CPU time per frame, ms: median of the last frames (NaN before any), and how many. */
  rendererCost(): { medianMs: number; frames: number } {
    const n = Math.min(this.rendererFrames, RENDER_FRAMES);
    const sorted = Array.from(this.rendererMs.subarray(0, n)).sort((a, b) => a - b);
    return { medianMs: n > 0 ? sorted[n >> 1]! : NaN, frames: n };
  }

  /** Starts the median of the renderer's CPU time over (e.g. after the bodies changed). */
  resetCost(): void {
    this.rendererFrames = 0;
  }

  /**
   * Gives every character the body the setting picks (the others' bodies are removed) and its
   * tint: its LOD level's colour (on the plain mesh or capsules), else its own colour (capsules)
   * or none (the textured mesh).
   */
  fill(sim: CrowdSim, settings: CrowdSettings): void {
    const { world, agents, count, asset } = sim;
    const crowd = this.crowd;
    const bodies = bodiesOf(asset);
    let choice = settings.body;
    if (choice === 'auto') choice = count <= AUTO_MESH_LIMIT ? 'mesh' : count <= AUTO_CAPSULE_LIMIT ? 'capsules' : 'coarse';
    if (choice === 'mesh' && !bodies.mesh) choice = 'capsules';
    const lod = settings.lod;
    const body = choice === 'mesh' ? (lod ? bodies.plainMesh! : bodies.mesh!) : choice === 'capsules' ? bodies.capsules : bodies.coarse;
    const textured = body === bodies.mesh;
    if (body !== this.body || count !== this.withBody) this.resetCost();
    this.body = body;
    const lodLevel = world.components.Lod.level;
    const levels = this.levels;
    levels.fill(0);
    for (let i = 0; i < count; i++) {
      const eid = agents.eid[i]!;
      let tint = 0xffffff;
      if (lod) {
        // The level lodSystem picked this frame (255, unset, before the first frame: shown as 0).
        const picked = lodLevel[eid]!;
        const level = picked < LOD_TINTS.length ? picked : 0;
        levels[level]!++;
        tint = LOD_TINTS[level]!;
      } else if (!textured) {
        tint = packColor(agents.tint, i * 3);
      }
      if (crowd.bodyOf(eid) === body) crowd.setTint(eid, tint);
      else crowd.setBody(eid, body, { tint });
    }
    // Characters removed since the last frame (the crowd shrank).
    for (let i = count; i < this.withBody; i++) crowd.removeBody(agents.eid[i]!);
    this.withBody = count;
    const triangles = body.corners / 3;
    const what = choice === 'mesh' ? `${asset.label} mesh${textured ? ', textured' : ''}` : choice === 'capsules' ? 'capsules on every bone' : 'coarse capsules (long bones)';
    this.label = `${what}: ${body.corners.toLocaleString('en-US')} vertices, ${triangles.toLocaleString('en-US')} triangles × ${count.toLocaleString('en-US')}`;
    this.trianglesPerFrame = triangles * count;
  }
}

/** The lure (a yellow point over its shadow) and 24 of the followers (blue dots), when followers are on. */
export function drawMarkers(markers: Graphics, camera: CrowdCamera, sim: CrowdSim, settings: CrowdSettings): void {
  markers.clear();
  if (sim.workload() !== 'locomotion' || !settings.followers) return;
  const lure = sim.lure;
  const p = [0, 0];
  camera.project(lure.x, lure.y, lure.z, p);
  const g = [0, 0];
  camera.project(lure.x, 0, lure.z, g);
  markers.moveTo(g[0]!, g[1]!).lineTo(p[0]!, p[1]!).stroke({ width: 1, color: 0xffe066, alpha: 0.6 });
  markers.circle(p[0]!, p[1]!, 6).fill({ color: 0xffe066 });
  // A few followers, to show them trailing the lure.
  for (let i = 0; i < Math.min(sim.count, 24); i++) {
    const f = getFollowPosition(sim.world, sim.agents.eid[i]!);
    camera.project(f.x, f.y, f.z, p);
    markers.circle(p[0]!, p[1]!, 2.5).fill({ color: 0x66d9ff, alpha: 0.9 });
  }
}
