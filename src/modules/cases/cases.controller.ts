import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse, ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page } from '../../common/pagination/pagination.dto';
import { CaseListItemResponse, CaseResponse } from './case.response';
import { CasesService } from './cases.service';
import { CreateCaseDto } from './dto/create-case.dto';
import { ListCasesQueryDto } from './dto/list-cases-query.dto';
import { UpdateCaseDto } from './dto/update-case.dto';

@ApiTags('Cases')
@Controller('api/v1/cases')
export class CasesController {
  constructor(private readonly cases: CasesService) {}

  @Get()
  @RequireScope('cases:read')
  @ApiOperation({ operationId: 'listCases', summary: 'List cases (list representation), newest first' })
  @ApiPageResponse(CaseListItemResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR')
  list(@OrgId() orgId: string, @Query() query: ListCasesQueryDto): Promise<Page<CaseListItemResponse>> {
    return this.cases.list(orgId, query);
  }

  @Get(':id')
  @RequireScope('cases:read')
  @ApiOperation({ operationId: 'getCase', summary: 'Get a case' })
  @ApiDataResponse(CaseResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@OrgId() orgId: string, @Param('id', IdParamPipe) id: string): Promise<{ data: CaseResponse }> {
    return { data: CaseResponse.from(await this.cases.get(orgId, id)) };
  }

  @Post()
  @HttpCode(201)
  @Idempotent()
  @RequireScope('cases:write')
  @ApiOperation({ operationId: 'createCase', summary: 'Create a case' })
  @ApiDataResponse(CaseResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR')
  async create(@OrgId() orgId: string, @Body() dto: CreateCaseDto): Promise<{ data: CaseResponse }> {
    return { data: CaseResponse.from(await this.cases.create(orgId, dto)) };
  }

  @Patch(':id')
  @RequireScope('cases:write')
  @ApiOperation({
    operationId: 'updateCase',
    summary: 'Update a case: only sent fields change, null means leave unset (a GET body can be sent back)',
  })
  @ApiDataResponse(CaseResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT')
  async update(
    @OrgId() orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateCaseDto,
  ): Promise<{ data: CaseResponse }> {
    return { data: CaseResponse.from(await this.cases.update(orgId, id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @RequireScope('cases:write')
  @ApiOperation({
    operationId: 'deleteCase',
    summary: 'Delete a case; 409 while queued calls, recurring schedules or follow-up campaigns reference it',
  })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT')
  async delete(@OrgId() orgId: string, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.cases.delete(orgId, id);
  }
}
