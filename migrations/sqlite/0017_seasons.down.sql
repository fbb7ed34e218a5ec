DROP TABLE season_exclusions;
DROP TABLE seasons;
