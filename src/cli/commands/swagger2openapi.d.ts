// The one function openapi-load.ts calls from swagger2openapi, which ships no types of its own.
declare module 'swagger2openapi' {
  export function convertObj(
    swagger: object,
    options: { readonly patch?: boolean; readonly warnOnly?: boolean; readonly resolve?: boolean },
  ): Promise<{ readonly openapi: object }>;
}
