import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact search and membership integrity:
 * - pg_trgm GIN indexes on `lower(title)` and on the phone's digits, so name/phone substring, prefix and fuzzy
 *   search use an index instead of scanning the organization's contacts;
 * - a GIN index on `tags` for the `tags` list filter (array overlap);
 * - memberships cascade away with their contact or group (calls only keep a loose `contact_id`).
 */
export class ContactsSearch1795332194012 implements MigrationInterface {
  name = 'ContactsSearch1795332194012';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_title_trgm" ON "contacts" USING gin (lower("title") gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_phone_digits_trgm" ON "contacts" USING gin (regexp_replace("phone", '\\D', '', 'g') gin_trgm_ops)`,
    );
    // Ordered prefix scans (byte order, so LIKE 'abc%' can use them whatever the database collation): the search's
    // first tier reads the first N name or phone-digit prefix matches straight from these, however many match.
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_title_prefix" ON "contacts" ("organization_id", (lower("title") COLLATE "C"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_phone_digits_prefix" ON "contacts" ("organization_id", (regexp_replace("phone", '\\D', '', 'g') COLLATE "C"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_contacts_tags" ON "contacts" USING gin ("tags")`);
    // Memberships written before this migration may point at nothing; drop those so the constraints can be added.
    await queryRunner.query(
      `DELETE FROM "contact_group_members" m WHERE NOT EXISTS (SELECT 1 FROM "contacts" c WHERE c.id = m.contact_id)
         OR NOT EXISTS (SELECT 1 FROM "contact_groups" g WHERE g.id = m.group_id)`,
    );
    await queryRunner.query(
      `ALTER TABLE "contact_group_members" ADD CONSTRAINT "fk_contact_group_members_group" FOREIGN KEY ("group_id") REFERENCES "contact_groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contact_group_members" ADD CONSTRAINT "fk_contact_group_members_contact" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contact_group_members" DROP CONSTRAINT "fk_contact_group_members_contact"`);
    await queryRunner.query(`ALTER TABLE "contact_group_members" DROP CONSTRAINT "fk_contact_group_members_group"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_tags"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_phone_digits_prefix"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_title_prefix"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_phone_digits_trgm"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_title_trgm"`);
  }
}
