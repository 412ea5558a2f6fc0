import { ExecutionContext, Injectable, PipeTransform, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { World } from '../../common/auth/world';
import { consoleRequestWorld } from '../../common/auth/console-request-world';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { OrganizationsService } from '../organizations/organizations.service';

/**
 * The world the console is looking at, from its Test / Live switch: `?livemode=false` is the organization's test
 * data, `true` or nothing its live data. Per-world console routes take it instead of the bare organization, so
 * every list, count and action the console shows obeys the switch, as a key's world binds the public routes.
 * Use it with `ExistingWorldPipe`: `@ConsoleWorld(ExistingWorldPipe) world: World`.
 */
export const ConsoleWorld = createParamDecorator((_: unknown, ctx: ExecutionContext): World =>
  consoleRequestWorld(ctx.switchToHttp().getRequest<FastifyRequest>()),
);

/** The world's `:orgId` checked as every admin route checks it (ExistingOrganizationPipe). */
@Injectable()
export class ExistingWorldPipe implements PipeTransform<World, Promise<World>> {
  private readonly organization: ExistingOrganizationPipe;

  constructor(organizations: OrganizationsService) {
    this.organization = new ExistingOrganizationPipe(organizations);
  }

  async transform(world: World): Promise<World> {
    return { ...world, organizationId: await this.organization.transform(world.organizationId) };
  }
}

/** Documents the switch on a console route that takes `@ConsoleWorld()`. */
export const ApiConsoleWorld = () =>
  applyDecorators(
    ApiParam({ name: 'orgId', type: String }),
    ApiQuery({
      name: 'livemode',
      required: false,
      schema: { type: 'boolean', default: true },
      description: "The console's Test / Live switch: false reads and changes the organization's test data",
    }),
  );
