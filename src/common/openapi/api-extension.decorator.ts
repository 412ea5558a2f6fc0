import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * Marks a route as an extension beyond the public contract (docs/contracts/modes.md): additive, under `/api/v1`, never
 * changing what the spec fixes; in openapi/admin.yaml, an admin route beyond docs/contracts/admin-api.md and docs/contracts/dialer.md. Generators and
 * readers see `x-extension: true` on the operation; the route also carries a `… (extension)` tag (e.g.
 * `Campaigns (extension)`).
 */
export const ApiContractExtension = () => applyDecorators(ApiExtension('x-extension', true));
