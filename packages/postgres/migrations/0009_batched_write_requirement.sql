-- A unit of work sends the writes it held back as one statement of data-modifying CTEs
-- (packages/postgres/src/write-batch.ts). A write may require a condition of what its statements
-- did (an idempotency completion: that its claim's token still held the key); the statement's
-- select list checks each with this function, which aborts the whole statement, and with it every
-- write of the batch, when the condition does not hold. The requirement's position in the batch
-- comes back in the error's DETAIL, so the unit of work knows which write's failure to report.
CREATE FUNCTION batched_write_requirement(holds boolean, requirement integer) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF holds IS NOT TRUE THEN
    RAISE EXCEPTION 'a requirement of a batched write does not hold'
      USING ERRCODE = 'OKB01', DETAIL = requirement::text;
  END IF;
  RETURN true;
END
$$;
