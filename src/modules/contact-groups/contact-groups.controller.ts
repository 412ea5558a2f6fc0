import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { KeyWorld, World } from '../../common/auth/world';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ContactGroupResponse } from './contact-group.response';
import { ContactGroupsService, MAX_CONTACT_GROUPS } from './contact-groups.service';

@ApiTags('Contact groups')
@Controller('api/v1/contact-groups')
export class ContactGroupsController {
  constructor(private readonly groups: ContactGroupsService) {}

  @Get()
  @RequireScope('contact_groups:read')
  @ApiOperation({
    operationId: 'listContactGroups',
    summary: 'Contact groups with member counts (not paginated)',
    description: `Not paginated: an organization has at most ${MAX_CONTACT_GROUPS} contact groups (the admin API's create refuses one more with 422 MAX_CONTACT_GROUPS, an extension).`,
  })
  @ApiDataResponse(ContactGroupResponse, { isArray: true })
  async list(@KeyWorld() world: World): Promise<{ data: ContactGroupResponse[] }> {
    const rows = await this.groups.listWithCounts(world);
    return { data: rows.map((r) => ContactGroupResponse.from(r.group, r.contactCount)) };
  }
}
