/** The parts of Khronos's glTF-Validator (npm `gltf-validator`, no typings of its own) the tests use. */
declare module 'gltf-validator' {
  export interface ValidationReport {
    readonly issues: {
      readonly numErrors: number;
      readonly numWarnings: number;
      readonly numInfos: number;
      readonly numHints: number;
      readonly messages: readonly { readonly code: string; readonly message: string; readonly severity: number; readonly pointer?: string }[];
    };
  }
  export function validateBytes(data: Uint8Array, options?: { maxIssues?: number; externalResourceFunction?: (uri: string) => Promise<Uint8Array> }): Promise<ValidationReport>;
}
