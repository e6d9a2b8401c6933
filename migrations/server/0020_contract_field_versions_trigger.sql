-- Per-field versions (architecture, sync rule 6): on every update that moves a row's version, the
-- groups of fields it really changed take the new version in field_versions. The arguments name
-- "column=group" pairs; "column=prefix:*" tracks each key of a jsonb column as its own group
-- ("form:<field id>"). Any table with version and field_versions columns can use it with its own
-- pairs, as contracts do here.
CREATE FUNCTION sync_track_field_versions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := to_jsonb(OLD);
  new_row jsonb := to_jsonb(NEW);
  changed jsonb := '{}'::jsonb;
  pair text;
  col text;
  grp text;
  k text;
BEGIN
  IF NEW.version IS NOT DISTINCT FROM OLD.version THEN
    RETURN NEW;
  END IF;
  FOREACH pair IN ARRAY TG_ARGV LOOP
    col := split_part(pair, '=', 1);
    grp := split_part(pair, '=', 2);
    IF right(grp, 2) = ':*' THEN
      FOR k IN SELECT jsonb_object_keys(coalesce(old_row -> col, '{}'::jsonb) || coalesce(new_row -> col, '{}'::jsonb)) LOOP
        IF (old_row -> col -> k) IS DISTINCT FROM (new_row -> col -> k) THEN
          changed := changed || jsonb_build_object(left(grp, -1) || k, NEW.version);
        END IF;
      END LOOP;
    ELSIF (old_row -> col) IS DISTINCT FROM (new_row -> col) THEN
      changed := changed || jsonb_build_object(grp, NEW.version);
    END IF;
  END LOOP;
  NEW.field_versions := coalesce(OLD.field_versions, '{}'::jsonb) || changed;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER contracts_track_field_versions
  BEFORE UPDATE ON contracts
  FOR EACH ROW EXECUTE FUNCTION sync_track_field_versions(
    'name=name', 'contract_number=contractNumber', 'sign_date=signDate', 'amount=amount', 'amount_unit=amount',
    'contract_type_id=contractTypeId', 'counterparty_id=counterparty', 'status=status', 'responsible_user_id=responsible',
    'department_id=responsible', 'business_handler_user_id=responsible', 'template_id=template', 'project_id=project',
    'archive_file_id=archive', 'case_type_id=caseType', 'form_values=form:*');
--> statement-breakpoint
-- What changed before the versions were kept is unknown: every group of an existing contract
-- starts at its current version ("*"), so an edit based on an older one conflicts as before.
-- Written with the row triggers off: this is no change of the contracts, and must not send them
-- all down the feed again.
ALTER TABLE contracts DISABLE TRIGGER USER;
--> statement-breakpoint
UPDATE contracts SET field_versions = jsonb_build_object('*', version);
--> statement-breakpoint
ALTER TABLE contracts ENABLE TRIGGER USER;
