import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { CallDetailResponse, CallResponse } from './call.response';
import { CallsService } from './calls.service';
import { CreateCallCommand } from './create-call.command';
import { EndCallCommand } from './end-call.command';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { CreateCallDto } from './dto/create-call.dto';
import { ListCallsQueryDto } from './dto/list-calls-query.dto';

@ApiTags('Calls')
@Controller('api/v1/calls')
export class CallsController {
  constructor(
    private readonly calls: CallsService,
    private readonly createCall: CreateCallCommand,
    private readonly endCall: EndCallCommand,
  ) {}

  @Get()
  @RequireScope('calls:read')
  @ApiOperation({ operationId: 'listCalls', summary: 'List calls (outbound and inbound), newest first' })
  @ApiPageResponse(CallResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@KeyWorld() world: World, @Query() query: ListCallsQueryDto): Promise<Page<CallResponse>> {
    return this.calls.list(world, query);
  }

  @Post()
  @HttpCode(201)
  @Idempotent()
  @RequireScope('calls:write')
  @ApiOperation({
    operationId: 'createCall',
    summary: 'Create an immediate or scheduled outbound call',
    description:
      'Extension: 422 VALIDATION_ERROR naming `caseId` when the case offers a warm transfer and the `from` ' +
      "number's carrier on the voice platform cannot make one (warm transfers need a Twilio number; docs/tools.md).",
  })
  @ApiDataResponse(CallResponse, { status: 201 })
  @ApiErrors(
    'VALIDATION_ERROR',
    'VALIDATION_ERROR@422',
    'NOT_FOUND',
    'INVALID_PHONE',
    'OUTBOUND_MINUTES_EXHAUSTED',
    'OUTBOUND_PLAN_REQUIRED',
    'DO_NOT_CALL',
    'DESTINATION_NOT_ALLOWED',
  )
  async create(@KeyWorld() world: World, @Body() dto: CreateCallDto): Promise<{ data: CallResponse }> {
    return { data: CallResponse.from(await this.createCall.execute(world, dto)) };
  }

  @Get(':id')
  @RequireScope('calls:read')
  @ApiOperation({ operationId: 'getCall', summary: 'Get one call with its transcript' })
  @ApiDataResponse(CallDetailResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CallDetailResponse }> {
    return { data: CallDetailResponse.fromWithTranscript(await this.calls.get(world, id)) };
  }

  @Post(':id/end')
  @HttpCode(200)
  @RequireScope('calls:write')
  @ApiContractExtension()
  @ApiTags('Calls (extension)')
  @ApiOperation({
    operationId: 'endCall',
    summary: 'End a live call now',
    description:
      'Asks the voice platform to hang up a live call (status `processing`, placed on the platform). The answer is ' +
      'the call as it stands: ended already on the simulator; on a real platform the end follows through its ' +
      'report moments later (`call.ended`). 422 INVALID_STATE for a call that is not live; 503 when the platform ' +
      'could not be asked. Extension.',
  })
  @ApiDataResponse(CallResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE', 'SERVICE_UNAVAILABLE')
  async end(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<{ data: CallResponse }> {
    return { data: CallResponse.from(await this.endCall.execute(world, id)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Cancelled' })
  @RequireScope('calls:write')
  @ApiOperation({ operationId: 'cancelCall', summary: 'Cancel a new or scheduled call' })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_STATE')
  async cancel(@KeyWorld() world: World, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.calls.cancel(world, id);
  }
}
