/**
 * examples/pixiFox.ts (docs/pixi.md): a pixi.js app drawing textured Foxes that walk under root
 * motion, skinned on the GPU by bitanim/pixi. The sandbox serves it as a page
 * (sandbox/pixiFox.html); test/pixi/example.test.ts type-checks and imports it, e2e/run.mjs runs it.
 */
// #region imports
import { Application } from 'pixi.js';
import { createAnimationWorld, getRootTransform, loadGltf, play, rootMotionFromFeet, setRootTransform, setTargetSpeed, spawnCharacter, step } from 'bitanim';
import { createCharacterBody, createCrowdRenderer } from 'bitanim/pixi';

// #endregion
// #region app
/** Starts the app: `count` Foxes from the bytes of Fox.glb, on a `width` × `height` canvas. */
export async function pixiFoxes(foxGlb: Uint8Array, count = 100, width = 960, height = 600, preference: 'webgl' | 'webgpu' = 'webgl') {
  const app = new Application();
  await app.init({ width, height, background: '#1b1f26', preference });

  // Fox.glb is in centimetres; its Walk loops in place: give it the travel its paws imply.
  const { skeletons, clips, meshes } = await loadGltf(foxGlb, { scale: 'cm' });
  const walk = rootMotionFromFeet(clips.find((clip) => clip.name === 'Walk')!, {
    feet: ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'],
  });
  // Palette rows in a multiple of 64 pack the palette texture tightly.
  const world = createAnimationWorld({ maxEntities: 64 * Math.ceil((count + 1) / 64) - 1, maxJoints: 24 });
  const crowd = createCrowdRenderer(world, { projection: 'perspective' });
  // Every mesh of the skeleton (a second one, such as a visor, too), their UVs and texture: one draw.
  const body = createCharacterBody(meshes.filter((mesh) => mesh.skeleton === 0));
  app.stage.addChild(crowd);

  const radius = 1.2 * Math.sqrt(count); // metres: about 4.5 m² per Fox
  Object.assign(crowd.camera, { distance: 1.9 * radius + 3, near: 0.5, far: 10 * radius + 50 });
  const foxes: number[] = [];
  for (let n = 0; n < count; n++) {
    const angle = n * 2.39996, r = radius * Math.sqrt((n + 0.5) / count); // a sunflower spiral
    const fox = spawnCharacter(world, skeletons[0]!, { x: r * Math.sin(angle), z: r * Math.cos(angle), yaw: angle + Math.PI / 2, rootMotion: true });
    play(world, fox, walk, { time: (n * 0.13) % walk.duration });
    setTargetSpeed(world, fox, 0.8 + 0.4 * ((n * 7) % 10) / 10); // 0.8 … 1.16 m/s
    crowd.setBody(fox, body);
    foxes.push(fox);
  }

  // Step the world before pixi draws: the crowd reads the palettes and root transforms as it renders.
  app.ticker.add((ticker) => {
    step(world, Math.min(ticker.deltaMS / 1000, 0.1));
    for (const fox of foxes) {
      const { x, z } = getRootTransform(world, fox);
      if (x * x + z * z > radius * radius) setRootTransform(world, fox, { yaw: Math.atan2(-x, -z) }); // head back in
    }
  });
  return { app, world, crowd, body, foxes };
}

/** Fetches the .glb at `url` (a file your server serves) and starts the app: add `app.canvas` to your page. */
export async function showFoxes(url: string | URL = 'Fox.glb', count = 100) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${String(url)}: HTTP ${response.status}`);
  return pixiFoxes(new Uint8Array(await response.arrayBuffer()), count);
}
// #endregion
