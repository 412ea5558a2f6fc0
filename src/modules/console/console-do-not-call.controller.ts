import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AdminOnly } from '../../common/auth/access.decorators';
import { World } from '../../common/auth/world';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { DoNotCallEntryResponse } from '../do-not-call/do-not-call-entry.response';
import { DoNotCallService } from '../do-not-call/do-not-call.service';
import { AddDoNotCallDto } from '../do-not-call/dto/add-do-not-call.dto';
import { NUMBER_PARAM, numberParam } from '../do-not-call/number-param';
import { ApiConsoleWorld, ConsoleWorld, ExistingWorldPipe } from './console-world';

/** The do-not-call ledger of the chosen world (the rules of /api/v1/do-not-call); listings made here say `console`. */
@ApiTags('Do not call (extension)')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/do-not-call')
export class ConsoleDoNotCallController {
  constructor(private readonly ledger: DoNotCallService) {}

  @Get()
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminListDoNotCall',
    summary: 'The listed numbers, newest first (GET /api/v1/do-not-call)',
  })
  @ApiPageResponse(DoNotCallEntryResponse)
  @ApiAdminErrors('INVALID_CURSOR')
  list(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Query() query: PageQueryDto,
  ): Promise<Page<DoNotCallEntryResponse>> {
    return this.ledger.list(world, query);
  }

  @Post()
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminAddDoNotCall',
    summary: 'List a number (source `console`); one already listed answers 200 with its listing, a new one 201',
  })
  @ApiDataResponse(DoNotCallEntryResponse, { status: 201 })
  @ApiDataResponse(DoNotCallEntryResponse, { status: 200, description: 'The number was already listed' })
  @ApiAdminErrors()
  async add(
    @ConsoleWorld(ExistingWorldPipe) world: World,
    @Body() dto: AddDoNotCallDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: DoNotCallEntryResponse }> {
    const { status, data } = await this.ledger.addRequested(world, dto, 'console');
    void reply.status(status);
    return { data };
  }

  @Delete(':number')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Lifted' })
  @ApiConsoleWorld()
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'adminRemoveDoNotCall',
    summary: 'Lift a listing (kept as history, lifted by `console`)',
  })
  @ApiParam(NUMBER_PARAM)
  @ApiAdminErrors()
  async remove(@ConsoleWorld(ExistingWorldPipe) world: World, @Param('number') raw: string): Promise<void> {
    await this.ledger.remove(world, numberParam(raw), 'console');
  }
}
