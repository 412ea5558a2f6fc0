import type { OpenAPIObject } from '@nestjs/swagger';
import { walk } from './openapi-schema-names';

/**
 * A nullable reference, as the Swagger generator writes it (`{allOf: [{$ref}], nullable: true, type: object}`),
 * does not admit null under OpenAPI 3.0: `nullable` widens only a schema's own `type`, and the referenced schema
 * inside `allOf` still refuses null, so a strict validator (Prism) rejects a `null` these properties really hold.
 * Rewritten once over the generated document as 3.0's own idiom, one branch the reference and one branch null
 * alone (`{type: object, nullable: true, enum: [null]}`): strict validators, openapi-typescript and our SDK
 * generator all read it as `Ref | null`. The property's own words (description, example) stay beside `anyOf`.
 */
export function applyNullableRefs(document: OpenAPIObject): void {
  walk(document, (node) => {
    const members = node.allOf as Array<Record<string, unknown>> | undefined;
    if (node.nullable !== true || members?.length !== 1 || typeof members[0].$ref !== 'string') return;
    node.anyOf = [members[0], { type: 'object', nullable: true, enum: [null] }];
    delete node.allOf;
    delete node.nullable;
    delete node.type;
  });
}
