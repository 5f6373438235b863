/**
 * Drawing the crowd: the GPU-skinned body batches (skinned mesh, capsules on every bone,
 * coarse capsules) over one palette texture of the world's skinning matrices, filled with
 * one instance per character each frame, and the lure and follower markers.
 */
import { getFollowPosition, type AnimationWorld } from 'bitanim';
import type { Container, Graphics } from 'pixi.js';
import type { CharacterAsset } from '../assets';
import { BodyBatch, BodyUniforms, INSTANCE_FLOATS, PaletteTexture } from '../render/bodies';
import type { OrthoCamera } from '../render/camera';
import type { CrowdSim } from './simulation';
import { AUTO_CAPSULE_LIMIT, AUTO_MESH_LIMIT, LOD_COLORS, type CrowdSettings } from './settings';

export class CrowdBodies {
  uniforms!: BodyUniforms;
  /** Characters per LOD level drawn this frame. */
  readonly levels = new Uint32Array(LOD_COLORS.length);
  /** What the bodies are, for the overlay. */
  label = '';
  trianglesPerFrame = 0;
  private palette: PaletteTexture | undefined;
  private meshBatch: BodyBatch | null = null;
  private capsuleBatch!: BodyBatch;
  private coarseBatch!: BodyBatch;

  /** `noDraw`, `noUpload`: debug switches (`?draw=0`, `?upload=0`) to time the CPU side alone. */
  constructor(private readonly scene: Container, private readonly noDraw: boolean, private readonly noUpload: boolean) {}

  /** Drops the old batches and palette; makes new ones for `world`'s skinning matrices and `asset`'s bodies. */
  rebuild(world: AnimationWorld, asset: CharacterAsset): void {
    const scene = this.scene;
    scene.removeChildren().forEach((child) => child.destroy());
    this.palette?.source.destroy();
    const palette = (this.palette = new PaletteTexture(world.components.SkinPalette.data, world.maxJoints));
    const uniforms = (this.uniforms = new BodyUniforms(palette.width));
    this.meshBatch = asset.mesh ? new BodyBatch(asset.mesh, 0, palette, uniforms) : null;
    this.capsuleBatch = new BodyBatch(asset.capsules, 0, palette, uniforms);
    this.coarseBatch = new BodyBatch(asset.coarseCapsules, 0, palette, uniforms);
    if (this.meshBatch) scene.addChild(this.meshBatch.mesh);
    scene.addChild(this.capsuleBatch.mesh, this.coarseBatch.mesh);
  }

  /**
   * One instance per character (root position and yaw, palette row, colour: its tint, or its
   * LOD level's colour), in the batch the body setting picks; the others draw nothing. Uploads
   * the palette rows in use.
   */
  fill(sim: CrowdSim, settings: CrowdSettings): void {
    const { world, agents, count, asset } = sim;
    const root = world.components.RootMotion;
    let choice = settings.body;
    if (choice === 'auto') choice = count <= AUTO_MESH_LIMIT ? 'mesh' : count <= AUTO_CAPSULE_LIMIT ? 'capsules' : 'coarse';
    if (choice === 'mesh' && !this.meshBatch) choice = 'capsules';
    const batch = choice === 'mesh' ? this.meshBatch! : choice === 'capsules' ? this.capsuleBatch : this.coarseBatch;
    const body = choice === 'mesh' ? asset.mesh! : choice === 'capsules' ? asset.capsules : asset.coarseCapsules;
    batch.reserve(count);
    const data = batch.instances;
    const perEntity = this.palette!.texelsPerEntity;
    const lodLevel = world.components.Lod.level;
    const levels = this.levels;
    levels.fill(0);
    for (let i = 0; i < count; i++) {
      const eid = agents.eid[i]!;
      const o = i * INSTANCE_FLOATS;
      data[o] = root.x[eid]!;
      data[o + 1] = root.y[eid]!;
      data[o + 2] = root.z[eid]!;
      data[o + 3] = root.yaw[eid]!;
      data[o + 4] = eid * perEntity;
      if (settings.lod) {
        // The level lodSystem picked this frame (255, unset, before the first frame: shown as 0).
        const picked = lodLevel[eid]!;
        const level = picked < LOD_COLORS.length ? picked : 0;
        levels[level]!++;
        const color = LOD_COLORS[level]!;
        data[o + 5] = color[0];
        data[o + 6] = color[1];
        data[o + 7] = color[2];
      } else {
        data[o + 5] = agents.tint[i * 3]!;
        data[o + 6] = agents.tint[i * 3 + 1]!;
        data[o + 7] = agents.tint[i * 3 + 2]!;
      }
    }
    for (const other of [this.meshBatch, this.capsuleBatch, this.coarseBatch]) if (other && other !== batch) other.commit(0);
    batch.commit(this.noDraw ? 0 : count);
    if (!this.noUpload) this.palette!.upload(1, sim.maxEid);
    const triangles = body.indices.length / 3;
    const what = choice === 'mesh' ? `${asset.label} mesh` : choice === 'capsules' ? 'capsules on every bone' : 'coarse capsules (long bones)';
    this.label = `${what}, GPU-skinned: ${body.vertexCount.toLocaleString('en-US')} vertices, ${triangles.toLocaleString('en-US')} triangles × ${count.toLocaleString('en-US')}`;
    this.trianglesPerFrame = triangles * count;
  }
}

/** The lure (a yellow point over its shadow) and 24 of the followers (blue dots), when followers are on. */
export function drawMarkers(markers: Graphics, camera: OrthoCamera, sim: CrowdSim, settings: CrowdSettings): void {
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
