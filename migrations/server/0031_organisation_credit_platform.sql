-- The counterparty credit platform configuration (spec 6): an organisation setting, off until IT
-- turns it on for an organisation that subscribes to a credit platform.
ALTER TABLE "organisations" ADD COLUMN "credit_platform_enabled" boolean DEFAULT false NOT NULL;
