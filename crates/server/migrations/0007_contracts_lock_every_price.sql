-- Neighbours §1.7: a rental contract locks each of the offer's prices (GPU, storage, upload,
-- download), and N22 extends it only when none of the offer's new prices is higher than what
-- it locked. Migration 0006 locked `price_gpu` only; these are the other three ($/GB-month,
-- $/GB, $/GB). NULL: the offer had no such price, so the renter is charged nothing for it.
ALTER TABLE contracts ADD COLUMN price_disk  REAL CHECK (price_disk >= 0);
ALTER TABLE contracts ADD COLUMN price_inetu REAL CHECK (price_inetu >= 0);
ALTER TABLE contracts ADD COLUMN price_inetd REAL CHECK (price_inetd >= 0);

-- Contracts made under 0006 (those with a locked price_gpu) take their offer's prices as they
-- stand, the best record of what they locked: an extension that 0006 allowed at these prices
-- is still allowed, and a raise from now on stops it.
UPDATE contracts SET
    price_disk  = (SELECT o.price_disk  FROM offers o WHERE o.machine_id = contracts.machine_id),
    price_inetu = (SELECT o.price_inetu FROM offers o WHERE o.machine_id = contracts.machine_id),
    price_inetd = (SELECT o.price_inetd FROM offers o WHERE o.machine_id = contracts.machine_id)
WHERE price_gpu IS NOT NULL;
