/**
 * The page of examples/pixiFox.ts (sandbox/pixiFox.html), for e2e/run.mjs: `?count=N` Foxes,
 * `?renderer=webgpu` for pixi's WebGPU renderer, `?badtexture=1` to give the body an image
 * that cannot decode, `?selftest=skin` for the GPU-vs-CPU skinning test of the Fox and the morphed Robot (./selftest/pixiSkin.ts,
 * result in `window.__pixiFox.skin`), `?robot=1` for examples/pixiRobot.ts (one whole Robot, its
 * pose held, morph weights set with `window.__pixiFox.setWeights`). It exposes `window.__pixiFox`: ready/error, the renderer's name, the
 * crowd's draw calls, and the crowd's CPU time per frame (median of the last 120 frames).
 */
import { step } from 'bitanim';
import { createCharacterBody } from 'bitanim/pixi';
import { Application } from 'pixi.js';
import { pixiFoxes } from '../../examples/pixiFox';
import { surprisedRobot } from '../../examples/pixiRobot';
import { skinSelftest, type SkinSelftest } from './selftest/pixiSkin';

interface PixiFoxPage {
  ready: boolean;
  error?: string;
  renderer?: string;
  count?: number;
  skin?: SkinSelftest;
  /** Frames the page's ticker ran (before each render). */
  frame?: number;
  stats?: () => { drawCalls: number; drawn: number; culled: number; medianUpdateMs: number; frames: number; texture: string };
  /** Steps the world and runs the crowd's update (not pixi's draw) `frames` times: the median and the largest update, ms. */
  timeUpdates?: (frames: number) => { median: number; max: number };
  /** `?robot=1`: sets the Robot's morph weights (Head.Angry, Head.Surprised, Head.Sad). */
  setWeights?: (weights: number[]) => void;
  /** Shares of colour classes (as `classOf` numbers them, 0 … 13) among the Fox texture's pixels. */
  textureClasses?: (classOf: (r: number, g: number, b: number) => number) => Promise<number[]>;
}

declare global {
  interface Window { __pixiFox: PixiFoxPage }
}

async function start(): Promise<void> {
  window.__pixiFox = { ready: false };
  const params = new URLSearchParams(location.search);
  const count = Number(params.get('count') ?? 100);
  const response = await fetch(new URL('assets/Fox.glb', document.baseURI));
  if (!response.ok) throw new Error(`assets/Fox.glb: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (params.get('selftest') === 'skin') {
    const robot = await fetch(new URL('assets/RobotExpressive.glb', document.baseURI));
    if (!robot.ok) throw new Error(`assets/RobotExpressive.glb: HTTP ${robot.status}`);
    window.__pixiFox = { ready: true, skin: await skinSelftest(bytes, new Uint8Array(await robot.arrayBuffer())) };
    return;
  }
  if (params.get('robot') === '1') {
    await robotPage(params.get('renderer') === 'webgpu' ? 'webgpu' : 'webgl');
    return;
  }
  const { app, world, crowd, body, foxes } = await pixiFoxes(bytes, count, 960, 600, params.get('renderer') === 'webgpu' ? 'webgpu' : 'webgl');
  document.body.appendChild(app.canvas);
  let shown = body;
  if (params.get('badtexture') === '1' && body.material?.baseColorTexture) {
    const texture = { ...body.material.baseColorTexture, image: new Uint8Array([1, 2, 3, 4]) };
    // A body of the same mesh with a bogus image: it must warn and fall back to the factor.
    const { meshes } = await import('bitanim').then(async ({ loadGltf }) => loadGltf(bytes, { scale: 'cm' }));
    shown = createCharacterBody(meshes[0]!, { ...body.material, baseColorTexture: texture });
    for (const fox of foxes) crowd.setBody(fox, shown);
  }
  await shown.texture.ready;
  const times: number[] = [];
  let frame = 0;
  app.ticker.add(() => {
    window.__pixiFox.frame = ++frame;
    times.push(crowd.stats.updateMs);
    if (times.length > 120) times.shift();
  });
  window.__pixiFox = {
    ready: true,
    renderer: app.renderer.name,
    count,
    stats: () => {
      const sorted = [...times].sort((a, b) => a - b);
      return { ...crowd.stats, medianUpdateMs: sorted[sorted.length >> 1] ?? NaN, frames: times.length, texture: shown.texture.status };
    },
    textureClasses: async (classOf) => {
      const texture = body.material!.baseColorTexture!;
      const bitmap = await createImageBitmap(new Blob([texture.image as Uint8Array<ArrayBuffer>], { type: texture.mimeType }));
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      g.drawImage(bitmap, 0, 0);
      const d = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const counts = new Array<number>(14).fill(0);
      for (let i = 0; i < d.length; i += 4) counts[classOf(d[i]!, d[i + 1]!, d[i + 2]!)]!++;
      return counts.map((c) => c / (d.length / 4));
    },
    timeUpdates: (frames) => {
      const ms: number[] = [];
      for (let f = 0; f < frames; f++) {
        step(world, 1 / 60);
        crowd.update();
        ms.push(crowd.stats.updateMs);
      }
      ms.sort((a, b) => a - b);
      return { median: ms[ms.length >> 1]!, max: ms[ms.length - 1]! };
    },
  };
}

/** examples/pixiRobot.ts on a page: the world is not stepped again, so only the weights change the picture. */
async function robotPage(preference: 'webgl' | 'webgpu'): Promise<void> {
  const response = await fetch(new URL('assets/RobotExpressive.glb', document.baseURI));
  if (!response.ok) throw new Error(`assets/RobotExpressive.glb: HTTP ${response.status}`);
  const { crowd, robot } = await surprisedRobot(new Uint8Array(await response.arrayBuffer()));
  const app = new Application();
  await app.init({ width: 600, height: 600, background: '#1b1f26', preference });
  document.body.appendChild(app.canvas);
  app.stage.addChild(crowd);
  Object.assign(crowd.camera, { halfHeight: 1.05, targetY: 0.9, yaw: 0.3, pitch: 0.15 });
  let frame = 0;
  app.ticker.add(() => {
    window.__pixiFox.frame = ++frame;
  });
  window.__pixiFox = {
    ready: true,
    renderer: app.renderer.name,
    count: 1,
    stats: () => ({ ...crowd.stats, medianUpdateMs: crowd.stats.updateMs, frames: frame, texture: 'none' }),
    setWeights: (weights) => crowd.setMorphWeights(robot, weights),
  };
}

start().catch((error: unknown) => {
  console.error(error);
  window.__pixiFox = { ready: false, error: String((error as Error)?.stack ?? error) };
});
