/**
 * setFootLock / clearFootLock at the boundary: defaults from the humanoid map, legs by name or
 * index, every refusal naming its field with nothing changed, the bitecs component, respawned ids.
 */
import { describe, expect, it } from 'vitest';
import { hasComponent } from 'bitecs';
import {
  clearFootLock, createAnimationWorld, disposeAnimationWorld, humanoidMap, parseBvh, removeCharacter, setFootLock, spawnCharacter,
  type AnimationWorld,
} from '../../src/index.js';
import { contactKey } from '../../src/assets/footContactTable.js';
import { refused } from '../fixtures/errors.js';
import { readAssetText } from '../support/assets.js';
import { legRig } from './rig.js';

const rig = legRig();
const cmu = parseBvh(readAssetText('cmu_131_01_start_walk_stop.bvh'), { scale: 0.056444 }).skeleton;

function world(skeleton = rig): { world: AnimationWorld; eid: number } {
  const w = createAnimationWorld({ maxEntities: 4, maxJoints: Math.max(rig.jointCount, cmu.jointCount), kernels: 'js' });
  return { world: w, eid: spawnCharacter(w, skeleton) };
}

/** Every array of the FootLock component, copied. */
function snapshot(w: AnimationWorld): number[][] {
  return Object.values(w.components.FootLock).map((a) => Array.from(a as ArrayLike<number>));
}

