/*
 * ts-jest adapter for @nestjs/swagger's compiler plugin (the one `nest build` runs), so the app under test
 * carries the same OpenAPI metadata as the built one.
 */
const plugin = require('@nestjs/swagger/plugin');

const OPTIONS = { introspectComments: true, classValidatorShim: true, dtoFileNameSuffix: ['.dto.ts', '.response.ts'] };

module.exports = {
  name: 'nestjs-swagger-plugin',
  version: 1,
  factory: (tsCompiler) => plugin.before(OPTIONS, tsCompiler.program),
};
