import { MigrationInterface, QueryRunner } from 'typeorm';

export class MinuteLedger1795332420025 implements MigrationInterface {
  name = 'MinuteLedger1795332420025';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "call_reservations" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "call_id" uuid NOT NULL, "allocations" jsonb NOT NULL DEFAULT '[]', "covered" boolean NOT NULL DEFAULT false, "status" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a00d4f98e12f55da0de4c3f5d3d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_call_reservations_call" ON "call_reservations"  ("call_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_call_reservations_open" ON "call_reservations"  ("organization_id") WHERE status = 'reserved'`,
    );
    await queryRunner.query(
      `CREATE TABLE "minute_grants" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "kind" text NOT NULL, "subscription_id" uuid, "granted_mins" integer NOT NULL, "remaining_mins" integer NOT NULL, "reserved_mins" integer NOT NULL DEFAULT '0', "used_mins" integer NOT NULL DEFAULT '0', "period_start" TIMESTAMP(3) WITH TIME ZONE, "expires_at" TIMESTAMP(3) WITH TIME ZONE, "closed" boolean NOT NULL DEFAULT false, "granted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_bd79dc5e9cf48d67d51799916c7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_minute_grants_open" ON "minute_grants"  ("organization_id") WHERE closed = false`,
    );
    await queryRunner.query(
      `CREATE TABLE "minute_ledger" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "type" text NOT NULL, "amount_mins" integer NOT NULL, "balance_after_mins" integer NOT NULL, "duration_mins" double precision, "included_in_plan" boolean NOT NULL DEFAULT false, "description" text NOT NULL, "product_type" text NOT NULL, "provider_call_id" text, "call_id" uuid, "excess_mins" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9ee39b051d552f8b688ec49d7a7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_minute_ledger_call" ON "minute_ledger"  ("call_id") WHERE call_id IS NOT NULL AND type IN ('inbound_call', 'outbound_call')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_minute_ledger_org_calls" ON "minute_ledger"  ("organization_id", "created_at", "id") WHERE type IN ('inbound_call', 'outbound_call')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_minute_ledger_org_created" ON "minute_ledger"  ("organization_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "subscriptions" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "product_type" text NOT NULL, "tier" smallint, "quantity" integer NOT NULL DEFAULT '1', "complimentary" boolean NOT NULL DEFAULT false, "status" text NOT NULL, "enforced" boolean NOT NULL DEFAULT false, "enforcement_starts_at" TIMESTAMP(3) WITH TIME ZONE, "current_period_start" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "current_period_end" TIMESTAMP(3) WITH TIME ZONE, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "canceled_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscriptions_due" ON "subscriptions"  ("current_period_end") WHERE status = 'active'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subscriptions_org" ON "subscriptions"  ("organization_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "trials" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "started_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "granted_mins" integer NOT NULL, "status" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_afe5dc86ce7253d239c3dfea2d3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "ux_trials_org" ON "trials"  ("organization_id") `);
    await queryRunner.query(`CREATE INDEX "ix_trials_due" ON "trials"  ("ends_at") WHERE status = 'active'`);
    await queryRunner.query(
      `CREATE TABLE "usage_balances" ("organization_id" uuid NOT NULL, "balance_mins" integer NOT NULL DEFAULT '0', "reserved_mins" integer NOT NULL DEFAULT '0', "last_entry_at" TIMESTAMP(3) WITH TIME ZONE, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b011787c4e040b0118dd0f17775" PRIMARY KEY ("organization_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "usage_balances"`);
    await queryRunner.query(`DROP INDEX "public"."ix_trials_due"`);
    await queryRunner.query(`DROP INDEX "public"."ux_trials_org"`);
    await queryRunner.query(`DROP TABLE "trials"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_org"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_due"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_minute_ledger_org_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_minute_ledger_org_calls"`);
    await queryRunner.query(`DROP INDEX "public"."ux_minute_ledger_call"`);
    await queryRunner.query(`DROP TABLE "minute_ledger"`);
    await queryRunner.query(`DROP INDEX "public"."ix_minute_grants_open"`);
    await queryRunner.query(`DROP TABLE "minute_grants"`);
    await queryRunner.query(`DROP INDEX "public"."ix_call_reservations_open"`);
    await queryRunner.query(`DROP INDEX "public"."ux_call_reservations_call"`);
    await queryRunner.query(`DROP TABLE "call_reservations"`);
  }
}
