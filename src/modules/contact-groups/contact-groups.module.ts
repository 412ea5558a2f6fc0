import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminContactGroupsController } from './admin-contact-groups.controller';
import { ContactGroup } from './contact-group.entity';
import { ContactGroupMember } from './contact-group-member.entity';
import { ContactGroupsController } from './contact-groups.controller';
import { ContactGroupsRepository } from './contact-groups.repository';
import { ContactGroupsService } from './contact-groups.service';

@Module({
  imports: [TypeOrmModule.forFeature([ContactGroup, ContactGroupMember]), OrganizationsModule],
  controllers: [ContactGroupsController, AdminContactGroupsController],
  providers: [ContactGroupsRepository, ContactGroupsService],
  exports: [ContactGroupsService, TypeOrmModule],
})
export class ContactGroupsModule {}
