-- Every insert and every update of a contract takes the next change sequence number, whatever the
-- statement says, so the sync cursor can never be forged or forgotten by application code.
CREATE FUNCTION contracts_take_change_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := nextval('contract_change_seq');
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER contracts_take_change_seq
  BEFORE INSERT OR UPDATE ON contracts
  FOR EACH ROW EXECUTE FUNCTION contracts_take_change_seq();
