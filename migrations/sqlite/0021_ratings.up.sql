-- Issue 29, rematches and ratings. rated: the table's match moves its
-- players' Glicko-2 ratings (domain/rating) when it ends with a result and
-- no bot ever stood in. rematch_wishes: the seats (a JSON array) that asked
-- to play again after the match; rematch_id: the table the rematch is
-- played at, once every player agreed.
ALTER TABLE tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN rematch_wishes TEXT NOT NULL DEFAULT '[]';
-- No foreign key: SQLite cannot drop a column that has one (the down
-- migration), and a table is never deleted while another names it.
ALTER TABLE tables ADD COLUMN rematch_id INTEGER;

-- A user's rating per rule set family (domain.RatingFamily): Glicko-2's
-- rating, deviation and volatility, and the rated matches played.
CREATE TABLE ratings (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family     TEXT   NOT NULL CHECK (family IN ('italian', 'reale', 'brazilian')),
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at DATETIME NOT NULL,
    PRIMARY KEY (user_id, family)
);
CREATE INDEX ratings_family_idx ON ratings (family, rating);

-- Each rated match's change of each of its players' ratings: one row per
-- table and user (a match rates once).
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family      TEXT   NOT NULL,
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    score       DOUBLE PRECISION NOT NULL,
    opponent    DOUBLE PRECISION NOT NULL,
    opponent_rd DOUBLE PRECISION NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rd_before   DOUBLE PRECISION NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    at          DATETIME NOT NULL,
    UNIQUE (table_id, user_id)
);
CREATE INDEX rating_history_user_idx ON rating_history (user_id, family, id);
