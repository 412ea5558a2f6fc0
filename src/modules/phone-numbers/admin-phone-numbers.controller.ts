import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { OrganizationsService } from '../organizations/organizations.service';
import { CreatePhoneNumberDto } from './dto/create-phone-number.dto';
import { PhoneNumberResponse } from './phone-number.response';
import { PhoneNumbersService } from './phone-numbers.service';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/phone-numbers')
export class AdminPhoneNumbersController {
  constructor(
    private readonly numbers: PhoneNumbersService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Param('orgId', IdParamPipe) orgId: string, @Body() dto: CreatePhoneNumberDto) {
    await this.organizations.mustExist(orgId);
    const number = await this.numbers.create(orgId, dto);
    return { data: { ...PhoneNumberResponse.from(number), providerId: number.providerId } };
  }
}
