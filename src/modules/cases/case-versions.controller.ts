import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiContractExtension } from '../../common/openapi/api-extension.decorator';
import { ApiPageResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { Page, PageQueryDto } from '../../common/pagination/pagination.dto';
import { CaseVersionResponse } from './case-version.response';
import { CasesService } from './cases.service';

@ApiTags('Cases (extension)')
@Controller('api/v1/cases/:id/versions')
export class CaseVersionsController {
  constructor(private readonly cases: CasesService) {}

  @Get()
  @RequireScope('cases:read')
  @ApiContractExtension()
  @ApiOperation({
    operationId: 'listCaseVersions',
    summary: "A case's versions with their content, newest first",
    description:
      'Every change of the prompt, first message, variables, tools, voicemail or analysis makes a new immutable ' +
      'version (1, 2, …); a rename does not. Calls record the version they used (`caseVersion`). Extension ' +
      '(docs/testing-your-assistant.md).',
  })
  @ApiPageResponse(CaseVersionResponse)
  @ApiErrors('VALIDATION_ERROR', 'INVALID_CURSOR', 'NOT_FOUND')
  list(
    @OrgId() orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<CaseVersionResponse>> {
    return this.cases.listVersions(orgId, id, query);
  }
}
