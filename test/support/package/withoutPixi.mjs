// Run by test/package.test.ts in the user's project before pixi.js is installed: every entry of
// the package, imported by name, reports its export count or its import error. A game that
// does not draw with pixi never installs pixi.js (npm leaves optional peers out), so only
// bitanim/pixi may fail, and it must say why.
const report = {};
for (const entry of ['bitanim', 'bitanim/kernels', 'bitanim/lod', 'bitanim/pixi']) {
  try {
    report[entry] = { exports: Object.keys(await import(entry)).length };
  } catch (error) {
    report[entry] = { error: String(error.message), code: String(error.code) };
  }
}
process.stdout.write(JSON.stringify(report));
