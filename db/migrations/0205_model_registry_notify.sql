-- Replicas follow the shared model registry while they run (src/registry/registry-follower.ts): every change of the
-- registry row (a submission, a rollback, a mirror write, a report stored: registry-pg.ts touches updated_at) is
-- announced on avm_model_registry, so each replica mirrors the new champion at once instead of at its next restart.
CREATE FUNCTION avm_model_registry_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('avm_model_registry', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER model_registry_changed AFTER INSERT OR UPDATE ON model_registry
  FOR EACH ROW EXECUTE FUNCTION avm_model_registry_notify();
