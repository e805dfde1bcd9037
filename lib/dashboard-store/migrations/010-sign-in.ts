/**
 * Sign-in as plants run it (issue 24): identities of outside identity providers (OIDC, Entra ID)
 * bound to users by issuer + subject, server-side sessions that sign-out and admins can end, and
 * invitation links an admin hands a new user. Times of sessions and invitations are epoch
 * milliseconds (BIGINT: compared on every request, never shown as stored).
 */
import { postgresSql, type Migration } from "../../platform/migration";

const sql = `
ALTER TABLE users ADD COLUMN last_sign_in_at TEXT;

-- A person at an identity provider: never matched by e-mail, which a user or tenant can change.
CREATE TABLE user_identities (
  issuer     TEXT NOT NULL,
  subject    TEXT NOT NULL,
  user_id    BIGINT NOT NULL REFERENCES users (id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_by_user ON user_identities (user_id);

-- One row per sign-in; the session cookie carries the id, the row holds only its SHA-256.
CREATE TABLE user_sessions (
  id_hash      TEXT PRIMARY KEY,
  user_id      BIGINT NOT NULL REFERENCES users (id),
  method       TEXT NOT NULL,
  created_at   BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL,
  revoked_at   BIGINT
);
CREATE INDEX user_sessions_by_user ON user_sessions (user_id);

-- An invitation link's token, as SHA-256; used once, before it expires.
CREATE TABLE user_invitations (
  token_hash TEXT PRIMARY KEY,
  user_id    BIGINT NOT NULL REFERENCES users (id),
  created_by TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at    BIGINT
);
CREATE INDEX user_invitations_by_user ON user_invitations (user_id);
`;

const migration: Migration = { version: 10, name: "sign-in", sql, postgres: postgresSql({ version: 10, name: "sign-in", sql }) };

export default migration;
