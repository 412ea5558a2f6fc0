import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/**
 * Marks a route as an extension beyond the public contract (CONTRACTS §8): additive, under `/api/v1`, never
 * changing what the spec fixes. Generators and readers see `x-extension: true` on the operation; the route's
 * controller also carries the `Extensions` tag family (e.g. `Campaigns (extension)`).
 */
export const ApiContractExtension = () => applyDecorators(ApiExtension('x-extension', true));
