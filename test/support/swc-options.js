/*
 * swc's options for our TypeScript in tests, one place for Jest's transform (unit specs) and the module hooks of
 * the medium and end-to-end workers (typescript-hooks.js): legacy decorators with their design-time metadata
 * (which Nest's injection by type, TypeORM's columns and the OpenAPI metadata read), ES2022 with class fields
 * defined as TypeScript's target gives them, CommonJS modules as tsconfig.spec.json asks.
 */
function swcOptions({ decoratorMetadata }) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata, useDefineForClassFields: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  };
}

module.exports = { swcOptions };
