import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { PhoneNumberResponse } from './phone-number.response';
import { MAX_PHONE_NUMBERS, PhoneNumbersService } from './phone-numbers.service';

@ApiTags('Phone numbers')
@Controller('api/v1/phone-numbers')
export class PhoneNumbersController {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @Get()
  @RequireScope('phone_numbers:read')
  @ApiOperation({
    operationId: 'listPhoneNumbers',
    summary: "The organization's phone numbers (not paginated)",
    description: `Not paginated: an organization has at most ${MAX_PHONE_NUMBERS} phone numbers (the admin API's assignment refuses one more with 422 MAX_PHONE_NUMBERS, an extension).`,
  })
  @ApiDataResponse(PhoneNumberResponse, { isArray: true })
  async list(@OrgId() orgId: string): Promise<{ data: PhoneNumberResponse[] }> {
    return { data: (await this.numbers.list(orgId)).map(PhoneNumberResponse.from) };
  }
}
