/**
 * What a user's Sessions page shows of each session (issue 35): the browser's User-Agent and the
 * address it signed in from, both as the sign-in request named them (bounded; null for sessions
 * made before this migration or by tests).
 */
import type { Migration } from "../../platform/migration";

const sql = `
ALTER TABLE user_sessions ADD COLUMN user_agent TEXT;
ALTER TABLE user_sessions ADD COLUMN address TEXT;
`;

const migration: Migration = { version: 43, name: "session-client", sql };

export default migration;
