import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { DoNotCallEntryResponse } from './do-not-call-entry.response';
import { DoNotCallService } from './do-not-call.service';
import { AddDoNotCallDto } from './dto/add-do-not-call.dto';
import { NUMBER_PARAM, numberParam } from './number-param';

const LEDGER_RULES =
  'Extension (docs/contracts/dialer.md). The ledger is checked right before every dial, whatever placed the call (POST ' +
  '/calls, campaigns, recurring schedules, follow-ups): a direct call to a listed number is refused with 422 ' +
  'DO_NOT_CALL, a queued call whose number was listed meanwhile ends in `error` with endedReason `do-not-call`, ' +
  'and a campaign entry is skipped with skipReason `DO_NOT_CALL`. A chat message STOP, STOPALL, UNSUBSCRIBE, ' +
  'CANCEL, END or QUIT (any case, surrounding spaces ignored) lists the sender with source `message`.';

@ApiTags('Do not call (extension)')
@Controller('api/v1/do-not-call')
export class DoNotCallController {
  constructor(private readonly ledger: DoNotCallService) {}

  @Get()
  @RequireScope('do_not_call:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'listDoNotCall',
    summary: 'List the numbers that must not be called',
    description: LEDGER_RULES,
  })
  @ApiPageResponse(DoNotCallEntryResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@KeyWorld() world: World, @Query() query: PageQueryDto): Promise<Page<DoNotCallEntryResponse>> {
    return this.ledger.list(world, query);
  }

  @Post()
  @RequireScope('do_not_call:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'addDoNotCall',
    summary: 'Add a number to the do-not-call ledger',
    description: `${LEDGER_RULES} Adding a number already listed answers 200 with the existing listing; a new one 201.`,
  })
  @ApiDataResponse(DoNotCallEntryResponse, { status: 201 })
  @ApiDataResponse(DoNotCallEntryResponse, { status: 200, description: 'The number was already listed' })
  @ApiErrors('VALIDATION_ERROR')
  async add(
    @KeyWorld() world: World,
    @Body() dto: AddDoNotCallDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: DoNotCallEntryResponse }> {
    const { status, data } = await this.ledger.addRequested(world, dto, 'api');
    void reply.status(status);
    return { data };
  }

  @Get(':number')
  @RequireScope('do_not_call:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'getDoNotCall',
    summary: "A number's active listing on the do-not-call ledger",
    description: 'A number that is not listed (never, or lifted since) is 404 NOT_FOUND.',
  })
  @ApiParam(NUMBER_PARAM)
  @ApiDataResponse(DoNotCallEntryResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('number') raw: string): Promise<{ data: DoNotCallEntryResponse }> {
    return { data: DoNotCallEntryResponse.from(await this.ledger.get(world, numberParam(raw))) };
  }

  @Delete(':number')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Lifted' })
  @RequireScope('do_not_call:write')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'removeDoNotCall',
    summary: 'Lift a number from the do-not-call ledger',
    description: 'The listing is kept as history (when and by whom it was lifted); the number may be dialled again.',
  })
  @ApiParam(NUMBER_PARAM)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async remove(@KeyWorld() world: World, @Param('number') raw: string): Promise<void> {
    await this.ledger.remove(world, numberParam(raw));
  }
}
