DROP TRIGGER users_delete_idempotency_keys ON users;
DROP FUNCTION users_deleted_keys();
DROP TRIGGER table_deals_delete_moves ON table_deals;
DROP FUNCTION table_deals_deleted();

-- Rows a foreign key would refuse (none, unless written by hand since).
DELETE FROM idempotency_keys k WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = k.owner_id);
DELETE FROM table_moves m WHERE NOT EXISTS (SELECT 1 FROM table_deals d WHERE d.table_id = m.table_id AND d.number = m.deal);
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_owner_id_fkey
    FOREIGN KEY (owner_id) REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE table_moves ADD CONSTRAINT table_moves_table_id_deal_fkey
    FOREIGN KEY (table_id, deal) REFERENCES table_deals (table_id, number) ON DELETE CASCADE;
