/** wgsl_reflect's ES module build (vitest resolves the bare name to its Node build, which fails to load): the package's own types. */
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
