-- The names of deleted player profiles. A tournament's entries name their
-- players by profile id (in its event log), and its standings, exports and
-- printouts show the players' names: deleting a profile while a tournament
-- ran erased the name from its results, published ones included
-- (issue 19). Deleting a profile now keeps its id and name here, and the
-- tournaments read names from players and from this table.

CREATE TABLE deleted_player_names (
    id         INTEGER PRIMARY KEY, -- the deleted players.id (ids are never reused)
    name       TEXT     NOT NULL,
    deleted_at DATETIME NOT NULL
);
