/**
 * Issue 22's acceptance for the runtime side of the expression curves: RobotExpressive with its
 * Wave clip's morph `weights` rewritten (its own clips keep every weight at 0; a copy is made
 * here with @gltf-transform, as test/oracle/gltfRigidMorph.test.ts makes it), played on a
 * character: `getCurves` after each update equals three.js's `morphTargetInfluences`
 * (GLTFLoader + AnimationMixer on the same bytes) within 1e-2, at keys and between keys.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Accessor, NodeIO } from '@gltf-transform/core';
import type * as THREE from 'three';
import { curveIndex, getCurves, loadGltf, play, spawnCharacter, step, type GltfResult } from '../../src/index.js';
import { parseWithThree, poseThree, readAsset, type ThreeGltf } from '../oracle/gltfThree.js';
import { oracleWorld } from '../oracle/harness.js';

const NAMES = ['Head.Angry', 'Head.Surprised', 'Head.Sad'];

/** Three smooth waves in [0, 1], one per target (the oracle's). */
function wave(t: number, target: number): number {
  return 0.5 + 0.5 * Math.sin(2 * Math.PI * (t / 1.8) + (target * 2 * Math.PI) / 3);
}

describe('RobotExpressive, Wave with animated expressions: getCurves vs three.js morphTargetInfluences', () => {
  let ours: GltfResult, three: ThreeGltf;
  beforeAll(async () => {
    const io = new NodeIO();
    const doc = await io.readBinary(readAsset('RobotExpressive.glb'));
    const animation = doc.getRoot().listAnimations().find((a) => a.getName() === 'Wave')!;
    const sampler = animation.listChannels().find((c) => c.getTargetPath() === 'weights')!.getSampler()!;
    const times = sampler.getInput()!.getArray()!;
    const values = new Float32Array(times.length * 3);
    for (let k = 0; k < times.length; k++) for (let target = 0; target < 3; target++) values[k * 3 + target] = wave(times[k]!, target);
    sampler.setOutput(doc.createAccessor('waveWeights').setType(Accessor.Type.SCALAR).setArray(values).setBuffer(doc.getRoot().listBuffers()[0]!));
    const bytes = await io.writeBinary(doc);
    [ours, three] = await Promise.all([loadGltf(bytes, { frameRate: 24 }), parseWithThree(bytes)]);
  });

  for (const kernels of ['js', 'wasm'] as const) {
    it(`within 1e-2 at keys and between keys, posed by play + step (kernels: ${kernels})`, () => {
      const skeleton = ours.skeletons[0]!;
      expect(skeleton.curves.map((c) => c.name)).toEqual(NAMES);
      const world = oracleWorld(1, skeleton.jointCount, kernels);
      const eid = spawnCharacter(world, skeleton);
      const clip = ours.clips.find((c) => c.name === 'Wave')!;
      const threeClip = three.gltf.animations.find((a) => a.name === 'Wave')!;
      let head: THREE.Mesh | undefined;
      three.gltf.scene.traverse((o) => {
        const mesh = o as THREE.Mesh;
        if (mesh.isMesh && mesh.morphTargetInfluences?.length === 3 && head === undefined) head = mesh;
      });
      const dictionary = head!.morphTargetDictionary!;
      let worst = 0;
      for (const time of [0, 0.1, 0.3125, 0.55, 0.9, 1.2083, 1.5, 1.8]) {
        play(world, eid, clip, { time, speed: 0 });
        step(world, 0);
        poseThree(three, threeClip, time);
        const curves = getCurves(world, eid);
        expect(Math.max(...head!.morphTargetInfluences!), `three's weights at ${time}`).toBeGreaterThan(0.4);
        for (const name of NAMES) {
          const k = dictionary[name.slice('Head.'.length)]!;
          worst = Math.max(worst, Math.abs(curves[curveIndex(skeleton, name)]! - head!.morphTargetInfluences![k]!));
        }
      }
      console.log(`[curves] Robot Wave (${kernels}): getCurves vs morphTargetInfluences max |Δ| ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-2);
    });
  }

  it('played over time (60 Hz steps, looping): getCurves follows three\'s mixer at the same clock', () => {
    const skeleton = ours.skeletons[0]!;
    const world = oracleWorld(1, skeleton.jointCount, 'js');
    const eid = spawnCharacter(world, skeleton);
    const clip = ours.clips.find((c) => c.name === 'Wave')!;
    const threeClip = three.gltf.animations.find((a) => a.name === 'Wave')!;
    let head: THREE.Mesh | undefined;
    three.gltf.scene.traverse((o) => {
      const mesh = o as THREE.Mesh;
      if (mesh.isMesh && mesh.morphTargetInfluences?.length === 3 && head === undefined) head = mesh;
    });
    play(world, eid, clip);
    let worst = 0;
    for (let frame = 1; frame <= 150; frame++) {
      step(world, 1 / 60);
      if (frame % 10 !== 0) continue;
      const t = (frame / 60) % clip.duration;
      poseThree(three, threeClip, t);
      const curves = getCurves(world, eid);
      for (const name of NAMES) {
        const k = head!.morphTargetDictionary![name.slice('Head.'.length)]!;
        worst = Math.max(worst, Math.abs(curves[curveIndex(skeleton, name)]! - head!.morphTargetInfluences![k]!));
      }
    }
    expect(worst).toBeLessThan(1e-2);
  });
});
