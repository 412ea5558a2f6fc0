import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact search indexes scoped by organization, same names, so the entity's declarations hold:
 * - the name and phone-digit btrees end with `id`: the search's ties go by id, and without it the planner read
 *   every contact of a repeated name ("Alice Johnson" x 1,700) to sort them;
 * - the pg_trgm GIN indexes lead with `organization_id` (btree_gin), so a substring or typo lookup reads one
 *   organization's entries instead of every organization's matches (1,000,000 contacts over 100 organizations).
 * - `contact_names`: each organization's distinct lower-cased names, kept by triggers on contacts. The word,
 *   substring and typo tiers match names there (pg_trgm GIN on (organization, name)), so their work grows with the
 *   distinct names that match, not with the contacts that carry them ("smith" on 10,000 Smiths is 6 names).
 *   Rows are only added (a rename or delete leaves the old name, which then finds no contact): removing a name
 *   when its last contact goes would race with a concurrent insert of the same name.
 * Built in the migration's transaction: contacts is locked for writes while they build (about 10 s per million
 * rows on this machine's class of hardware); run it in a quiet window on a large installation.
 */
export class ContactsSearchByOrganization1795426403804 implements MigrationInterface {
  name = 'ContactsSearchByOrganization1795426403804';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_title_prefix"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_title_prefix" ON "contacts" ("organization_id", (lower("title") COLLATE "C"), "id")`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_phone_digits_prefix"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_phone_digits_prefix" ON "contacts" ("organization_id", (regexp_replace("phone", '\\D', '', 'g') COLLATE "C"), "id")`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_title_trgm"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_title_trgm" ON "contacts" USING gin ("organization_id", lower("title") gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_phone_digits_trgm"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_phone_digits_trgm" ON "contacts" USING gin ("organization_id", regexp_replace("phone", '\\D', '', 'g') gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE TABLE "contact_names" ("organization_id" uuid NOT NULL, "name" text COLLATE "C" NOT NULL,
         CONSTRAINT "pk_contact_names" PRIMARY KEY ("organization_id", "name"))`,
    );
    await queryRunner.query(
      // fastupdate off: a pending list would be scanned by every search until a vacuum merges it, and names are
      // added only when a new one appears, so inserting into the index at once costs little.
      `CREATE INDEX "ix_contact_names_trgm" ON "contact_names" USING gin ("organization_id", "name" gin_trgm_ops) WITH (fastupdate = off)`,
    );
    await queryRunner.query(
      `INSERT INTO "contact_names" ("organization_id", "name")
       SELECT DISTINCT "organization_id", lower("title") FROM "contacts"`,
    );
    // Statement-level with transition tables: a bulk insert adds its names in one statement.
    await queryRunner.query(
      `CREATE FUNCTION "contact_names_add"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO "contact_names" ("organization_id", "name")
         SELECT DISTINCT "organization_id", lower("title") FROM "added_contacts"
         ON CONFLICT DO NOTHING;
         RETURN NULL;
       END $$`,
    );
    for (const event of ['INSERT', 'UPDATE']) {
      await queryRunner.query(
        `CREATE TRIGGER "contact_names_on_${event.toLowerCase()}" AFTER ${event} ON "contacts"
         REFERENCING NEW TABLE AS "added_contacts" FOR EACH STATEMENT EXECUTE FUNCTION "contact_names_add"()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "contact_names_on_update" ON "contacts"`);
    await queryRunner.query(`DROP TRIGGER "contact_names_on_insert" ON "contacts"`);
    await queryRunner.query(`DROP FUNCTION "contact_names_add"()`);
    await queryRunner.query(`DROP TABLE "contact_names"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_phone_digits_trgm"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_phone_digits_trgm" ON "contacts" USING gin (regexp_replace("phone", '\\D', '', 'g') gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_title_trgm"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_title_trgm" ON "contacts" USING gin (lower("title") gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_phone_digits_prefix"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_phone_digits_prefix" ON "contacts" ("organization_id", (regexp_replace("phone", '\\D', '', 'g') COLLATE "C"))`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_org_title_prefix"`);
    await queryRunner.query(
      `CREATE INDEX "ix_contacts_org_title_prefix" ON "contacts" ("organization_id", (lower("title") COLLATE "C"))`,
    );
    await queryRunner.query(`DROP EXTENSION IF EXISTS btree_gin`);
  }
}
