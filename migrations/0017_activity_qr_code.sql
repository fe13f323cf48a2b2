-- A customer's action on a QR code's public page (feedback posted, a vote) is credited to that code:
-- the activity shows where it came from instead of nobody.
ALTER TABLE activity ADD COLUMN actor_qr_code_id uuid REFERENCES qr_codes (id) ON DELETE SET NULL;
