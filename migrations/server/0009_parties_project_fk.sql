-- contracts.project_id lives in the core schema, projects in their feature's: the foreign key is
-- declared here so the core schema does not import a feature. Deleting a project frees its contracts.
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE SET NULL;