describe('setFootLock', () => {
  it('defaults to the humanoid map\'s legs (CMU: LeftUpLeg → LeftLeg → LeftAnkle), weight 1, blendTime 0.2 s, easeIn 0, and adds the component', () => {
    const { world: w, eid } = world(cmu);
    setFootLock(w, eid);
    const f = w.components.FootLock;
    const map = humanoidMap(cmu).joints;
    expect(f.legs[eid]).toBe(2);
    const names = [0, 1].map((k) => [f.upper, f.lower, f.foot].map((a) => cmu.names[a[eid * 4 + k]!]));
    expect(names).toEqual([[map.leftUpperLeg, map.leftLowerLeg, map.leftFoot], [map.rightUpperLeg, map.rightLowerLeg, map.rightFoot]]);
    expect([f.key[eid * 4], f.key[eid * 4 + 1]]).toEqual([contactKey(map.leftFoot!), contactKey(map.rightFoot!)]);
    expect([f.weight[eid], f.blendTime[eid], f.easeIn[eid], f.enabled[eid]]).toEqual([1, 0.2, 0, 1]);
    expect(hasComponent(w.ecs, eid, f)).toBe(true);
  });

  it('takes legs by name or index and a contact marker; omitted settings are kept, the same legs keep their locks', () => {
    const { world: w, eid } = world();
    const f = w.components.FootLock;
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 2, foot: 'footL', contact: 'LeftAnkle' }, { upper: 4, lower: 'shinR', foot: 6 }], weight: 0.5, blendTime: 0.3 });
    expect([f.upper[eid * 4], f.lower[eid * 4], f.foot[eid * 4], f.upper[eid * 4 + 1], f.lower[eid * 4 + 1], f.foot[eid * 4 + 1]]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([f.key[eid * 4], f.key[eid * 4 + 1]]).toEqual([contactKey('LeftAnkle'), contactKey('footR')]);
    f.locked[eid * 4] = 1;
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 2, foot: 'footL', contact: 'LeftAnkle' }, { upper: 4, lower: 'shinR', foot: 6 }], easeIn: 0.1 });
    expect([f.weight[eid], f.blendTime[eid], f.easeIn[eid], f.locked[eid * 4]]).toEqual([0.5, 0.3, 0.1, 1]);
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }] });
    expect([f.legs[eid], f.locked[eid * 4]]).toEqual([1, 0]);
  });

  it('refuses bad input naming the field, and changes nothing', () => {
    const { world: w, eid } = world();
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }] });
    const before = snapshot(w);
    const leg = { upper: 'thighL', lower: 'shinL', foot: 'footL' };
    const cases: [string, () => unknown, RegExp][] = [
      ['not a character', () => setFootLock(w, 3, { legs: [leg] }), /eid/],
      ['options', () => setFootLock(w, eid, 5 as never), /options/],
      ['unknown option', () => setFootLock(w, eid, { legs: [leg], feet: [] } as never), /feet.*not an option/],
      ['unknown leg field', () => setFootLock(w, eid, { legs: [{ ...leg, toe: 'x' }] } as never), /legs\[0\]\.toe/],
      ['no humanoid', () => setFootLock(w, eid), /legs.*not a humanoid.*name the legs/],
      ['legs not an array', () => setFootLock(w, eid, { legs: leg } as never), /legs.*1 to 4/],
      ['no legs', () => setFootLock(w, eid, { legs: [] }), /legs.*1 to 4/],
      ['five legs', () => setFootLock(w, eid, { legs: [leg, leg, leg, leg, leg] }), /legs.*1 to 4/],
      ['unknown joint', () => setFootLock(w, eid, { legs: [{ ...leg, foot: 'toe' }] }), /legs\[0\]\.foot.*"toe" is not a joint/],
      ['index out of range', () => setFootLock(w, eid, { legs: [{ ...leg, upper: 7 }] }), /legs\[0\]\.upper.*\[0, 6\]/],
      ['lower not below upper', () => setFootLock(w, eid, { legs: [{ upper: 'shinL', lower: 'thighL', foot: 'footL' }] }), /legs\[0\]\.lower.*not below upper/],
      ['foot above the leg', () => setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'hips' }] }), /legs\[0\]\.foot.*not below lower/],
      ['foot on another branch of the leg', () => setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'footL', foot: 'shinL' }] }), /legs\[0\]\.foot/],
      ['a foot twice', () => setFootLock(w, eid, { legs: [leg, leg] }), /legs\[1\]\.foot.*an earlier leg/],
      ['legs on one branch', () => setFootLock(w, eid, { legs: [leg, { upper: 'shinL', lower: 'footL', foot: 'footR' }] }), /legs\[1\]\.upper.*one branch/],
      ['contact', () => setFootLock(w, eid, { legs: [{ ...leg, contact: '' }] }), /legs\[0\]\.contact/],
      ['weight', () => setFootLock(w, eid, { legs: [leg], weight: 1.5 }), /weight.*\[0, 1\]/],
      ['weight NaN', () => setFootLock(w, eid, { legs: [leg], weight: NaN }), /weight/],
      ['blendTime', () => setFootLock(w, eid, { legs: [leg], blendTime: -1 }), /blendTime.*\[0, 10\] seconds/],
      ['easeIn', () => setFootLock(w, eid, { legs: [leg], easeIn: Infinity }), /easeIn/],
    ];
    for (const [name, call, message] of cases) {
      const error = refused(call);
      expect(error.message, name).toMatch(/setFootLock/);
      expect(error.message, name).toMatch(message);
      expect(snapshot(w), name).toEqual(before);
    }
  });

  it('a foot outside the leg (an IK foot under the root) is taken as detached', () => {
    const { world: w, eid } = world();
    // The right foot is not below the left shin, nor above the left thigh: outside that leg.
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footR' }] });
    expect(w.components.FootLock.detached[eid * 4]).toBe(1);
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }] });
    expect(w.components.FootLock.detached[eid * 4]).toBe(0);
  });
});

describe('clearFootLock and the row lifecycle', () => {
  it('clears back to the defaults and removes the component; a respawned id starts clear; refusals', () => {
    const { world: w, eid } = world();
    const fresh = snapshot(w);
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }], weight: 0.3 });
    clearFootLock(w, eid);
    expect(snapshot(w)).toEqual(fresh);
    expect(hasComponent(w.ecs, eid, w.components.FootLock)).toBe(false);
    setFootLock(w, eid, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }], weight: 0.3 });
    w.components.FootLock.locked[eid * 4] = 1;
    removeCharacter(w, eid);
    const again = spawnCharacter(w, rig);
    expect(again).toBe(eid);
    expect(snapshot(w)).toEqual(fresh);
    expect(refused(() => clearFootLock(w, 3)).message).toMatch(/clearFootLock.*eid/);
    disposeAnimationWorld(w);
    expect(refused(() => setFootLock(w, again, { legs: [{ upper: 'thighL', lower: 'shinL', foot: 'footL' }] })).message).toMatch(/disposed/);
    expect(refused(() => clearFootLock(w, again)).message).toMatch(/disposed/);
  });
});
